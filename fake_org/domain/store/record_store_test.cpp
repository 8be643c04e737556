#include "record_store.h"
#include "util/memory_cap.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <thread>

using namespace fake_org;

namespace {
Record contact(std::string id, std::string email, std::string first = "", std::string last = "") {
  Record r;
  r.object = "Contact";
  r.id = std::move(id);
  r.fields = {{"Email", email}, {"FirstName", first}, {"LastName", last}};
  return r;
}

std::vector<IndexSpec> store_specs() {
  return {{"dedup:Contact:0", "Contact", {"Email"}, true},
          {"dedup:Contact:1", "Contact", {"FirstName", "LastName"}, true}};
}

const std::string kId1 = "003000000000001AAA";
const std::string kId2 = "003000000000002AAA";
}  // namespace

TEST_CASE("a committed record is found by id, GUID and index", "[store]") {
  RecordStore store(store_specs());
  auto r = store.write<Ok>([&](Transaction& tx) -> Status {
    Record c = contact(kId1, "Ada@Example.org ", "Ada", "Lovelace");
    c.guid = "6f1c2a3b-0000-4000-8000-000000000001";
    tx.put(c);
    return ok_status();
  });
  REQUIRE(r.ok());
  CHECK(store.get(kId1)->text("Email") == "Ada@Example.org ");
  CHECK(store.get_by_guid("6f1c2a3b-0000-4000-8000-000000000001")->id == kId1);
  // Matching is case-insensitive and trims whitespace.
  CHECK(store.find("dedup:Contact:0", {"  ada@example.ORG"}) == std::vector<std::string>{kId1});
  CHECK(store.find("dedup:Contact:1", {"ada", "LOVELACE"}) == std::vector<std::string>{kId1});
  CHECK(store.find("dedup:Contact:0", {"grace@example.org"}).empty());
  CHECK(store.ids_of("Contact").to_vector() == std::vector<std::string>{kId1});
}

TEST_CASE("empty values are never indexed and never match", "[store]") {
  RecordStore store(store_specs());
  store.write<Ok>([&](Transaction& tx) -> Status {
    tx.put(contact(kId1, "", "Ada", ""));
    return ok_status();
  });
  CHECK(store.find("dedup:Contact:0", {""}).empty());
  CHECK(store.find("dedup:Contact:1", {"Ada", ""}).empty());
}

TEST_CASE("a failed transaction leaves the store as it was", "[store]") {
  RecordStore store(store_specs());
  store.write<Ok>([&](Transaction& tx) -> Status {
    tx.put(contact(kId1, "ada@example.org"));
    return ok_status();
  });
  // A multi-record change that fails late: a new contact, an edit, then an error.
  auto r = store.write<Ok>([&](Transaction& tx) -> Status {
    tx.put(contact(kId2, "grace@example.org"));
    Record edited = tx.edit(kId1);
    edited.fields["Email"] = "changed@example.org";
    tx.put(edited);
    CHECK(tx.get(kId2));  // the transaction sees its own writes
    CHECK(tx.find("dedup:Contact:0", {"changed@example.org"}) == std::vector<std::string>{kId1});
    CHECK(tx.find("dedup:Contact:0", {"ada@example.org"}).empty());
    return make_error(error_code::kInvalidData, "x", "late failure");
  });
  CHECK_FALSE(r.ok());
  CHECK(store.size() == 1);
  CHECK_FALSE(store.get(kId2));
  CHECK(store.get(kId1)->text("Email") == "ada@example.org");
  CHECK(store.find("dedup:Contact:0", {"ada@example.org"}) == std::vector<std::string>{kId1});
  CHECK(store.find("dedup:Contact:0", {"changed@example.org"}).empty());
  CHECK(store.find("dedup:Contact:0", {"grace@example.org"}).empty());
}

TEST_CASE("updates move a record between index keys", "[store]") {
  RecordStore store(store_specs());
  store.write<Ok>([&](Transaction& tx) -> Status {
    tx.put(contact(kId1, "old@example.org"));
    return ok_status();
  });
  store.write<Ok>([&](Transaction& tx) -> Status {
    Record r = tx.edit(kId1);
    r.fields["Email"] = "new@example.org";
    tx.put(r);
    return ok_status();
  });
  CHECK(store.find("dedup:Contact:0", {"old@example.org"}).empty());
  CHECK(store.find("dedup:Contact:0", {"new@example.org"}) == std::vector<std::string>{kId1});
}

