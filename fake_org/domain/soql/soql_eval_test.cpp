// What a query answers beyond which records: the platform's result body,
// the plan (an index, not a scan, for equality on an indexed field), and
// paging through query locators.
#include <catch2/catch.hpp>
#include <set>

#include "domain/org/soql_cursors.h"
#include "domain/store/record_store.h"
#include "testing/soql_records.h"

using namespace fake_org;
using namespace fake_org::testing;
using soql::QueryPlan;

namespace {

// n contacts beyond the test org's six, LastName "Bulk00000" upwards.
void add_contacts(SoqlOrg& org, int n) {
  std::vector<Record> records;
  for (int i = 0; i < n; ++i) {
    char last[16];
    std::snprintf(last, sizeof last, "Bulk%05d", i);
    records.push_back(record("Contact", testing::new_id("003", 1000 + i),
                             {{"LastName", last}, {"Email", std::string(last) + "@example.org"}},
                             at("2027-03-01T09:00:00Z")));
  }
  org.add(records);
}

}  // namespace

TEST_CASE("a query answers the platform's body: attributes, fields, parents", "[soql]") {
  SoqlOrg org;
  auto page = org.query(
      "SELECT Id, Name, email, Account.Name, Account.BillingCity, Newsletter_Opt_In__c, "
      "Lifetime_Giving__c, CreatedDate FROM Contact WHERE Id = '" +
      kJane + "'");
  REQUIRE(page.ok());
  CHECK(page->to_json().dump() ==
        R"({"totalSize":1,"done":true,"records":[{"attributes":{"type":"Contact",)"
        R"("url":"/services/data/v59.0/sobjects/Contact/0037Q00000JaneDQAR"},)"
        R"("Id":"0037Q00000JaneDQAR","Name":"Jane Doe","Email":"jane.doe@example.org",)"
        R"("Account":{"attributes":{"type":"Account",)"
        R"("url":"/services/data/v59.0/sobjects/Account/0017Q00000GrnTrQAJ"},)"
        R"("Name":"Greenfield Community Trust","BillingCity":"Berlin"},)"
        R"("Newsletter_Opt_In__c":false,"Lifetime_Giving__c":null,)"
        R"("CreatedDate":"2027-03-01T09:00:00.000+0000"}]})");

  // A parent that is not there is null; a parent of a parent likewise.
  page = org.query("SELECT LastName, Account.Name, Account.Parent.Name FROM Contact WHERE Id = '" +
                   kGrace + "'");
  REQUIRE(page.ok());
  CHECK(page->records[0].dump() ==
        R"({"attributes":{"type":"Contact","url":"/services/data/v59.0/sobjects/Contact/)" +
            kGrace + R"("},"LastName":"Hopper","Account":null})");

  // Two hops, each parent with its own attributes; the API version is echoed.
  soql::QueryOptions v61;
  v61.api_version = "61.0";
  page = org.query(
      "SELECT Name, cpm__Installment__r.Name, cpm__Installment__r.cpm__Contact__r.Email"
      " FROM cpm__Payment__c",
      v61);
  REQUIRE(page.ok());
  CHECK(page->records[0].dump() ==
        R"({"attributes":{"type":"cpm__Payment__c","url":"/services/data/v61.0/sobjects/)"
        R"(cpm__Payment__c/)" +
            kPayment +
            R"("},"Name":"PAY-1","cpm__Installment__r":{"attributes":{"type":)"
            R"("cpm__Installment__c","url":"/services/data/v61.0/sobjects/cpm__Installment__c/)" +
            kInst1 +
            R"("},"Name":"INST-1","cpm__Contact__r":{"attributes":{"type":"Contact","url":)"
            R"("/services/data/v61.0/sobjects/Contact/)" +
            kAda + R"("},"Email":"Ada@Example.org"}}})");

  // COUNT() answers the number alone.
  page = org.query("SELECT COUNT() FROM Contact WHERE LastName = 'Taylor'");
  REQUIRE(page.ok());
  CHECK(page->to_json().dump() == R"({"totalSize":2,"done":true,"records":[]})");

  // Dates and numbers as stored; GUIDs from the record's own.
  page = org.query(
      "SELECT cpm__Due_Date__c, cpm__Amount__c, cpm__GUID__c FROM cpm__Installment__c "
      "WHERE Name = 'INST-1'");
  REQUIRE(page.ok());
  CHECK(page->records[0]["cpm__Due_Date__c"] == "2027-03-01");
  CHECK(page->records[0]["cpm__Amount__c"] == 10);
  CHECK(page->records[0]["cpm__GUID__c"] == kInst1Guid);
}

