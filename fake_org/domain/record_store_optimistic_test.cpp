// write_optimistic: a request that ran beside a conflicting commit runs
// again, one that did not commits as it ran; the seam between the two phases
// lets each test put a commit exactly there.
#include <catch2/catch.hpp>
#include <condition_variable>
#include <cstdio>
#include <future>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "record_store.h"
#include "testing/eventually.h"

using namespace fake_org;

namespace {
Record optimistic_contact(std::string id, std::string email) {
  Record r;
  r.object = "Contact";
  r.id = std::move(id);
  r.fields = {{"Email", std::move(email)}};
  return r;
}

std::vector<IndexSpec> optimistic_specs() {
  return {{"by-email", "Contact", {"Email"}, true}};
}

const std::string kFirst = "003000000000101AAA";
const std::string kSecond = "003000000000102AAA";

// Creates a contact for `email` unless one matches (a deduplicating create).
struct DedupCreate {
  RecordStore& store;
  std::string id;
  std::string email;
  int runs = 0;
  Result<std::string> operator()() {
    return store.write_optimistic<std::string>([&](Transaction& tx) -> Result<std::string> {
      ++runs;
      auto found = tx.find("by-email", {email});
      if (!found.empty()) return found.front();
      tx.put(optimistic_contact(id, email));
      return id;
    });
  }
};

Status put_contact(RecordStore& store, const std::string& id, const std::string& email) {
  return store.write<Ok>([&](Transaction& tx) -> Status {
    tx.put(optimistic_contact(id, email));
    return ok_status();
  });
}

// Holds the store shared from another thread until release(): no request can
// commit meanwhile, so those that finish their run queue for their commit.
class HeldReader {
 public:
  explicit HeldReader(RecordStore& store) {
    std::future<void> held = holding_.get_future();
    thread_ = std::thread([this, &store, left = leave_.get_future()] {
      store.read([&](const RecordStore&) {
        holding_.set_value();
        left.wait();
      });
    });
    held.wait();  // else the first writer could commit alone
  }
  ~HeldReader() { release(); }
  void release() {
    if (!thread_.joinable()) return;
    leave_.set_value();
    thread_.join();
  }

 private:
  std::promise<void> holding_;
  std::promise<void> leave_;
  std::thread thread_;
};

// Between their run and their commit, optimistic requests wait until
// `expected` of them have run.
struct Meeting {
  explicit Meeting(int n) : expected(n) {}
  void arrive() {
    std::unique_lock lock(mu);
    ++ran;
    cv.notify_all();
    cv.wait(lock, [&] { return ran == expected; });
  }
  const int expected;
  std::mutex mu;
  std::condition_variable cv;
  int ran = 0;
};
}  // namespace

TEST_CASE("an optimistic write that read what another commit wrote runs again",
          "[store][optimistic]") {
  RecordStore store(optimistic_specs());
  // Between the request's run and its commit, another request creates the
  // same payer: the first must see it and match it, not create a twin.
  store.set_between_phases_for_test([&] {
    store.set_between_phases_for_test(nullptr);
    REQUIRE(put_contact(store, kSecond, "ADA@example.org").ok());
  });
  DedupCreate create{store, kFirst, "ada@example.org"};
  auto r = create();
  REQUIRE(r.ok());
  CHECK(*r == kSecond);
  CHECK(create.runs == 2);
  CHECK(store.get(kFirst) == nullptr);
  CHECK(store.size() == 1);
  auto stats = store.write_lock_stats();
  CHECK(stats.retried == 1);
  CHECK(stats.optimistic == 0);
  CHECK(stats.commits == 2);
}

TEST_CASE("an optimistic write beside an unrelated commit commits as it ran",
          "[store][optimistic]") {
  RecordStore store(optimistic_specs());
  store.set_between_phases_for_test([&] {
    store.set_between_phases_for_test(nullptr);
    REQUIRE(put_contact(store, kSecond, "grace@example.org").ok());
  });
  DedupCreate create{store, kFirst, "ada@example.org"};
  auto r = create();
  REQUIRE(r.ok());
  CHECK(*r == kFirst);
  CHECK(create.runs == 1);
  CHECK(store.size() == 2);
  auto stats = store.write_lock_stats();
  CHECK(stats.optimistic == 1);
  CHECK(stats.retried == 0);
}

