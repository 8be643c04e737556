// Parent-to-child subqueries: the catalogue's child relationships, the
// nested result body, children counting toward the batch, the rest of a
// parent's children behind its own query locator, and the API version's
// nesting limit.
#include <catch2/catch.hpp>
#include <map>

#include "domain/org/soql_cursors.h"
#include "domain/soql/soql_children.h"
#include "domain/store/record_store.h"
#include "testing/soql_records.h"

using namespace fake_org;
using namespace fake_org::testing;

namespace {

const std::string kBigAccount = testing::new_id("001", 950);
const std::string kSmallAccount = testing::new_id("001", 951);

// An account with `n` contacts and one with two, after the fixture's own.
void add_families(SoqlOrg& org, int n) {
  std::vector<Record> records = {
      record("Account", kBigAccount, {{"Name", "Big"}}, at("2027-03-01T09:00:00Z")),
      record("Account", kSmallAccount, {{"Name", "Small"}}, at("2027-03-01T09:00:00Z"))};
  for (int i = 0; i < n + 2; ++i) {
    char last[16];
    std::snprintf(last, sizeof last, "Kid%05d", i);
    records.push_back(
        record("Contact", testing::new_id("003", 5000 + i),
               {{"LastName", last}, {"AccountId", i < n ? kBigAccount : kSmallAccount}},
               at("2027-03-01T09:00:00Z")));
  }
  org.add(records);
}

}  // namespace

TEST_CASE("child relationships are named from the catalogue as the platform names them", "[soql]") {
  SoqlOrg org;
  const OrgConfig& config = org.org().config();
  auto names = [&](const char* parent) {
    std::map<std::string, std::string> out;  // name -> child.field
    for (const auto& r : soql::child_relationships(config, *config.object(parent)))
      out[r.name] = r.child->api_name + "." + r.field->name;
    return out;
  };
  auto account = names("Account");
  CHECK(account["Contacts"] == "Contact.AccountId");
  CHECK(account["ChildAccounts"] == "Account.ParentId");
  CHECK(account["cpm__Installments__r"] == "cpm__Installment__c.cpm__Account__c");
  CHECK(account["cpm__Gift_Aid_Declarations__r"] == "cpm__Gift_Aid_Declaration__c.cpm__Account__c");
  CHECK(account["npe03__Recurring_Donations__r"] ==
        "npe03__Recurring_Donation__c.npe03__Organization__c");
  CHECK(account["GiftCommitments"] == "GiftCommitment.DonorId");
  auto contact = names("Contact");
  CHECK(contact[""] == "Account.PersonContactId");  // a one-to-one link, no list
  CHECK(contact["cpm__Payments__r"] == "cpm__Payment__c.cpm__Contact__c");
  CHECK(names("Campaign")["ChildCampaigns"] == "Campaign.ParentId");
  for (const auto& r : soql::child_relationships(config, *config.object("Account")))
    CHECK(r.cascade_delete == (r.name == "Contacts"));

  CHECK(soql::plural_of("Opportunity") == "Opportunities");
  CHECK(soql::plural_of("Address") == "Addresses");
  CHECK(soql::plural_of("Survey") == "Surveys");
  CHECK(soql::plural_of("Batch") == "Batches");
  CHECK(soql::plural_of("Contact") == "Contacts");
}

TEST_CASE("a child subquery nests its records in each parent, null without any", "[soql]") {
  SoqlOrg org;
  auto page = org.query(
      "SELECT Name, (SELECT LastName FROM Contacts ORDER BY LastName), Id "
      "FROM Account WHERE Id = '" +
      kGreenfield + "'");
  REQUIRE(page.ok());
  REQUIRE(page->records.size() == 1);
  const auto& account = page->records[0];
  std::vector<std::string> keys;
  for (auto it = account.begin(); it != account.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"attributes", "Name", "Contacts", "Id"});
  const auto& contacts = account["Contacts"];
  CHECK(contacts.dump() ==
        nlohmann::ordered_json{
            {"totalSize", 2},
            {"done", true},
            {"records",
             {{{"attributes",
                {{"type", "Contact"}, {"url", "/services/data/v68.0/sobjects/Contact/" + kJane}}},
               {"LastName", "Doe"}},
              {{"attributes",
                {{"type", "Contact"}, {"url", "/services/data/v68.0/sobjects/Contact/" + kAda}}},
               {"LastName", "Lovelace"}}}}}
            .dump());

  auto none = org.query(
      "SELECT Id, (SELECT Name FROM cpm__Installments__r) FROM Contact "
      "WHERE Id = '" +
      kGrace + "'");
  REQUIRE(none.ok());
  CHECK(none->records[0]["cpm__Installments__r"].is_null());

  // queryAll sees a deleted child, query does not (deleted records are in no index).
  Record gone =
      record("Contact", testing::new_id("003", 990),
             {{"LastName", "Gone"}, {"AccountId", kGreenfield}}, at("2027-03-01T09:00:00Z"));
  gone.deleted = true;
  org.add({gone});
  const std::string soql =
      "SELECT (SELECT LastName, IsDeleted FROM Contacts ORDER BY LastName) FROM Account "
      "WHERE Id = '" +
      kGreenfield + "'";
  CHECK(org.query(soql)->records[0]["Contacts"]["totalSize"] == 2);
  soql::QueryOptions all;
  all.include_deleted = true;
  auto with_deleted = org.query(soql, all);
  REQUIRE(with_deleted.ok());
  CHECK(with_deleted->records[0]["Contacts"]["totalSize"] == 3);
  CHECK(with_deleted->records[0]["Contacts"]["records"][1]["IsDeleted"] == true);
}

