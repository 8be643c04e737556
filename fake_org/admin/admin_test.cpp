// admin::Admin over an org without a server: what the admin API and the
// dashboard read and do, and that a scan reads a copy of the record list
// instead of holding the store's lock.
#include "admin/admin.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "domain/core/fields.h"
#include "testing/domain_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

std::vector<std::string> ids_of(const admin::RecordPage& page) {
  std::vector<std::string> ids;
  for (const auto& r : page.records) ids.push_back(r->id);
  return ids;
}

size_t count_of(const admin::Admin& admin, const std::string& object) {
  for (const auto& o : admin.object_counts())
    if (o.object == object) return o.records;
  return 0;
}

// An installment record put straight into the store (no payment intent).
std::string put_installment(DomainOrg& d) {
  auto id = d.org->records().write<std::string>([&](Transaction& tx) -> Result<std::string> {
    Record r;
    r.object = objects::kInstallment;
    r.id = d.org->ids().record_id("a0F");
    tx.put(r);
    return std::string(r.id);
  });
  REQUIRE(id.ok());
  return *id;
}

PspSession session(const std::string& id, const std::string& installment) {
  PspSession s;
  s.id = id;
  s.installment_id = installment;
  s.created = test_now();
  return s;
}

}  // namespace

TEST_CASE("the summary and the counts are the org's", "[admin]") {
  DomainOrg d;
  admin::Admin admin(d.org);
  const admin::OrgSummary s = admin.summary();
  CHECK(s.name == d.org->config().org.name);
  CHECK(s.org_id == d.org->org_id());
  CHECK(s.fixture == d.org->config().source_name);
  CHECK(s.api_base_path == "/services/apexrest/cpm/v2");
  CHECK_FALSE(s.data_file);
  CHECK(s.now == test_now());
  size_t all = 0;
  for (const auto& o : admin.object_counts()) all += o.records;
  CHECK(s.records == all);
  CHECK(count_of(admin, "Contact") == 3);
  CHECK(count_of(admin, "Account") == 1);
}

TEST_CASE("records list by page in creation order", "[admin]") {
  DomainOrg d;
  admin::Admin admin(d.org);
  CHECK(ids_of(admin.list_records("Contact", 0, 10)) ==
        std::vector<std::string>{kJane, kAlex1, kAlex2});
  admin::RecordPage page = admin.list_records("Contact", 1, 1);
  CHECK(page.total == 3);
  CHECK(ids_of(page) == std::vector<std::string>{kAlex1});
  CHECK(admin.list_records("Contact", 3, 10).records.empty());
  CHECK(admin.list_records("Contact", 0, 0).records.empty());
  CHECK(admin.list_records("NoSuchObject", 0, 10).total == 0);
}

TEST_CASE("a search finds a record by id or GUID, else by any value's text", "[admin]") {
  DomainOrg d;
  admin::Admin admin(d.org);
  SECTION("an id or GUID of the object is the one record") {
    CHECK(ids_of(admin.search_records("Contact", kJane, 0, 10)) == std::vector<std::string>{kJane});
    CHECK(ids_of(admin.search_records("Contact", kJane.substr(0, 15), 0, 10)) ==
          std::vector<std::string>{kJane});
    CHECK(ids_of(admin.search_records("Contact", "08d4901a-5552-433e-8834-5ad0ee82e293", 0, 10)) ==
          std::vector<std::string>{kJane});
    admin::RecordPage past = admin.search_records("Contact", kJane, 1, 10);
    CHECK(past.total == 1);
    CHECK(past.records.empty());
  }
  SECTION("text matches any shown value, ignoring case, paged over the matches") {
    CHECK(ids_of(admin.search_records("Contact", "TAYLOR", 0, 10)) ==
          std::vector<std::string>{kAlex1, kAlex2});
    admin::RecordPage second = admin.search_records("Contact", "taylor", 1, 1);
    CHECK(second.total == 2);
    CHECK(ids_of(second) == std::vector<std::string>{kAlex2});
    CHECK(ids_of(admin.search_records("Contact", "berlin", 0, 10)) ==
          std::vector<std::string>{kJane});
    // The Id and the dates are values as shown too; the attributes are not.
    CHECK(admin.search_records("Contact", "AlxT", 0, 10).total == 2);
    CHECK(admin.search_records("Contact", "2027-03-01", 0, 10).total == 3);
    CHECK(admin.search_records("Contact", "sobjects", 0, 10).total == 0);
    // Another object's id is text like any other: the contact that names it.
    CHECK(ids_of(admin.search_records("Contact", kGreenfield, 0, 10)) ==
          std::vector<std::string>{kJane});
  }
  SECTION("no text lists the object") {
    CHECK(admin.search_records("Contact", "", 0, 10).total == 3);
  }
}

TEST_CASE("a scan reads a copy of the record list: writers need not wait for it", "[admin]") {
  DomainOrg d;
  admin::Admin admin(d.org);
  size_t seen = 0;
  // A write from inside the scan: holding the store's lock, this thread
  // could not take it again (RecordStore refuses at once, it does not wait).
  std::vector<std::string> written;
  admin::RecordPage page = admin.filter_records(
      "Contact",
      [&](const Record& r) {
        ++seen;
        auto made = admin.create_record("Contact", {{"LastName", "During " + std::string(r.id)}});
        if (made.ok()) written.push_back((*made)->id);
        CHECK_FALSE(d.org->records().is_write_locked());
        return r.id != kAlex1;
      },
      0, 10);
  CHECK(written.size() == 3);
  // The scan saw the records as they were when it copied the list.
  CHECK(seen == 3);
  CHECK(page.total == 2);
  CHECK(ids_of(page) == std::vector<std::string>{kJane, kAlex2});
  CHECK(count_of(admin, "Contact") == 6);
}