TEST_CASE("replace_all swaps every record or none", "[store]") {
  RecordStore store(store_specs());
  store.write<Ok>([&](Transaction& tx) -> Status {
    tx.put(contact(kId1, "ada@example.org"));
    return ok_status();
  });
  auto failed = store.replace_all([&](Transaction& tx) -> Status {
    tx.put(contact(kId2, "grace@example.org"));
    return make_error(error_code::kUncategorised, "", "bad seed");
  });
  CHECK_FALSE(failed.ok());
  CHECK(store.get(kId1));
  CHECK(store.find("dedup:Contact:0", {"ada@example.org"}).size() == 1);
  REQUIRE(store
              .replace_all([&](Transaction& tx) -> Status {
                tx.put(contact(kId2, "grace@example.org"));
                return ok_status();
              })
              .ok());
  CHECK_FALSE(store.get(kId1));
  CHECK(store.find("dedup:Contact:0", {"ada@example.org"}).empty());
  CHECK(store.ids_of("Contact").to_vector() == std::vector<std::string>{kId2});
}

TEST_CASE("concurrent check-then-insert writes are serialised", "[store]") {
  // Many threads each create the contact only if no one has: exactly one wins.
  RecordStore store(store_specs());
  std::atomic<int> created{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      store.write<Ok>([&](Transaction& tx) -> Status {
        if (tx.find("dedup:Contact:0", {"race@example.org"}).empty()) {
          std::string id = "0030000000000" + std::to_string(10 + t);
          tx.put(contact(id + "AAA", "race@example.org"));
          ++created;
        }
        return ok_status();
      });
    });
  }
  for (auto& th : threads) th.join();
  CHECK(created == 1);
  CHECK(store.find("dedup:Contact:0", {"race@example.org"}).size() == 1);
}

TEST_CASE("a transaction finds its staged records by index, in staging order, as they are now",
          "[store]") {
  RecordStore store(store_specs());
  const std::string kId3 = "003000000000003AAA";
  const std::string kId4 = "003000000000004AAA";
  store.write<Ok>([&](Transaction& tx) -> Status {
    tx.put(contact(kId4, "old@example.org"));
    return ok_status();
  });
  store.write<Ok>([&](Transaction& tx) -> Status {
    tx.put(contact(kId3, "x@example.org"));
    tx.put(contact(kId1, "x@example.org"));
    tx.put(contact(kId2, "X@example.org "));
    CHECK(tx.find("dedup:Contact:0", {"x@example.org"}) ==
          std::vector<std::string>{kId3, kId1, kId2});
    tx.put(contact(kId1, "y@example.org"));  // moves to another key, keeps its place
    CHECK(tx.find("dedup:Contact:0", {"x@example.org"}) == std::vector<std::string>{kId3, kId2});
    CHECK(tx.find("dedup:Contact:0", {"y@example.org"}) == std::vector<std::string>{kId1});
    tx.put(contact(kId1, "x@example.org"));
    CHECK(tx.find("dedup:Contact:0", {"x@example.org"}) ==
          std::vector<std::string>{kId3, kId1, kId2});
    CHECK(tx.find("dedup:Contact:0", {"y@example.org"}).empty());
    // A committed record staged with a new value is found only under it.
    tx.put(contact(kId4, "", "Ada", "Lovelace"));
    CHECK(tx.find("dedup:Contact:0", {"old@example.org"}).empty());
    CHECK(tx.find("dedup:Contact:1", {"ada", "lovelace"}) == std::vector<std::string>{kId4});
    return ok_status();
  });
  // Committed: sorted by id.
  CHECK(store.find("dedup:Contact:0", {"x@example.org"}) ==
        std::vector<std::string>{kId1, kId2, kId3});
}

