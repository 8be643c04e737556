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

// Runs `fn` on another thread and waits for it: a write made from inside an
// optimistic run (on the run's own thread the store refuses nested use).
template <typename F>
auto elsewhere(F fn) {
  return std::async(std::launch::async, std::move(fn)).get();
}

TEST_CASE("an optimistic run holds no lock: another request commits in the middle of it",
          "[store][optimistic][concurrency]") {
  RecordStore store(optimistic_specs());
  int runs = 0;
  auto r = store.write_optimistic<Ok>([&](Transaction& tx) -> Status {
    ++runs;
    CHECK(tx.find("by-email", {"ada@example.org"}).empty());
    // With the lock held shared for the whole run this would wait for ever.
    if (runs == 1)
      CHECK(elsewhere([&] { return put_contact(store, kSecond, "grace@example.org"); }).ok());
    tx.put(optimistic_contact(kFirst, "ada@example.org"));
    return ok_status();
  });
  REQUIRE(r.ok());
  CHECK(runs == 1);  // the other commit wrote nothing this run read
  CHECK(store.size() == 2);
  CHECK(store.write_lock_stats().optimistic == 1);
}

TEST_CASE("an optimistic run whose later read meets a commit made during it runs again",
          "[store][optimistic][concurrency]") {
  RecordStore store(optimistic_specs());
  int runs = 0;
  auto r = store.write_optimistic<std::string>([&](Transaction& tx) -> Result<std::string> {
    ++runs;
    if (runs == 1)
      CHECK(elsewhere([&] { return put_contact(store, kSecond, "ada@example.org"); }).ok());
    // The first run reads the other request's record after it committed:
    // it saw a state no single moment had (before the commit at its start).
    auto found = tx.find("by-email", {"ada@example.org"});
    if (!found.empty()) return found.front();
    tx.put(optimistic_contact(kFirst, "ada@example.org"));
    return std::string(kFirst);
  });
  REQUIRE(r.ok());
  CHECK(*r == kSecond);
  CHECK(runs == 2);
  CHECK(store.size() == 1);
  CHECK(store.write_lock_stats().retried == 1);
}

TEST_CASE("an optimistic run that failed after reading a commit made during it runs again",
          "[store][optimistic][concurrency]") {
  // The first run reads nothing for the payer, then (a commit later) its
  // contact: a mix of two states it answers with an error the store must
  // not return as the request's outcome.
  RecordStore store(optimistic_specs());
  int runs = 0;
  auto r = store.write_optimistic<std::string>([&](Transaction& tx) -> Result<std::string> {
    ++runs;
    auto by_email = tx.find("by-email", {"ada@example.org"});
    if (runs == 1)
      CHECK(elsewhere([&] { return put_contact(store, kSecond, "ada@example.org"); }).ok());
    RecordPtr by_id = tx.get(kSecond);
    if (by_email.empty() != (by_id == nullptr))
      return make_error(error_code::kUncategorised, "", "the store contradicted itself");
    return std::string(by_id ? "found" : "none");
  });
  REQUIRE(r.ok());
  CHECK(*r == "found");
  CHECK(runs == 2);
}

TEST_CASE("an optimistic run that threw after reading a commit made during it runs again",
          "[store][optimistic][concurrency]") {
  RecordStore store(optimistic_specs());
  int runs = 0;
  auto r = store.write_optimistic<Ok>([&](Transaction& tx) -> Status {
    ++runs;
    auto by_email = tx.find("by-email", {"ada@example.org"});
    if (runs == 1)
      CHECK(elsewhere([&] { return put_contact(store, kSecond, "ada@example.org"); }).ok());
    if (by_email.empty() && tx.get(kSecond)) throw std::logic_error("torn read");
    return ok_status();
  });
  CHECK(r.ok());
  CHECK(runs == 2);
}

TEST_CASE("an optimistic run that threw on a consistent state throws once", "[store][optimistic]") {
  RecordStore store(optimistic_specs());
  int runs = 0;
  CHECK_THROWS_WITH(store.write_optimistic<Ok>([&](Transaction& tx) -> Status {
    ++runs;
    tx.find("by-email", {"ada@example.org"});
    throw std::runtime_error("refused");
  }),
                    "refused");
  CHECK(runs == 1);
  CHECK(store.size() == 0);
}

TEST_CASE("a reset waits for the optimistic runs in flight, which then run again",
          "[store][optimistic][concurrency]") {
  RecordStore store(optimistic_specs());
  REQUIRE(put_contact(store, kSecond, "grace@example.org").ok());
  std::thread reset;
  // The run's commit comes after the reset it let through.
  store.set_between_phases_for_test([&] {
    store.set_between_phases_for_test(nullptr);
    reset.join();
  });
  int runs = 0;
  auto r = store.write_optimistic<std::string>([&](Transaction& tx) -> Result<std::string> {
    ++runs;
    auto found = tx.find("by-email", {"grace@example.org"});
    if (runs == 1) {
      reset = std::thread(
          [&] { REQUIRE(store.replace_all([](Transaction&) { return ok_status(); }).ok()); });
      CHECK(fake_org::testing::eventually([&] { return store.reset_waiting_for_test(); }));
    }
    // What the run found is still there: the reset has not dropped it.
    if (found.empty()) return std::string("none");
    REQUIRE(tx.get(found.front()) != nullptr);
    return found.front();
  });
  REQUIRE(r.ok());
  CHECK(runs == 2);  // the first run's reads predate the reset
  CHECK(*r == "none");
  CHECK(store.size() == 0);
}

TEST_CASE("an optimistic request whose commit observer fails gets the error",
          "[store][optimistic]") {
  RecordStore store(optimistic_specs());
  // The commit observer (a data directory's queue) fails for one record.
  store.set_commit_observer([&](const std::vector<RecordPtr>& written, bool) {
    for (const auto& r : written)
      if (r->id == kFirst) throw std::runtime_error("the observer refused " + kFirst);
  });
  DedupCreate first{store, kFirst, "ada@example.org"};
  CHECK_THROWS_WITH(first(), "the observer refused " + kFirst);
  auto r = DedupCreate{store, kSecond, "grace@example.org"}();
  REQUIRE(r.ok());
  CHECK(*r == kSecond);
}
