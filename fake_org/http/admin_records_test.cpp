// POST /__admin/records/{Type}: records created at runtime, checked as seed
// records are, indexed like any other (deduplication finds them), dropped by
// the reset.
#include <catch2/catch.hpp>

#include "testing/intent_body.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

IntentBody one_time_for(const std::string& email) {
  return IntentBody::one_time()
      .contact({{"LastName", "Hopper"}, {"Email", email}})
      .allow_deduplication();
}

std::string refused(TestOrg& t, const std::string& type, const json& body) {
  auto r = t.post("/__admin/records/" + type, body, false);
  INFO(r.body);
  CHECK(r.status == 400);
  CHECK(code_of(r) == "010");
  return message_of(r);
}

}  // namespace

TEST_CASE("a record created through the admin API reads back and deduplicates like a seed",
          "[http][admin][records]") {
  TestOrg t(fixture("default.yaml"));
  size_t contacts = t.admin_records("Contact").size();
  auto created = t.post("/__admin/records/Contact",
                        {{"FirstName", "Grace"},
                         {"LastName", "Hopper"},
                         {"Email", "grace@example.org"},
                         {"MailingPostalCode", "10001"}},
                        false);
  INFO(created.body);
  REQUIRE(created.status == 201);
  std::string id = created.json["Id"];
  CHECK(id.size() == 18);
  CHECK(id.rfind("003", 0) == 0);
  CHECK(created.json["attributes"]["type"] == "Contact");
  CHECK(created.json["Email"] == "grace@example.org");
  CHECK(created.json.count("GUID") == 0);  // a standard object has none
  CHECK(created.json == t.admin_record("Contact", id));
  CHECK(t.admin_records("Contact").size() == contacts + 1);

  // POST /PaymentIntent finds it by the Email rule, as it finds seeds.
  auto pi = t.post("/PaymentIntent", one_time_for("GRACE@example.org"));
  REQUIRE(pi.status == 200);
  auto read = t.get("/PaymentIntent/" + pi.json["Id"].get<std::string>());
  CHECK(read.json["Payer"]["Contact"]["Id"] == id);
  CHECK(read.json["Status"] == "Matched");
  CHECK(t.admin_records("Contact").size() == contacts + 1);

  // The reset restores the fixture's seeds: the record is gone.
  REQUIRE(t.post("/__admin/reset", json::object(), false).status == 200);
  CHECK(t.get("/__admin/records/Contact/" + id, false).status == 404);
  CHECK(t.admin_records("Contact").size() == contacts);
}

TEST_CASE("admin records: the package's objects get a GUID, references must exist",
          "[http][admin][records]") {
  TestOrg t(fixture("default.yaml"));
  auto account = t.post("/__admin/records/Account", {{"Name", "Hopper Household"}}, false);
  REQUIRE(account.status == 201);
  std::string account_id = account.json["Id"];
  auto contact = t.post("/__admin/records/Contact",
                        {{"LastName", "Hopper"}, {"AccountId", account_id.substr(0, 15)}}, false);
  REQUIRE(contact.status == 201);
  CHECK(contact.json["AccountId"] == account_id);  // stored as 18 characters

  auto profile = t.post("/__admin/records/cpm__Payment_Profile__c",
                        {{"cpm__Contact__c", contact.json["Id"]},
                         {"cpm__Card_Last_Four__c", "4242"},
                         {"cpm__Card_Expiry_Year__c", 2031},
                         {"cpm__Active__c", true}},
                        false);
  INFO(profile.body);
  REQUIRE(profile.status == 201);
  std::string guid = profile.json["GUID"];
  CHECK(guid.size() == 36);
  CHECK(t.admin_record("cpm__Payment_Profile__c", guid)["Id"] == profile.json["Id"]);
  CHECK(profile.json["cpm__Card_Expiry_Year__c"] == 2031);
  CHECK(profile.json["cpm__Active__c"] == true);

  CHECK(refused(t, "Contact", {{"LastName", "X"}, {"AccountId", "001000000000001"}}) ==
        "Contact: AccountId must be the id of an existing record, found '001000000000001'");
  CHECK(refused(t, "Contact", {{"AccountId", contact.json["Id"]}})
            .find("AccountId must be the id of a Account record (prefix 001)") !=
        std::string::npos);
}

