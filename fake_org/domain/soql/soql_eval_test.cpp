// What a query answers beyond which records: the platform's result body,
// the plan (an index, not a scan, for equality on an indexed field), and
// paging through query locators.
#include <catch2/catch.hpp>
#include <set>

#include "domain/org/soql_cursors.h"
#include "domain/store/record_store.h"
#include "testing/soql_records.h"
#include "util/json_text.h"

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
        R"("url":"/services/data/v68.0/sobjects/Contact/0037Q00000JaneDQAR"},)"
        R"("Id":"0037Q00000JaneDQAR","Name":"Jane Doe","Email":"jane.doe@example.org",)"
        R"("Account":{"attributes":{"type":"Account",)"
        R"("url":"/services/data/v68.0/sobjects/Account/0017Q00000GrnTrQAJ"},)"
        R"("Name":"Greenfield Community Trust","BillingCity":"Berlin"},)"
        R"("Newsletter_Opt_In__c":false,"Lifetime_Giving__c":null,)"
        R"("CreatedDate":"2027-03-01T09:00:00.000+0000"}]})");

  // A parent that is not there is null; a parent of a parent likewise.
  page = org.query("SELECT LastName, Account.Name, Account.Parent.Name FROM Contact WHERE Id = '" +
                   kGrace + "'");
  REQUIRE(page.ok());
  CHECK(page->records[0].dump() ==
        R"({"attributes":{"type":"Contact","url":"/services/data/v68.0/sobjects/Contact/)" +
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
  CHECK(first->next_records_url == "/services/data/v68.0/query/" + first->locator);
  auto body = first->to_json();
  CHECK(body["nextRecordsUrl"] == first->next_records_url);
  CHECK(first->to_text() == text::json_text(body));
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
  CHECK(third->to_text() == text::json_text(third->to_json()));
  CHECK(second->to_text() == text::json_text(second->to_json()));
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

  // A cursor lives two days of org time from its query, read or not; every
  // cursor goes at a reset.
  org.org().clock().advance(std::chrono::hours(47));
  CHECK(soql::next_page(org.org(), first->locator).ok());
  org.org().clock().advance(std::chrono::minutes(61));
  auto gone = soql::next_page(org.org(), first->locator);
  REQUIRE_FALSE(gone.ok());
  CHECK(gone.error().error_code == "INVALID_QUERY_LOCATOR");
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

TEST_CASE("the cursor store keeps to a memory budget, oldest out first", "[soql]") {
  soql::QueryCursorStore store;
  const TimePoint t0 = at("2027-03-01T09:00:00Z");
  auto cursor = std::make_shared<soql::QueryCursor>();
  cursor->rows.resize(100000);
  const size_t each = soql::QueryCursorStore::cursor_bytes(*cursor);
  const size_t fit = soql::QueryCursorStore::kMemoryBudget / each;
  // No count caps them: far more than the old 50 stay open while they fit.
  REQUIRE(fit > 50);
  std::vector<std::string> ids;
  for (size_t i = 0; i < fit; ++i) ids.push_back(store.open(cursor, t0 + std::chrono::seconds(i)));
  CHECK(store.size() == fit);
  CHECK(store.bytes() == fit * each);
  CHECK(std::set<std::string>(ids.begin(), ids.end()).size() == ids.size());
  // Reading the oldest does not save it: the next open over budget evicts it.
  REQUIRE(store.find(ids[0], t0 + std::chrono::minutes(20)));
  store.open(cursor, t0 + std::chrono::minutes(21));
  CHECK(store.size() == fit);
  CHECK_FALSE(store.find(ids[0], t0 + std::chrono::minutes(21)));
  CHECK(store.find(ids[1], t0 + std::chrono::minutes(21)));
  // Two days on, all go at the next open.
  store.open(cursor, t0 + std::chrono::hours(49));
  CHECK(store.size() == 1);
  CHECK(store.bytes() == each);
  CHECK_FALSE(store.find(ids[1], t0 + std::chrono::hours(49)));
}

TEST_CASE("a semi-join's ids are looked up, the sub-select planned as any query", "[soql]") {
  SoqlOrg org;
  add_contacts(org, 50);
  // Id IN (...): the ids themselves.
  auto page = org.query(
      "SELECT LastName FROM Contact WHERE Id IN (SELECT cpm__Contact__c FROM cpm__Installment__c "
      "WHERE cpm__Amount__c > 20)");
  REQUIRE(page.ok());
  CHECK(page->plan.kind == QueryPlan::Kind::kId);
  CHECK(page->plan.candidates == 1);
  // A reference field IN (...): its index, once per id.
  page = org.query(
      "SELECT Name FROM cpm__Installment__c WHERE cpm__Contact__c IN (SELECT Id FROM Contact "
      "WHERE Email = 'jane.doe@example.org')");
  REQUIRE(page.ok());
  CHECK(page->plan.kind == QueryPlan::Kind::kIndex);
  CHECK(page->plan.candidates == 1);
  REQUIRE(page->total_size == 1);
  CHECK(page->records[0]["Name"] == "INST-2");
  // More ids than the probe cap of a multi-field index still use a one-field index.
  page = org.query(
      "SELECT COUNT() FROM cpm__Installment__c WHERE cpm__Contact__c IN (SELECT Id FROM Contact)");
  REQUIRE(page.ok());
  CHECK(page->total_size == 2);
  CHECK(page->plan.kind == QueryPlan::Kind::kIndex);
  // An anti-join cannot narrow the candidates: every record is read.
  page = org.query(
      "SELECT COUNT() FROM Contact WHERE Id NOT IN (SELECT cpm__Contact__c FROM "
      "cpm__Installment__c)");
  REQUIRE(page.ok());
  CHECK(page->total_size == 54);
  CHECK(page->plan.kind == QueryPlan::Kind::kScan);
}

