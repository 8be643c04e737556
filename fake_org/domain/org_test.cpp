// Org-level lookups shared by the views.
#include <catch2/catch.hpp>

#include "domain/fields.h"
#include "domain/payer_test_support.h"

namespace fake_org {
namespace {

using payer_test::kJane;
using payer_test::TestOrg;

TEST_CASE("find_record over a reader resolves ids and GUIDs in that reader's state",
          "[org][find_record]") {
  TestOrg t;
  // Inside one write(): a record staged by this transaction is found by id
  // (15 or 18 characters) and GUID, as a view built in the same lock needs.
  auto staged = t.org->records().write<bool>([&](Transaction& tx) -> Result<bool> {
    Record r;
    r.object = objects::kInstallment;
    r.id = t.org->ids().record_id("a0F");
    r.guid = t.org->ids().guid();
    tx.put(r);
    auto by_id = Org::find_record(tx, r.id, "installment");
    REQUIRE(by_id.ok());
    CHECK((*by_id)->id == r.id);
    auto by_15 = Org::find_record(tx, r.id.substr(0, 15), "installment");
    REQUIRE(by_15.ok());
    CHECK((*by_15)->id == r.id);
    auto by_guid = Org::find_record(tx, r.guid, "installment");
    REQUIRE(by_guid.ok());
    CHECK((*by_guid)->id == r.id);
    // The committed store does not have it yet.
    CHECK(Org::find_record(t.org->records(), r.id, "installment").errors()[0].kind ==
          ErrorKind::kNotFound);
    return false;
  });
  REQUIRE(staged.ok());

  auto seeded = t.org->records().read(
      [&](const RecordStore& s) { return Org::find_record(s, kJane, "contact"); });
  REQUIRE(seeded.ok());
  CHECK((*seeded)->object == objects::kContact);
  auto malformed = t.org->records().read(
      [&](const RecordStore& s) { return Org::find_record(s, "not-an-id", "installment"); });
  REQUIRE_FALSE(malformed.ok());
  CHECK(malformed.errors()[0].kind == ErrorKind::kMalformedId);
  // The locking form answers the same.
  CHECK(t.org->find_record(kJane, "contact").ok());
  CHECK(t.org->find_record("not-an-id", "x").errors()[0].kind == ErrorKind::kMalformedId);
}

}  // namespace
}  // namespace fake_org