TEST_CASE("admin records: unknown objects, unknown fields and bad values are 400 naming them",
          "[http][admin][records]") {
  TestOrg t(fixture("default.yaml"));
  size_t contacts = t.admin_records("Contact").size();
  CHECK(refused(t, "Contactt", {{"LastName", "X"}})
            .rfind("Object 'Contactt' does not exist in this org; known objects: Account, ", 0) ==
        0);
  CHECK(refused(t, "Contact", {{"LastNam", "X"}}) ==
        "Contact: field 'LastNam' does not exist on Contact (did you mean 'LastName'?)");
  CHECK(refused(t, "Contact", {{"Email", "not-an-address"}}) ==
        "Contact: Email must be an email address like name@example.org (it has no '@'), "
        "found 'not-an-address'");
  CHECK(refused(t, "Contact", {{"Salutation", "Sir"}}) ==
        "Contact: Salutation must be one of Mr., Ms., Mrs., Mx., Dr., Prof., found 'Sir'");
  CHECK(refused(t, "Contact", {{"FirstName", {{"nested", 1}}}}) ==
        "Contact: FirstName must be a single value, found a mapping");
  CHECK(refused(t, "cpm__Payment_Profile__c", {{"cpm__Active__c", "true"}}) ==
        "cpm__Payment_Profile__c: cpm__Active__c must be true or false, found 'true'");
  CHECK(refused(t, "Contact", json::array()) ==
        "Contact: the body must be a JSON object of Contact fields, such as {\"LastName\": "
        "\"Doe\"}");
  auto bad_json = t.post_raw("/__admin/records/Contact", "{", false);
  CHECK(bad_json.status == 400);
  // Two bad fields: both named, nothing stored.
  auto two = t.post("/__admin/records/Contact", {{"Nope", 1}, {"Email", "x"}}, false);
  CHECK(two.status == 400);
  CHECK(two.json["Errors"].size() == 2);
  CHECK(t.admin_records("Contact").size() == contacts);
}

TEST_CASE("admin records get the object's default record type, or the RecordTypeName given",
          "[http][admin][records]") {
  TestOrg t(fixture("nonprofit.yaml"));
  auto plain = t.post("/__admin/records/Account", {{"Name", "Plain"}}, false);
  INFO(plain.body);
  REQUIRE(plain.status == 201);
  CHECK(plain.json["RecordTypeName"] == "HH_Account");  // the default, as seeds get
  auto named = t.post("/__admin/records/Account",
                      {{"Name", "Org"}, {"RecordTypeName", "Organization"}}, false);
  INFO(named.body);
  REQUIRE(named.status == 201);
  CHECK(named.json["RecordTypeName"] == "Organization");
  CHECK(t.admin_record("Account", named.json["Id"])["RecordTypeName"] == "Organization");
  CHECK(refused(t, "Account", {{"Name", "X"}, {"RecordTypeName", "Nope"}}) ==
        "Account: RecordTypeName \"Nope\" is not one of its record types: HH_Account, "
        "Organization, PersonAccount, Donor_Person");
  // An object without record types: none is stored, and naming one is refused.
  auto contact = t.post("/__admin/records/Contact", {{"LastName", "NoType"}}, false);
  REQUIRE(contact.status == 201);
  CHECK(contact.json.count("RecordTypeName") == 0);
  CHECK(refused(t, "Contact", {{"LastName", "X"}, {"RecordTypeName", "Any"}}) ==
        "Contact: RecordTypeName \"Any\" is not allowed: the object has no record types");
}

TEST_CASE("admin records paging: offset and limit are whole numbers or 400 naming them",
          "[http][admin][records]") {
  TestOrg t(fixture("default.yaml"));
  auto all = t.get("/__admin/records/Contact", false);
  REQUIRE(all.status == 200);
  REQUIRE(all.json["totalSize"].get<size_t>() >= 2);
  auto one = t.get("/__admin/records/Contact?offset=1&limit=1", false);
  CHECK(one.status == 200);
  CHECK(one.json["records"].size() == 1);
  CHECK(t.get("/__admin/records/Contact?limit=0", false).json["records"].empty());
  for (const std::string name : {"limit", "offset"}) {
    for (const std::string v : {"abc", "-1", "", "1.5", "99999999999999999999999", "+1"}) {
      auto r = t.get("/__admin/records/Contact?" + name + "=" + v, false);
      INFO(name << "=" << v << ": " << r.body);
      CHECK(r.status == 400);
      CHECK(code_of(r) == "010");
      CHECK(message_of(r).rfind("'" + name + "'", 0) == 0);
    }
  }
}