TEST_CASE("equality on an indexed field reads the index, not the object", "[soql]") {
  SoqlOrg org;
  auto plan_of = [&](const std::string& soql) {
    auto page = org.query(soql);
    INFO(soql);
    if (!page.ok()) INFO(page.error().message);
    REQUIRE(page.ok());
    return page->plan;
  };
  auto p = plan_of("SELECT Id FROM Contact WHERE Email = 'ALEX.TAYLOR@example.com'");
  CHECK(p.kind == QueryPlan::Kind::kIndex);
  CHECK(p.index == "dedup:Contact:0");
  CHECK(p.candidates == 2);

  p = plan_of("SELECT Id FROM Contact WHERE Id = '" + kAda + "' AND LastName LIKE 'L%'");
  CHECK(p.kind == QueryPlan::Kind::kId);
  CHECK(p.candidates == 1);

  p = plan_of("SELECT Id FROM Contact WHERE Id IN ('" + kAda + "', '" + kJane + "', '" + kAda +
              "')");
  CHECK(p.kind == QueryPlan::Kind::kId);
  CHECK(p.candidates == 2);

  // A record of another object under that id is a candidate, never an answer.
  auto page = org.query("SELECT Id FROM Contact WHERE Id = '" + kGreenfield + "'");
  REQUIRE(page.ok());
  CHECK(page->plan.kind == QueryPlan::Kind::kId);
  CHECK(page->total_size == 0);

  p = plan_of("SELECT Id FROM cpm__Installment__c WHERE cpm__GUID__c = '" + kInst1Guid + "'");
  CHECK(p.kind == QueryPlan::Kind::kGuid);
  CHECK(p.candidates == 1);

  // Lookups have indexes of their own.
  p = plan_of("SELECT Id FROM Contact WHERE AccountId = '" + kGreenfield + "'");
  CHECK(p.kind == QueryPlan::Kind::kIndex);
  CHECK(p.index == "soql:Contact.AccountId");
  CHECK(p.candidates == 2);
  p = plan_of("SELECT Id FROM cpm__Installment__c WHERE cpm__Contact__c = '" + kAda +
              "' AND cpm__Amount__c > 1");
  CHECK(p.index == "soql:cpm__Installment__c.cpm__Contact__c");
  CHECK(p.candidates == 1);

  // A rule over several fields serves when each has its equality.
  p = plan_of(
      "SELECT Id FROM Contact WHERE MailingPostalCode = 'SW1A 1AA' AND (FirstName = 'Alex' AND "
      "LastName = 'Taylor')");
  CHECK(p.kind == QueryPlan::Kind::kIndex);
  CHECK(p.index == "dedup:Contact:1");
  CHECK(p.candidates == 1);

  // The narrowest lookup wins.
  p = plan_of("SELECT Id FROM Contact WHERE Email = 'ada@example.org' AND AccountId = '" +
              kGreenfield + "'");
  CHECK(p.index == "dedup:Contact:0");
  CHECK(p.candidates == 1);

  // What an index cannot answer is scanned: OR, NOT, LIKE, ranges, nulls, parents.
  for (const char* soql : {
           "SELECT Id FROM Contact WHERE Email = 'a@example.org' OR LastName = 'Doe'",
           "SELECT Id FROM Contact WHERE NOT Email = 'a@example.org'",
           "SELECT Id FROM Contact WHERE Email LIKE 'ada%'",
           "SELECT Id FROM Contact WHERE Email > 'a'",
           "SELECT Id FROM Contact WHERE AccountId = null",
           "SELECT Id FROM Contact WHERE Email IN ('a@example.org', null)",
           "SELECT Id FROM Contact WHERE Account.Name = 'x'",
           "SELECT Id FROM Contact",
       }) {
    p = plan_of(soql);
    CHECK(p.kind == QueryPlan::Kind::kScan);
    CHECK(p.candidates == 6);
  }
}