TEST_CASE("a record is got by its object, found by id, and named by others", "[admin]") {
  DomainOrg d;
  admin::Admin admin(d.org);
  auto jane = admin.get_record("Contact", kJane);
  REQUIRE(jane.ok());
  CHECK((*jane)->id == kJane);

  auto wrong = admin.get_record("Account", kJane);
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.errors()[0].kind == ErrorKind::kNotFound);
  CHECK(wrong.errors()[0].message == "Record " + kJane + " is a Contact, not a Account");
  CHECK(admin.get_record("Contact", "not an id").errors()[0].code == error_code::kInvalidData);
  CHECK(admin.find_record(kGreenfield).ok());

  auto trust = admin.find_record(kGreenfield);
  REQUIRE(trust.ok());
  admin::ReferenceScan refs = admin.records_referencing(**trust, 1000, 100);
  REQUIRE(refs.found.size() == 1);
  CHECK(refs.found[0]->id == kJane);
  CHECK_FALSE(refs.stopped);
  // A budget of one record: the first record read, then it stops.
  CHECK(admin.records_referencing(**trust, 1, 100).stopped);
  CHECK(admin.records_referencing(**trust, 1000, 1).stopped);
}

TEST_CASE("the sObject view shows the GUID, the fields and the dates", "[admin]") {
  DomainOrg d;
  admin::Admin admin(d.org);
  auto jane = admin.get_record("Contact", kJane);
  REQUIRE(jane.ok());
  const json j = admin.sobject(**jane);
  CHECK(j["attributes"]["type"] == "Contact");
  CHECK(j["attributes"]["url"] == admin.record_url(**jane));
  CHECK(j["Id"] == kJane);
  CHECK(j["GUID"] == "08d4901a-5552-433e-8834-5ad0ee82e293");
  CHECK(j["LastName"] == "Doe");
  CHECK(j["CreatedDate"].is_string());
  auto data = admin.data_api_record("Contact", kJane);
  REQUIRE(data.ok());
  CHECK((*data)["LastName"] == "Doe");
  CHECK_FALSE(admin.data_api_record("Contact", "003000000000000AAA").ok());
}

TEST_CASE("records created through the admin are checked and stored", "[admin]") {
  DomainOrg d;
  admin::Admin admin(d.org);
  auto made = admin.create_record("Contact", {{"LastName", "Hopper"}, {"AccountId", kGreenfield}});
  REQUIRE(made.ok());
  CHECK((*made)->object == "Contact");
  CHECK(count_of(admin, "Contact") == 4);
  CHECK(admin.get_record("Contact", (*made)->id).ok());

  auto unknown = admin.create_record("Contactt", {{"LastName", "X"}});
  REQUIRE_FALSE(unknown.ok());
  CHECK_THAT(unknown.errors()[0].message,
             Catch::StartsWith("Object 'Contactt' does not exist in this org; known objects: "));
  auto dangling =
      admin.create_record("Contact", {{"LastName", "X"}, {"AccountId", "001000000000001"}});
  CHECK_FALSE(dangling.ok());
  CHECK(count_of(admin, "Contact") == 4);

  admin.reset();
  CHECK(count_of(admin, "Contact") == 3);
}

TEST_CASE("the clock moves by or to an instant, within its limits", "[admin]") {
  DomainOrg d;
  admin::Admin admin(d.org);
  const TimePoint start = admin.now();
  CHECK(admin.advance_clock(std::chrono::hours(2)).empty());
  CHECK(admin.now() == start + std::chrono::hours(2));
  CHECK_FALSE(admin.advance_clock(kMaxClockMove + Millis(1)).empty());
  CHECK(admin.now() == start + std::chrono::hours(2));
  const TimePoint to = *parse_iso8601("2030-01-01T00:00:00Z");
  CHECK(admin.set_clock(to).empty());
  CHECK(admin.now() == to);
  CHECK_FALSE(admin.set_clock(latest_org_time() + Millis(1)).empty());
  CHECK(admin.now() == to);
}

TEST_CASE("PSP sessions by id, by installment and of the newest installments", "[admin]") {
  DomainOrg d;
  admin::Admin admin(d.org);
  CHECK(admin.newest_psp_sessions(10).empty());
  const std::string older = put_installment(d);
  const std::string newer = put_installment(d);
  d.org->psp_sessions().put(session("sess_old", older));
  d.org->psp_sessions().put(session("sess_new", newer));
  REQUIRE(admin.psp_session("sess_old"));
  CHECK(admin.psp_session("sess_old")->installment_id == older);
  CHECK_FALSE(admin.psp_session("sess_none"));
  CHECK(admin.psp_session_of_installment(newer)->id == "sess_new");
  std::vector<std::string> newest;
  for (const auto& s : admin.newest_psp_sessions(10)) newest.push_back(s.id);
  CHECK(newest == std::vector<std::string>{"sess_new", "sess_old"});
  CHECK(admin.newest_psp_sessions(1).size() == 1);
  CHECK(admin.psp_session_expiry() == d.org->psp_sessions().expiry());
}