TEST_CASE("an optimistic write that read a record another commit changed runs again",
          "[store][optimistic]") {
  RecordStore store(optimistic_specs());
  REQUIRE(put_contact(store, kFirst, "ada@example.org").ok());
  // The request reads the contact by id and copies its email; meanwhile the
  // email changes: the copy must be of the new one.
  store.set_between_phases_for_test([&] {
    store.set_between_phases_for_test(nullptr);
    REQUIRE(put_contact(store, kFirst, "ada@lovelace.example").ok());
  });
  int runs = 0;
  auto r = store.write_optimistic<Ok>([&](Transaction& tx) -> Status {
    ++runs;
    tx.put(optimistic_contact(kSecond, tx.get(kFirst)->text("Email")));
    return ok_status();
  });
  REQUIRE(r.ok());
  CHECK(runs == 2);
  CHECK(store.get(kSecond)->text("Email") == "ada@lovelace.example");
}

TEST_CASE("a reset between an optimistic write's run and its commit makes it run again",
          "[store][optimistic]") {
  RecordStore store(optimistic_specs());
  REQUIRE(put_contact(store, kSecond, "grace@example.org").ok());
  store.set_between_phases_for_test([&] {
    store.set_between_phases_for_test(nullptr);
    REQUIRE(store.replace_all([](Transaction&) { return ok_status(); }).ok());
  });
  DedupCreate create{store, kFirst, "ada@example.org"};
  REQUIRE(create().ok());
  CHECK(create.runs == 2);
  // Only what the second run wrote, after the reset.
  CHECK(store.size() == 1);
  CHECK(store.get(kSecond) == nullptr);
}

TEST_CASE("a failed optimistic write commits nothing and runs once", "[store][optimistic]") {
  RecordStore store(optimistic_specs());
  bool between = false;
  store.set_between_phases_for_test([&] { between = true; });
  int runs = 0;
  auto r = store.write_optimistic<Ok>([&](Transaction& tx) -> Status {
    ++runs;
    tx.put(optimistic_contact(kFirst, "ada@example.org"));
    return make_error(error_code::kInvalidData, "Payer", "refused");
  });
  CHECK_FALSE(r.ok());
  CHECK(runs == 1);
  CHECK_FALSE(between);
  CHECK(store.size() == 0);
}

TEST_CASE("concurrent optimistic deduplicating creates make one record per payer",
          "[store][optimistic][concurrency]") {
  RecordStore store(optimistic_specs());
  constexpr int kThreads = 8;
  constexpr int kPayers = 50;
  std::vector<std::thread> threads;
  std::vector<std::vector<std::string>> answers(kThreads);
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int p = 0; p < kPayers; ++p) {
        char id[19];
        std::snprintf(id, sizeof id, "003%06d%06dAAA", t, p);
        DedupCreate create{store, id, "payer" + std::to_string(p) + "@example.org"};
        auto r = create();
        answers[t].push_back(r.ok() ? *r : "failed");
      }
    });
  for (auto& th : threads) th.join();
  CHECK(store.size() == kPayers);
  // Every thread got the one record of each payer.
  for (int p = 0; p < kPayers; ++p)
    for (int t = 1; t < kThreads; ++t) CHECK(answers[t][p] == answers[0][p]);
  auto stats = store.write_lock_stats();
  CHECK(stats.commits == static_cast<uint64_t>(kThreads * kPayers));
  // A conflict costs one extra hold: the check that found it.
  CHECK(stats.holds == stats.commits + stats.retried);
}