TEST_CASE("an aggregate query answers AggregateResult records in one batch", "[soql]") {
  SoqlOrg org;
  auto page = org.query(
      "SELECT LastName, COUNT(Id), MAX(Lifetime_Giving__c) top, COUNT(Email) FROM Contact "
      "WHERE LastName IN ('Taylor', 'Hopper') GROUP BY LastName");
  REQUIRE(page.ok());
  CHECK(page->to_json().dump() ==
        R"({"totalSize":2,"done":true,"records":[)"
        R"({"attributes":{"type":"AggregateResult"},"LastName":"Hopper","expr0":1,"top":250.0,)"
        R"("expr1":1},)"
        R"({"attributes":{"type":"AggregateResult"},"LastName":"Taylor","expr0":2,"top":null,)"
        R"("expr1":2}]})");
  // Groups ignore case as comparisons do; the first spelling met names the group.
  org.add({record("Contact", testing::new_id("003", 995), {{"LastName", "TAYLOR"}},
                  at("2027-03-01T09:00:00Z"))});
  page = org.query("SELECT COUNT(Id) FROM Contact GROUP BY LastName HAVING COUNT(Id) > 2");
  REQUIRE(page.ok());
  REQUIRE(page->total_size == 1);
  CHECK(page->records[0]["expr0"] == 3);
}

TEST_CASE("an aggregate query past 2,000 groups is refused, as it cannot page", "[soql]") {
  SoqlOrg org;
  add_contacts(org, 2500);
  auto page = org.query("SELECT LastName, COUNT(Id) FROM Contact GROUP BY LastName");
  REQUIRE_FALSE(page.ok());
  CHECK(page.error().error_code == "EXCEEDED_ID_LIMIT");
  CHECK(page.error().message ==
        "Aggregate query does not support queryMore(), use LIMIT to restrict the results to a "
        "single batch");
  const size_t open = org.org().query_cursors().size();
  page = org.query("SELECT LastName, COUNT(Id) FROM Contact GROUP BY LastName LIMIT 2000");
  REQUIRE(page.ok());
  CHECK(page->total_size == 2000);
  CHECK(page->done);
  CHECK(page->records.size() == 2000);
  CHECK(org.org().query_cursors().size() == open);
  // HAVING narrows before the limit counts.
  page =
      org.query("SELECT LastName FROM Contact GROUP BY LastName HAVING LastName LIKE 'Bulk000%'");
  REQUIRE(page.ok());
  CHECK(page->total_size == 100);
}

TEST_CASE("FIELDS() selects the platform's columns and the catalogue's", "[soql]") {
  SoqlOrg org;
  auto keys = [&](const std::string& soql) {
    auto page = org.query(soql);
    REQUIRE(page.ok());
    REQUIRE(page->records.size() == 1);
    std::set<std::string> out;
    for (auto it = page->records[0].begin(); it != page->records[0].end(); ++it)
      out.insert(it.key());
    return out;
  };
  const std::string ada = " FROM Contact WHERE Id = '" + kAda + "'";
  auto all = keys("SELECT FIELDS(ALL)" + ada + " LIMIT 1");
  auto standard = keys("SELECT FIELDS(STANDARD)" + ada);
  auto custom = keys("SELECT FIELDS(CUSTOM)" + ada + " LIMIT 200");
  for (const char* k : {"Id", "IsDeleted", "CreatedDate", "SystemModstamp", "LastName", "Email"}) {
    CHECK(all.count(k) == 1);
    CHECK(standard.count(k) == 1);
    CHECK(custom.count(k) == 0);
  }
  for (const char* k : {"Lifetime_Giving__c", "Donor_Level__c"}) {
    CHECK(all.count(k) == 1);
    CHECK(standard.count(k) == 0);
    CHECK(custom.count(k) == 1);
  }
  CHECK(all.size() + 1 == standard.size() + custom.size());  // "attributes" in both
  // Beside named fields, as long as none repeats.
  auto mixed = keys("SELECT Account.Name, FIELDS(CUSTOM)" + ada + " LIMIT 10");
  CHECK(mixed.count("Account") == 1);
  CHECK(mixed.count("Lifetime_Giving__c") == 1);
}

TEST_CASE("a page's text is its JSON's text, escapes and bad UTF-8 included", "[soql]") {
  soql::QueryPage page;
  page.total_size = 3;
  page.records.push_back({{"Name", "plain"}, {"Amount", 12.5}, {"Count", -3}, {"Ok", true}});
  CHECK(page.to_text() == text::json_text(page.to_json()));
  page.records.push_back({{"Name", "quote \" and \\ and \n"}, {"Nothing", nullptr}});
  CHECK(page.to_text() == text::json_text(page.to_json()));
  page.records.push_back({{"Name", std::string("cut \xC3", 5)}});
  page.done = false;
  page.next_records_url = "/services/data/v68.0/query/01gxx-2000";
  const std::string text = page.to_text();
  CHECK(text == text::json_text(page.to_json()));
  CHECK(text.find("\xEF\xBF\xBD") != std::string::npos);  // U+FFFD, not a throw
  CHECK(nlohmann::json::parse(text)["nextRecordsUrl"] == page.next_records_url);
}