TEST_CASE("more than one batch pages through a query locator", "[soql]") {
  SoqlOrg org;
  add_contacts(org, 4494);  // 4,500 contacts
  auto first = org.query("SELECT Id, LastName FROM Contact");
  REQUIRE(first.ok());
  CHECK(first->total_size == 4500);
  CHECK_FALSE(first->done);
  CHECK(first->records.size() == 2000);
  REQUIRE(first->locator.size() == 18 + 5);
  CHECK(first->locator.substr(0, 3) == "01g");
  CHECK(first->locator.substr(18) == "-2000");
  CHECK(first->next_records_url == "/services/data/v59.0/query/" + first->locator);
  auto body = first->to_json();
  CHECK(body["nextRecordsUrl"] == first->next_records_url);
  CHECK(body.begin().key() == "totalSize");

  std::set<std::string> ids;
  for (const auto& r : first->records) ids.insert(r["Id"].get<std::string>());
  auto second = soql::next_page(org.org(), first->locator);
  REQUIRE(second.ok());
  CHECK(second->records.size() == 2000);
  CHECK(second->total_size == 4500);
  CHECK(second->locator.substr(18) == "-4000");
  for (const auto& r : second->records) ids.insert(r["Id"].get<std::string>());
  auto third = soql::next_page(org.org(), second->locator);
  REQUIRE(third.ok());
  CHECK(third->records.size() == 500);
  CHECK(third->done);
  CHECK(third->next_records_url.empty());
  CHECK_FALSE(third->to_json().contains("nextRecordsUrl"));
  for (const auto& r : third->records) ids.insert(r["Id"].get<std::string>());
  CHECK(ids.size() == 4500);

  // A locator may be read again, at any offset within the answer.
  auto again = soql::next_page(org.org(), first->locator.substr(0, 18) + "-4499");
  REQUIRE(again.ok());
  CHECK(again->records.size() == 1);
  CHECK(again->done);

  // Later changes do not move the pages: the answer is that of its moment.
  const std::string changed = second->records[0]["Id"];
  auto edited = org.org().records().write<Ok>([&](Transaction& tx) -> Status {
    Record r = tx.edit(changed);
    r.fields["LastName"] = "Changed";
    tx.put(std::move(r));
    return ok_status();
  });
  REQUIRE(edited.ok());
  auto same = soql::next_page(org.org(), first->locator);
  REQUIRE(same.ok());
  CHECK(same->records == second->records);
  CHECK(org.query("SELECT LastName FROM Contact WHERE Id = '" + changed + "'")
            ->records[0]["LastName"] == "Changed");

  for (const std::string& bad :
       {first->locator.substr(0, 18) + "-4500", first->locator.substr(0, 18) + "-0",
        first->locator.substr(0, 18) + "-x", first->locator.substr(0, 18),
        std::string("01gXXXXXXXXXXXXXXX-2000"), std::string(""), std::string("-")}) {
    INFO(bad);
    auto r = soql::next_page(org.org(), bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().error_code == "INVALID_QUERY_LOCATOR");
    CHECK(r.error().message == "invalid query locator");
  }

  // The batch size a client asks for, held to the platform's 200..2,000.
  soql::QueryOptions small;
  small.batch_size = 50;
  auto paged = org.query("SELECT Id FROM Contact ORDER BY LastName LIMIT 450", small);
  REQUIRE(paged.ok());
  CHECK(paged->records.size() == 200);
  CHECK(paged->total_size == 450);
  CHECK(paged->locator.substr(18) == "-200");
  soql::QueryOptions v50;
  v50.api_version = "50.0";
  auto rest = soql::next_page(org.org(), paged->locator, v50);
  REQUIRE(rest.ok());
  CHECK(rest->next_records_url == "/services/data/v50.0/query/" + rest->locator);
  CHECK(rest->records[0]["attributes"]["url"].get<std::string>().rfind(
            "/services/data/v50.0/sobjects/Contact/", 0) == 0);

  // A cursor idle for 15 minutes of org time is gone; so is every cursor at a reset.
  org.org().clock().advance(std::chrono::minutes(14));
  CHECK(soql::next_page(org.org(), first->locator).ok());
  org.org().clock().advance(std::chrono::minutes(16));
  CHECK_FALSE(soql::next_page(org.org(), first->locator).ok());
  CHECK(soql::next_page(org.org(), paged->locator).ok() == false);
  auto fresh = org.query("SELECT Id FROM Contact");
  REQUIRE(fresh.ok());
  CHECK(org.org().query_cursors().size() >= 1);
  org.org().reset();
  CHECK(org.org().query_cursors().size() == 0);
  CHECK_FALSE(soql::next_page(org.org(), fresh->locator).ok());
}

