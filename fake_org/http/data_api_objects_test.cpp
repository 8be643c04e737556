// The objects every org has (Organization, User, Profile, RecordType), the
// system fields every record has (OwnerId, CreatedById, LastModifiedById,
// RecordTypeId) and the relationships through them, as the platform's own
// clients read them.
#include <httplib.h>

#include <catch2/catch.hpp>

#include "domain/org/standard_records.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

Response objects_soql(TestOrg& t, const std::string& q, const std::string& resource = "query") {
  auto r = t.get(kDataApi + "/" + resource + "?q=" + httplib::detail::encode_query_param(q));
  INFO(q << " -> " << r.body);
  REQUIRE(r.status == 200);
  return r;
}

std::string objects_user_id(TestOrg& t, const std::string& username) {
  const UserDef* u = t.org().config().auth.user(username);
  REQUIRE(u);
  return u->id;
}

std::string objects_account_type_id(TestOrg& t, const std::string& name) {
  const ObjectDef* account = t.org().config().object("Account");
  REQUIRE(account);
  const RecordTypeDef* type = account->record_type(name);
  REQUIRE(type);
  return record_type_id(*account, *type);
}

}  // namespace

TEST_CASE("data API: the org's own records answer as the platform CLI asks them",
          "[http][data][objects]") {
  TestOrg t(fixture("default.yaml"));
  // At every login: the namespace check.
  auto ns = objects_soql(t, "Select Namespaceprefix FROM Organization");
  CHECK(ns.json["totalSize"] == 1);
  CHECK(ns.json["records"][0]["NamespacePrefix"].is_null());
  auto org = objects_soql(t,
                          "SELECT Id, Name, IsSandbox, OrganizationType, InstanceName, "
                          "TrialExpirationDate FROM Organization");
  const json& o = org.json["records"][0];
  CHECK(o["Id"] == "00D7Q00000LoCaLUAV");
  CHECK(o["Name"] == "Local Fake Org");
  CHECK(o["IsSandbox"] == false);
  CHECK(o["OrganizationType"] == "Developer Edition");
  CHECK(o["TrialExpirationDate"].is_null());

  // The access-token and web logins read the user's Username.
  const std::string ada = objects_user_id(t, "ada@local-fake-org.example");
  auto user = t.get(kDataApi + "/sobjects/User/" + ada);
  INFO(user.body);
  REQUIRE(user.status == 200);
  CHECK(user.json["Username"] == "ada@local-fake-org.example");
  CHECK(user.json["Name"] == "Ada Lovelace");
  CHECK(user.json["attributes"]["type"] == "User");
  CHECK(t.get(kDataApi + "/sobjects/User/005000000000000AAA").status == 404);

  auto users = objects_soql(t, "SELECT Username, Profile.Name FROM User ORDER BY Username");
  REQUIRE(users.json["totalSize"] == 2);
  CHECK(users.json["records"][0]["Username"] == "ada@local-fake-org.example");
  CHECK(users.json["records"][0]["Profile"]["Name"] == "Standard User");
  CHECK(users.json["records"][1]["Profile"]["Name"] == "System Administrator");

  auto types = objects_soql(t,
                            "SELECT Id, DeveloperName, IsPersonType FROM RecordType "
                            "WHERE SobjectType = 'Account' ORDER BY DeveloperName");
  REQUIRE(types.json["totalSize"] == 2);
  CHECK(types.json["records"][0]["DeveloperName"] == "Business_Account");
  CHECK(types.json["records"][0]["Id"] == objects_account_type_id(t, "Business_Account"));
  CHECK(types.json["records"][1]["IsPersonType"] == true);
}

TEST_CASE("data API: the org's own objects are read only and described so",
          "[http][data][objects]") {
  TestOrg t(fixture("default.yaml"));
  const std::string ada = objects_user_id(t, "ada@local-fake-org.example");
  const size_t users = t.count("User");
  auto create = t.post(kDataApi + "/sobjects/User", {{"Username", "x@example.org"}});
  INFO(create.body);
  CHECK(create.status == 400);
  CHECK(data_error_code(create) == "INVALID_TYPE_FOR_OPERATION");
  CHECK(create.json[0]["message"] == "entity type cannot be inserted: User");
  auto update = t.send("PATCH", kDataApi + "/sobjects/User/" + ada, R"({"LastName":"X"})");
  CHECK(update.status == 400);
  CHECK(data_error_code(update) == "INVALID_TYPE_FOR_OPERATION");
  auto remove = t.send("DELETE", kDataApi + "/sobjects/Organization/00D7Q00000LoCaLUAV", "");
  CHECK(remove.status == 400);
  CHECK(data_error_code(remove) == "INVALID_TYPE_FOR_OPERATION");
  CHECK(t.count("User") == users);
  CHECK(t.get(kDataApi + "/sobjects/User/" + ada).json["LastName"] == "Lovelace");

  auto global = t.get(kDataApi + "/sobjects");
  std::map<std::string, json> by_name;
  for (const auto& o : global.json["sobjects"]) by_name[o["name"]] = o;
  for (const char* name : {"User", "Organization", "Profile", "RecordType"}) {
    INFO(name);
    REQUIRE(by_name.count(name));
    CHECK(by_name[name]["createable"] == false);
    CHECK(by_name[name]["queryable"] == true);
  }
  CHECK(by_name["Contact"]["createable"] == true);
  CHECK(by_name["User"]["keyPrefix"] == "005");
}