TEST_CASE("a commit too large for the log sends an earlier optimistic write round again",
          "[store][optimistic]") {
  // 8,000 contacts filed in nine indexes write 80,000 keys (an id and nine
  // index keys each): the log keeps no keys for them, so a request that ran
  // before cannot be checked against them and runs again, though it read
  // nothing they wrote.
  auto specs = optimistic_specs();
  for (int n = 1; n < 9; ++n)
    specs.push_back({"by-email-" + std::to_string(n), "Contact", {"Email"}, true});
  RecordStore store(specs);
  store.set_between_phases_for_test([&] {
    store.set_between_phases_for_test(nullptr);
    REQUIRE(store
                .write<Ok>([&](Transaction& tx) -> Status {
                  char id[19];
                  for (int i = 0; i < 8000; ++i) {
                    std::snprintf(id, sizeof id, "003%012dAAA", i + 1000);
                    tx.put(optimistic_contact(id, "bulk" + std::to_string(i) + "@example.org"));
                  }
                  return ok_status();
                })
                .ok());
  });
  DedupCreate create{store, kFirst, "ada@example.org"};
  auto r = create();
  REQUIRE(r.ok());
  CHECK(*r == kFirst);
  CHECK(create.runs == 2);
  CHECK(store.size() == 8001);
  CHECK(store.write_lock_stats().retried == 1);
  // Small commits after it are logged again: a disjoint one passes.
  store.set_between_phases_for_test([&] {
    store.set_between_phases_for_test(nullptr);
    REQUIRE(put_contact(store, kSecond, "grace@example.org").ok());
  });
  DedupCreate later{store, "003000000000103AAA", "linus@example.org"};
  REQUIRE(later().ok());
  CHECK(later.runs == 1);
  CHECK(store.write_lock_stats().retried == 1);
}

TEST_CASE("optimistic writes that reach their commit together commit in one hold",
          "[store][optimistic][concurrency]") {
  RecordStore store(optimistic_specs());
  // Four requests run while a reader holds the store; none can commit until
  // it leaves, so all four queue, and the first of them commits the batch.
  // Two create the same payer without seeing each other: in the batch the
  // second meets the first's commit and runs again, matching it.
  constexpr int kWriters = 4;
  Meeting meeting(kWriters);
  store.set_between_phases_for_test([&] { meeting.arrive(); });
  HeldReader reader(store);
  const std::vector<std::string> emails = {"ada@example.org", "grace@example.org",
                                           "ADA@example.org", "linus@example.org"};
  std::vector<DedupCreate> creates;
  for (int i = 0; i < kWriters; ++i) {
    char id[19];
    std::snprintf(id, sizeof id, "003%012dAAA", i + 1);
    creates.push_back(DedupCreate{store, id, emails[i]});
  }
  std::vector<std::string> answers(kWriters);
  std::vector<std::thread> writers;
  for (int i = 0; i < kWriters; ++i)
    writers.emplace_back([&, i] {
      auto r = creates[i]();
      answers[i] = r.ok() ? *r : "failed";
    });
  // CHECK, not REQUIRE: the threads are joined below either way.
  CHECK(fake_org::testing::eventually([&] { return store.queued_commits_for_test() == kWriters; }));
  CHECK(store.size() == 0);
  reader.release();
  for (auto& w : writers) w.join();
  CHECK(store.size() == 3);
  CHECK(answers[2] == answers[0]);
  CHECK(answers[0] != answers[1]);
  CHECK(answers[3] != answers[0]);
  auto stats = store.write_lock_stats();
  CHECK(stats.commits == 4);  // three in the batch, the rerun alone
  CHECK(stats.optimistic == 3);
  CHECK(stats.retried == 1);
  CHECK(stats.batches == 1);
  CHECK(stats.holds == 5);  // each request's check in the batch, and the rerun's hold
}

TEST_CASE("a request whose commit fails in a batch gets its error and the others commit",
          "[store][optimistic][concurrency]") {
  RecordStore store(optimistic_specs());
  // The commit observer (a data directory's queue) fails for one record:
  // its request must wake with that error, not wait for ever, and the
  // other request in the batch still commits.
  store.set_commit_observer([&](const std::vector<RecordPtr>& written, bool) {
    for (const auto& r : written)
      if (r->id == kFirst) throw std::runtime_error("the observer refused " + kFirst);
  });
  Meeting meeting(2);
  store.set_between_phases_for_test([&] { meeting.arrive(); });
  HeldReader reader(store);
  std::string failed, committed;
  std::thread first([&] {
    try {
      DedupCreate{store, kFirst, "ada@example.org"}();
    } catch (const std::exception& e) {
      failed = e.what();
    }
  });
  std::thread second([&] {
    auto r = DedupCreate{store, kSecond, "grace@example.org"}();
    committed = r.ok() ? *r : "failed";
  });
  CHECK(fake_org::testing::eventually([&] { return store.queued_commits_for_test() == 2; }));
  reader.release();
  first.join();
  second.join();
  CHECK(failed == "the observer refused " + kFirst);
  CHECK(committed == kSecond);
  CHECK(store.write_lock_stats().batches == 1);
}