TEST_CASE("write's committed step runs after a commit only, seeing the committed records",
          "[store][committed]") {
  RecordStore store(store_specs());
  int runs = 0;
  RecordPtr seen;
  bool locked_in_step = false;
  auto ok = store.write<Ok>(
      [&](Transaction& tx) -> Status {
        tx.put(contact(kId1, "ada@example.org"));
        return ok_status();
      },
      [&] {
        ++runs;
        seen = store.get(kId1);  // the lock is held: the unlocked accessor is safe
        // Another thread asks whether a reader would have to wait: it must,
        // since the step runs before the lock is released.
        std::thread probe([&] { locked_in_step = store.is_write_locked(); });
        probe.join();
      });
  REQUIRE(ok.ok());
  CHECK(runs == 1);
  CHECK(locked_in_step);
  CHECK_FALSE(store.is_write_locked());
  REQUIRE(seen);
  CHECK(seen->text("Email") == "ada@example.org");
  auto failed = store.write<Ok>(
      [&](Transaction& tx) -> Status {
        tx.put(contact(kId2, "grace@example.org"));
        return make_error("010", "x", "refused");
      },
      [&] { ++runs; });
  CHECK_FALSE(failed.ok());
  CHECK(runs == 1);
  CHECK_FALSE(store.get(kId2));
}

TEST_CASE("a GUID is found in any case, staged or committed", "[store][guid_case]") {
  RecordStore store(store_specs());
  const std::string lower = "6f1c2a3b-0000-4000-8000-00000000abcd";
  const std::string upper = "6F1C2A3B-0000-4000-8000-00000000ABCD";
  const std::string mixed = "6f1C2a3B-0000-4000-8000-00000000aBcD";
  auto r = store.write<Ok>([&](Transaction& tx) -> Status {
    Record c = contact(kId1, "ada@example.org");
    c.guid = lower;
    tx.put(c);
    Record d = contact(kId2, "grace@example.org");
    d.guid = "7" + upper.substr(1);  // a fixture may write one upper case
    tx.put(d);
    // Staged records are found in any case within the transaction.
    REQUIRE(tx.get_by_guid(upper));
    CHECK(tx.get_by_guid(upper)->id == kId1);
    CHECK(tx.get_by_guid("7" + lower.substr(1))->id == kId2);
    return ok_status();
  });
  REQUIRE(r.ok());
  for (const auto& g : {lower, upper, mixed}) {
    INFO(g);
    REQUIRE(store.get_by_guid(g));
    CHECK(store.get_by_guid(g)->id == kId1);
  }
  REQUIRE(store.get_by_guid("7" + lower.substr(1)));
  CHECK(store.get_by_guid("7" + lower.substr(1))->id == kId2);
  // The record keeps the GUID as it was given.
  CHECK(store.get(kId2)->guid == "7" + upper.substr(1));
  // Changing a record's GUID only in case keeps it findable.
  REQUIRE(store
              .write<Ok>([&](Transaction& tx) -> Status {
                Record c = *tx.get(kId1);
                c.guid = upper;
                tx.put(c);
                return ok_status();
              })
              .ok());
  REQUIRE(store.get_by_guid(lower));
  CHECK(store.get_by_guid(lower)->id == kId1);
}

TEST_CASE("restored records are found by id, GUID, index and object list", "[store]") {
  RecordStore store(store_specs());
  std::vector<RecordPtr> saved;
  for (int i = 0; i < 300; ++i) {
    std::string n = std::to_string(1000 + i);
    Record c = contact("003000000000" + n + "AA", "donor" + n + "@example.org", "Ada", "L" + n);
    c.guid = "6f1c2a3b-0000-4000-8000-00000000" + n;
    saved.push_back(make_record(std::move(c)));
  }
  store.restore(saved);
  CHECK(store.size() == 300);
  CHECK(store.ids_of("Contact").size() == 300);
  CHECK(store.ids_of("Contact")[7] == "003000000000" + std::to_string(1007) + "AA");
  CHECK(store.get_by_guid("6f1c2a3b-0000-4000-8000-000000001299")->id == "0030000000001299AA");
  CHECK(store.find("dedup:Contact:0", {"DONOR1150@example.org"}) ==
        std::vector<std::string>{"0030000000001150AA"});
  CHECK(store.find("dedup:Contact:1", {"ada", "l1000"}) ==
        std::vector<std::string>{"0030000000001000AA"});
}

TEST_CASE("a repeated id in restored records keeps the first, indexed alone", "[store]") {
  RecordStore store(store_specs());
  auto first = make_record(contact(kId1, "first@example.org"));
  auto again = make_record(contact(kId1, "again@example.org"));
  {
    std::vector<RecordPtr> saved{first, again};
    store.restore(saved);
  }
  again.reset();  // the repeated record is gone; nothing may point to it
  CHECK(store.size() == 1);
  CHECK(store.get(kId1)->text("Email") == "first@example.org");
  CHECK(store.find("dedup:Contact:0", {"first@example.org"}) == std::vector<std::string>{kId1});
  CHECK(store.find("dedup:Contact:0", {"again@example.org"}).empty());
}