TEST_CASE("data API: every record has its owner, creator and record type",
          "[http][data][objects]") {
  TestOrg t(fixture("default.yaml"));
  const std::string admin = t.org().config().auth.integration_user().id;
  const std::string ada = objects_user_id(t, "ada@local-fake-org.example");
  auto jane = objects_soql(t,
                           "SELECT Id, OwnerId, Owner.Name, CreatedBy.Username, LastModifiedById "
                           "FROM Contact WHERE Id = '0037Q00000JaneDQAR'");
  const json& c = jane.json["records"][0];
  CHECK(c["OwnerId"] == admin);
  CHECK(c["Owner"]["Name"] == "Integration User");
  CHECK(c["Owner"]["attributes"]["type"] == "User");
  CHECK(c["CreatedBy"]["Username"] == "integration@local-fake-org.example");
  CHECK(c["LastModifiedById"] == admin);

  // Record types by id on write, by developer name through the path.
  auto account =
      t.post(kDataApi + "/sobjects/Account",
             {{"Name", "Typed"}, {"RecordTypeId", objects_account_type_id(t, "PersonAccount")}});
  INFO(account.body);
  REQUIRE(account.status == 201);
  const std::string id = account.json["id"];
  auto typed = objects_soql(
      t, "SELECT RecordTypeId, RecordType.DeveloperName FROM Account WHERE Id = '" + id + "'");
  CHECK(typed.json["records"][0]["RecordTypeId"] == objects_account_type_id(t, "PersonAccount"));
  CHECK(typed.json["records"][0]["RecordType"]["DeveloperName"] == "PersonAccount");
  auto business = objects_soql(t,
                               "SELECT Id FROM Account WHERE RecordType.DeveloperName = "
                               "'Business_Account' AND Id = '0017Q00000GrnTrQAJ'");
  CHECK(business.json["totalSize"] == 1);
  auto other_type = t.post(kDataApi + "/sobjects/Account",
                           {{"Name", "Bad"}, {"RecordTypeId", "012000000000000AAA"}});
  CHECK(other_type.status == 400);
  CHECK(data_error_code(other_type) == "INVALID_CROSS_REFERENCE_KEY");

  // OwnerId is written; CreatedById is the org's.
  auto owned = t.post(kDataApi + "/sobjects/Contact", {{"LastName", "Owned"}, {"OwnerId", ada}});
  INFO(owned.body);
  REQUIRE(owned.status == 201);
  auto read = t.get(kDataApi + "/sobjects/Contact/" + owned.json["id"].get<std::string>());
  CHECK(read.json["OwnerId"] == ada);
  CHECK(read.json["CreatedById"] == admin);
  CHECK_FALSE(read.json.contains("RecordTypeId"));  // Contact has no record types
  auto by_owner = objects_soql(t, "SELECT Owner.Name FROM Contact WHERE OwnerId = '" + ada + "'");
  CHECK(by_owner.json["records"][0]["Owner"]["Name"] == "Ada Lovelace");
  auto no_user = t.post(kDataApi + "/sobjects/Contact",
                        {{"LastName", "X"}, {"OwnerId", "0055J00000000ZZQAY"}});
  CHECK(no_user.status == 400);
  auto creator = t.post(kDataApi + "/sobjects/Contact", {{"LastName", "X"}, {"CreatedById", ada}});
  CHECK(creator.status == 400);
  CHECK(data_error_code(creator) == "INVALID_FIELD_FOR_INSERT_UPDATE");

  auto describe = t.get(kDataApi + "/sobjects/Contact/describe");
  std::map<std::string, json> fields;
  for (const auto& f : describe.json["fields"]) fields[f["name"]] = f;
  CHECK(fields["OwnerId"]["referenceTo"] == json::array({"User"}));
  CHECK(fields["OwnerId"]["relationshipName"] == "Owner");
  CHECK(fields["OwnerId"]["createable"] == true);
  CHECK(fields["CreatedById"]["createable"] == false);
  CHECK(fields.count("RecordTypeId") == 0);
  CHECK(fields["External_Donor_Id__c"]["externalId"] == true);
  CHECK(fields["External_Donor_Id__c"]["unique"] == true);
  CHECK(fields["LastName"]["externalId"] == false);
}