TEST_CASE("child records count toward the batch, the rest wait behind their own locator",
          "[soql]") {
  SoqlOrg org;
  add_families(org, 2500);
  soql::QueryOptions small;
  small.batch_size = 200;
  const std::string soql = "SELECT Name, (SELECT LastName FROM Contacts) FROM Account";
  // Greenfield (2 children) fits; Big's 2,500 would pass the batch, so it
  // opens the next one.
  auto first = org.query(soql, small);
  REQUIRE(first.ok());
  CHECK(first->total_size == 3);
  CHECK_FALSE(first->done);
  REQUIRE(first->records.size() == 1);
  CHECK(first->records[0]["Name"] == "Greenfield Community Trust");
  CHECK(first->locator.substr(18) == "-1");

  // The first parent of a batch goes in whatever its children: 199 of them
  // fill it, the rest behind the child result's nextRecordsUrl.
  auto second = soql::next_page(org.org(), first->locator);
  REQUIRE(second.ok());
  REQUIRE(second->records.size() == 1);
  const auto& big = second->records[0]["Contacts"];
  CHECK(big["totalSize"] == 2500);
  CHECK(big["done"] == false);
  CHECK(big["records"].size() == 199);
  CHECK(big["records"][0]["LastName"] == "Kid00000");
  const std::string url = big["nextRecordsUrl"];
  INFO(url);
  REQUIRE(url.rfind("/services/data/v68.0/query/01g", 0) == 0);
  CHECK(url.substr(url.size() - 4) == "-199");
  const std::string child_locator = url.substr(url.rfind('/') + 1);
  auto children = soql::next_page(org.org(), child_locator);
  REQUIRE(children.ok());
  CHECK(children->total_size == 2500);
  CHECK(children->records.size() == 2000);
  CHECK(children->records[0]["LastName"] == "Kid00199");
  CHECK(children->records[0]["attributes"]["type"] == "Contact");
  auto last_children = soql::next_page(org.org(), children->locator);
  REQUIRE(last_children.ok());
  CHECK(last_children->records.size() == 301);
  CHECK(last_children->done);

  auto third = soql::next_page(org.org(), second->locator);
  REQUIRE(third.ok());
  CHECK(third->done);
  REQUIRE(third->records.size() == 1);
  CHECK(third->records[0]["Name"] == "Small");
  CHECK(third->records[0]["Contacts"]["records"].size() == 2);

  // With the default batch of 2,000 the whole of Big's children page the same way.
  auto whole = org.query(soql);
  REQUIRE(whole.ok());
  CHECK(whole->records.size() == 1);
  CHECK(whole->locator.substr(18) == "-1");
}

TEST_CASE("API versions before 58.0 take one level of child subqueries", "[soql]") {
  SoqlOrg org;
  const std::string soql =
      "SELECT Id, (SELECT Id, (SELECT Name FROM cpm__Installments__r) FROM Contacts) FROM Account";
  CHECK(org.query(soql).ok());
  soql::QueryOptions v57;
  v57.api_version = "57.0";
  auto old = org.query(soql, v57);
  REQUIRE_FALSE(old.ok());
  CHECK(old.error().error_code == "MALFORMED_QUERY");
  CHECK(old.error().position == soql.find("(SELECT Name"));
  CHECK(old.error().detail ==
        "SOQL statements cannot query aggregate relationships more than 1 level away from the "
        "root entity object.");
  CHECK(org.query("SELECT Id, (SELECT Id FROM Contacts) FROM Account", v57).ok());
}