TEST_CASE("a large restore files every table on several threads, as commits would", "[store]") {
  // Past the size where restore() spreads its tables over threads; a shared
  // first name puts every Contact of one surname group under one key, and an
  // ordered index is filled beside the others.
  auto specs = store_specs();
  specs.push_back({"by-first", "Contact", {"FirstName"}, true});
  IndexSpec ordered{"by-last", "Contact", {"LastName"}, false};
  ordered.ordered = true;
  specs.push_back(ordered);
  RecordStore store(specs);
  std::vector<RecordPtr> saved;
  const int count = 60000;
  char id[19];
  for (int i = 0; i < count; ++i) {
    std::snprintf(id, sizeof id, "003%013dAA", i);
    const std::string n = std::to_string(i);
    Record c = contact(id, "d" + n + "@example.org", i % 2 ? "Ada" : "Grace", "L" + n);
    c.guid = "6f1c2a3b-0000-4000-8000-" + std::string(12 - n.size(), '0') + n;
    saved.push_back(make_record(std::move(c)));
  }
  saved.push_back(saved[5]);  // one saved twice: the tables are filled again without it
  store.restore(std::move(saved));
  REQUIRE(store.size() == count);
  CHECK(store.ids_of("Contact").size() == count);
  CHECK(store.ids_of("Contact")[59999] == "0030000000059999AA");
  CHECK(store.get("0030000000031337AA")->text("Email") == "d31337@example.org");
  CHECK(store.get_by_guid("6f1c2a3b-0000-4000-8000-000000012345")->id == "0030000000012345AA");
  CHECK(store.find("dedup:Contact:0", {"D777@example.org"}) ==
        std::vector<std::string>{"0030000000000777AA"});
  CHECK(store.find("by-first", {"ada"}).size() == count / 2);
  CHECK(store.up_to("by-last", "L10", 3) ==
        std::vector<std::string>{"0030000000000000AA", "0030000000000001AA", "0030000000000010AA"});
  // A commit after the restore files and unfiles as usual.
  REQUIRE(store
              .write<Ok>([&](Transaction& tx) -> Status {
                Record c = *tx.get("0030000000000001AA");
                c.fields["FirstName"] = "Grace";
                tx.put(c);
                return ok_status();
              })
              .ok());
  CHECK(store.find("by-first", {"ada"}).size() == count / 2 - 1);
  CHECK(store.find("by-first", {"GRACE"}).size() == count / 2 + 1);
}

TEST_CASE("a thread taking the store's lock it already holds fails instead of waiting", "[store]") {
  // A reader waiting behind a writer that waits for that same reader would
  // never wake (decision 122).
  RecordStore store(store_specs());
  RecordStore other(store_specs());
  CHECK_THROWS_WITH(
      store.read([&](const RecordStore& s) { return s.read([](auto&) { return 1; }); }),
      "RecordStore: this thread already holds the store's lock");
  CHECK_THROWS_AS(store.write<Ok>([&](Transaction&) -> Status {
    store.read([](const RecordStore&) { return 0; });
    return ok_status();
  }),
                  std::logic_error);
  // Another store's lock is another lock; and the first is free again after.
  CHECK(store.read(
            [&](const RecordStore&) { return other.read([](auto& o) { return o.size(); }); }) == 0);
  CHECK(store.read([](const RecordStore& s) { return s.size(); }) == 0);
}

TEST_CASE("memory by object counts each object's records and its own indexes", "[store]") {
  RecordStore store(store_specs());
  REQUIRE(store
              .write<Ok>([&](Transaction& tx) -> Status {
                tx.put(contact(kId1, "a@example.org", "A", "One"));
                tx.put(contact(kId2, "b@example.org", "B", "Two"));
                Record account;
                account.object = "Account";
                account.id = "001000000000001AAA";
                account.fields = {{"Name", "Acme"}};
                tx.put(account);
                return ok_status();
              })
              .ok());
  auto use = store.memory_by_object();
  REQUIRE(use.size() == 2);
  const ObjectMemory& account = use[0].object == "Account" ? use[0] : use[1];
  const ObjectMemory& contacts = use[0].object == "Account" ? use[1] : use[0];
  CHECK(account.records == 1);
  CHECK(contacts.records == 2);
  CHECK(contacts.record_bytes >= 2 * sizeof(Record));
  // Contacts are in two indexes, the Account in none: only the shared tables.
  CHECK(contacts.index_bytes / 2 > account.index_bytes);
}

