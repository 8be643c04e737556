// RecordStore::write_enclosing: joined writes, their savepoints, and the
// reads of the thread that runs it.
#include <catch2/catch.hpp>
#include <stdexcept>

#include "record_store.h"

using namespace fake_org;

namespace {

Record enclosed_contact(const std::string& id, const std::string& email) {
  Record r;
  r.object = "Contact";
  r.id = id;
  r.fields = {{"Email", email}};
  return r;
}

const std::string kEnclosed1 = "003000000000011AAA";
const std::string kEnclosed2 = "003000000000012AAA";

// One joined write that stages `r` and succeeds or fails.
void put_joined(RecordStore& store, const Record& r, bool ok) {
  store.write<Ok>([&](Transaction& tx) -> Status {
    tx.put(r);
    if (ok) return ok_status();
    return make_error(error_code::kUncategorised, "", "refused");
  });
}

}  // namespace

TEST_CASE("an enclosing write commits its joined writes together or not at all", "[store]") {
  RecordStore store({{"dedup:Contact:0", "Contact", {"Email"}, true}});
  store.write_enclosing([&] {
    put_joined(store, enclosed_contact(kEnclosed1, "a@example.org"), true);
    // A failed joined write returns to its savepoint: the first stays.
    put_joined(store, enclosed_contact(kEnclosed2, "b@example.org"), false);
    CHECK(store.get(kEnclosed1));
    CHECK_FALSE(store.get(kEnclosed2));
    CHECK(store.find("dedup:Contact:0", {"A@example.org"}) == std::vector<std::string>{kEnclosed1});
    CHECK(store.find("dedup:Contact:0", {"b@example.org"}).empty());
    CHECK(store.staged_new_of("Contact").size() == 1);
    store.read([&](const RecordStore& s) { CHECK(s.get(kEnclosed1)); });
    // Another thread sees nothing yet: it waits for the lock.
    CHECK(store.is_write_locked());
    return false;
  });
  CHECK_FALSE(store.get(kEnclosed1));
  CHECK(store.size() == 0);

  store.write_enclosing([&] {
    put_joined(store, enclosed_contact(kEnclosed1, "a@example.org"), true);
    put_joined(store, enclosed_contact(kEnclosed2, "b@example.org"), true);
    return true;
  });
  CHECK(store.size() == 2);
  CHECK(store.staged_new_of("Contact").empty());  // outside: none
  CHECK(store.current(store.get(kEnclosed1)) == store.get(kEnclosed1));
}

TEST_CASE("an enclosing write refuses what it could not undo", "[store]") {
  RecordStore store;
  store.write_enclosing([&] {
    CHECK_THROWS_AS(store.write_enclosing([] { return true; }), std::logic_error);
    CHECK_THROWS_AS(store.write<Ok>([](Transaction&) -> Status { return ok_status(); }, [] {}),
                    std::logic_error);
    // A joined write that throws leaves what it staged behind it.
    CHECK_THROWS(store.write<Ok>([&](Transaction& tx) -> Status {
      tx.put(enclosed_contact(kEnclosed1, "a@example.org"));
      throw std::runtime_error("boom");
    }));
    CHECK_FALSE(store.get(kEnclosed1));
    return true;
  });
  CHECK(store.size() == 0);
}