TEST_CASE("ORDER BY, OFFSET and LIMIT page as one answer", "[soql]") {
  SoqlOrg org;
  add_contacts(org, 2500);
  auto page = org.query(
      "SELECT LastName FROM Contact WHERE LastName LIKE 'Bulk%' "
      "ORDER BY LastName DESC LIMIT 2100 OFFSET 10");
  REQUIRE(page.ok());
  CHECK(page->total_size == 2100);
  CHECK(page->records[0]["LastName"] == "Bulk02489");
  auto rest = soql::next_page(org.org(), page->locator);
  REQUIRE(rest.ok());
  CHECK(rest->records.size() == 100);
  CHECK(rest->records[99]["LastName"] == "Bulk00390");

  // COUNT() never opens a cursor, whatever the count.
  const size_t open = org.org().query_cursors().size();
  auto count = org.query("SELECT COUNT() FROM Contact");
  REQUIRE(count.ok());
  CHECK(count->total_size == 2506);
  CHECK(count->done);
  CHECK(org.org().query_cursors().size() == open);
}

TEST_CASE("queryAll answers as query while the store deletes nothing", "[soql]") {
  SoqlOrg org;
  soql::QueryOptions all;
  all.include_deleted = true;
  auto a = org.query("SELECT Id, IsDeleted FROM Contact ORDER BY Id", all);
  auto q = org.query("SELECT Id, IsDeleted FROM Contact ORDER BY Id");
  REQUIRE(a.ok());
  REQUIRE(q.ok());
  CHECK(a->to_json() == q->to_json());
  CHECK(a->records[0]["IsDeleted"] == false);
}

TEST_CASE("date literals count from the org clock", "[soql]") {
  SoqlOrg org;
  const std::string soql = "SELECT LastName FROM Contact WHERE Donor_Since__c = TODAY";
  CHECK(org.query(soql)->total_size == 0);
  org.org().clock().set(at("2027-03-05T23:59:59Z"));
  auto page = org.query(soql);
  REQUIRE(page.ok());
  REQUIRE(page->total_size == 1);
  CHECK(page->records[0]["LastName"] == "O'Brien");
  soql::QueryOptions then;
  then.now = at("2027-02-27T00:00:00Z");
  page = org.query(soql, then);
  REQUIRE(page->total_size == 1);
  CHECK(page->records[0]["LastName"] == "Lovelace");
}

TEST_CASE("the cursor store caps cursors and forgets the least recently used", "[soql]") {
  soql::QueryCursorStore store;
  const TimePoint t0 = at("2027-03-01T09:00:00Z");
  auto cursor = std::make_shared<soql::QueryCursor>();
  cursor->rows.resize(10);
  std::vector<std::string> ids;
  for (size_t i = 0; i < soql::QueryCursorStore::kMaxCursors; ++i)
    ids.push_back(store.open(cursor, t0 + std::chrono::seconds(i)));
  CHECK(store.size() == soql::QueryCursorStore::kMaxCursors);
  CHECK(std::set<std::string>(ids.begin(), ids.end()).size() == ids.size());
  REQUIRE(store.find(ids[0], t0 + std::chrono::minutes(2)));  // now the most recent
  store.open(cursor, t0 + std::chrono::minutes(3));
  CHECK(store.size() == soql::QueryCursorStore::kMaxCursors);
  CHECK(store.find(ids[0], t0 + std::chrono::minutes(3)));
  CHECK_FALSE(store.find(ids[1], t0 + std::chrono::minutes(3)));
  // Past the idle timeout, all go at the next open.
  store.open(cursor, t0 + std::chrono::hours(1));
  CHECK(store.size() == 1);
  // Rows count against their own cap.
  auto huge = std::make_shared<soql::QueryCursor>();
  huge->rows.resize(soql::QueryCursorStore::kMaxRows);
  store.open(huge, t0 + std::chrono::hours(1));
  CHECK(store.size() == 1);
}