TEST_CASE("the record cap refuses a commit that would pass it, whole", "[store][cap]") {
  RecordStore store(store_specs());
  store.set_max_records(2);
  const std::string kId3 = "003000000000003AAA";
  REQUIRE(store
              .write<Ok>([&](Transaction& tx) -> Status {
                tx.put(contact(kId1, "a@example.org"));
                return ok_status();
              })
              .ok());
  bool announced = false;
  auto two_more = store.write<Ok>(
      [&](Transaction& tx) -> Status {
        tx.put(contact(kId2, "b@example.org"));
        tx.put(contact(kId3, "c@example.org"));
        return ok_status();
      },
      [&] { announced = true; });
  REQUIRE_FALSE(two_more.ok());
  CHECK_THAT(two_more.errors().front().message,
             Catch::StartsWith("STORAGE_LIMIT_EXCEEDED, storage limit exceeded") &&
                 Catch::Contains("org.max_records"));
  CHECK_FALSE(announced);
  CHECK(store.size() == 1);
  CHECK_FALSE(store.get(kId2));
  CHECK(store.find("dedup:Contact:0", {"b@example.org"}).empty());
  // Up to the cap, and changes of records it holds, go through.
  auto one_more = store.write_optimistic<Ok>([&](Transaction& tx) -> Status {
    tx.put(contact(kId2, "b@example.org"));
    return ok_status();
  });
  REQUIRE(one_more.ok());
  CHECK(store.size() == 2);
  CHECK(store.write_untyped([&](Transaction& tx) {
    tx.put(contact(kId1, "a2@example.org"));
    return true;
  }));
  CHECK(store.get(kId1)->text("Email") == "a2@example.org");
  CHECK_FALSE(store.write_optimistic_untyped([&](Transaction& tx) {
    tx.put(contact(kId3, "c@example.org"));
    return true;
  }));
  CHECK(store.size() == 2);
}

TEST_CASE("past the process's memory cap, only writes that add records are refused",
          "[store][cap][memory]") {
  RecordStore store(store_specs());
  REQUIRE(store
              .write<Ok>([&](Transaction& tx) -> Status {
                tx.put(contact(kId1, "a@example.org"));
                return ok_status();
              })
              .ok());
  struct NoCapAfter {
    ~NoCapAfter() { util::set_memory_cap(0); }
  } restore;
  util::set_memory_cap(1);  // any process holds more than a byte
  auto added = store.write<Ok>([&](Transaction& tx) -> Status {
    tx.put(contact(kId2, "b@example.org"));
    return ok_status();
  });
  REQUIRE_FALSE(added.ok());
  CHECK_THAT(added.errors().front().message,
             Catch::StartsWith("STORAGE_LIMIT_EXCEEDED, storage limit exceeded") &&
                 Catch::Contains("--max-memory") && Catch::Contains("MiB resident"));
  CHECK_FALSE(store.get(kId2));
  CHECK(store.find("dedup:Contact:0", {"b@example.org"}).empty());
  CHECK(store.write_untyped([&](Transaction& tx) {
    tx.put(contact(kId1, "a2@example.org"));
    return true;
  }));
  CHECK(store.get(kId1)->text("Email") == "a2@example.org");
  util::set_memory_cap(0);
  CHECK(store
            .write<Ok>([&](Transaction& tx) -> Status {
              tx.put(contact(kId2, "b@example.org"));
              return ok_status();
            })
            .ok());
  CHECK(store.size() == 2);
}

TEST_CASE("inside write_enclosing, a write past the cap fails alone", "[store][cap]") {
  RecordStore store(store_specs());
  store.set_max_records(1);
  bool second = true;
  store.write_enclosing([&] {
    auto first = store.write<Ok>([&](Transaction& tx) -> Status {
      tx.put(contact(kId1, "a@example.org"));
      return ok_status();
    });
    REQUIRE(first.ok());
    second = store
                 .write<Ok>([&](Transaction& tx) -> Status {
                   tx.put(contact(kId2, "b@example.org"));
                   return ok_status();
                 })
                 .ok();
    return true;
  });
  CHECK_FALSE(second);
  CHECK(store.size() == 1);
  CHECK(store.get(kId1));
  CHECK_FALSE(store.get(kId2));
}
