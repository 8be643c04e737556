// The REST data API's reads (/services/data): versions, resources,
// describes, one record, limits, and the platform's 401 and 404 bodies.
#include <catch2/catch.hpp>

#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

std::string new_contact(TestOrg& t, const json& fields) {
  auto created = t.post("/__admin/records/Contact", fields, false);
  INFO(created.body);
  REQUIRE(created.status == 201);
  return created.json["Id"].get<std::string>();
}

const json* field_of(const json& describe, const std::string& name) {
  for (const auto& f : describe["fields"])
    if (f["name"] == name) return &f;
  return nullptr;
}

}  // namespace

TEST_CASE("data API: versions without a token, resources per version, others 404", "[http][data]") {
  TestOrg t(fixture("default.yaml"));
  auto versions = t.get("/services/data", false);
  INFO(versions.body);
  REQUIRE(versions.status == 200);
  REQUIRE(versions.json.is_array());
  CHECK(versions.json.front()["version"] == "31.0");
  CHECK(versions.json.back() ==
        json{{"label", "Winter '27"}, {"url", "/services/data/v68.0"}, {"version", "68.0"}});
  CHECK(versions.json.size() == 38);

  auto resources = t.get(kDataApi);
  REQUIRE(resources.status == 200);
  CHECK(resources.json["sobjects"] == "/services/data/v59.0/sobjects");
  CHECK(resources.json["query"] == "/services/data/v59.0/query");
  CHECK(t.get("/services/data/v45.0").json["limits"] == "/services/data/v45.0/limits");

  CHECK(t.get("/services/data/v68.0/sobjects").status == 200);
  CHECK(t.get("/services/data/v63.0/limits").status == 200);
  for (const char* bad : {"/services/data/v30.0", "/services/data/v69.0", "/services/data/59.0",
                          "/services/data/v59.5", "/services/data/v59.0/nothing"}) {
    auto r = t.get(bad);
    INFO(bad << ": " << r.body);
    CHECK(r.status == 404);
    CHECK(r.json ==
          json::parse(
              R"([{"message":"The requested resource does not exist","errorCode":"NOT_FOUND"}])"));
  }
  auto anonymous = t.get(kDataApi + "/sobjects", false);
  CHECK(anonymous.status == 401);
  CHECK(data_error_code(anonymous) == "INVALID_SESSION_ID");
  CHECK(anonymous.json[0]["message"] == "Session expired or invalid");
}

TEST_CASE("data API: a fixture pins an older newest version", "[http][data]") {
  OrgConfig config = fixture("default.yaml");
  config.org.api_version = "59.0";
  TestOrg t(config);
  auto versions = t.get("/services/data", false);
  REQUIRE(versions.status == 200);
  CHECK(versions.json.size() == 29);
  CHECK(versions.json.back()["version"] == "59.0");
  CHECK(t.get("/services/data/v59.0/limits").status == 200);
  CHECK(t.get("/services/data/v60.0/limits").status == 404);
}

TEST_CASE("data API: describe global, basic info and an object's describe", "[http][data]") {
  TestOrg t(fixture("default.yaml"));
  auto global = t.get(kDataApi + "/sobjects");
  INFO(global.body);
  REQUIRE(global.status == 200);
  CHECK(global.json["maxBatchSize"] == 200);
  CHECK(global.json["encoding"] == "UTF-8");
  json contact;
  for (const auto& o : global.json["sobjects"])
    if (o["name"] == "Contact") contact = o;
  CHECK(contact["keyPrefix"] == "003");
  CHECK(contact["custom"] == false);
  CHECK(contact["urls"]["describe"] == "/services/data/v59.0/sobjects/Contact/describe");
  CHECK(contact["urls"]["rowTemplate"] == "/services/data/v59.0/sobjects/Contact/{ID}");

  std::string id = new_contact(t, {{"LastName", "Hopper"}});
  auto info = t.get(kDataApi + "/sobjects/Contact");
  REQUIRE(info.status == 200);
  CHECK(info.json["objectDescribe"]["name"] == "Contact");
  CHECK(info.json["recentItems"][0]["Id"] == id);

  auto describe = t.get("/services/data/v50.0/sobjects/Contact/describe");
  INFO(describe.body);
  REQUIRE(describe.status == 200);
  CHECK(describe.json["urls"]["sobject"] == "/services/data/v50.0/sobjects/Contact");
  const json* f_id = field_of(describe.json, "Id");
  REQUIRE(f_id);
  CHECK((*f_id)["type"] == "id");
  CHECK((*f_id)["createable"] == false);
  const json* last = field_of(describe.json, "LastName");
  REQUIRE(last);
  CHECK((*last)["type"] == "string");
  CHECK((*last)["length"] == 80);
  CHECK((*last)["nillable"] == false);
  const json* salutation = field_of(describe.json, "Salutation");
  REQUIRE(salutation);
  CHECK((*salutation)["type"] == "picklist");
  CHECK((*salutation)["restrictedPicklist"] == true);
  CHECK((*salutation)["picklistValues"][0] ==
        json{{"active", true}, {"defaultValue", false}, {"label", "Mr."}, {"value", "Mr."}});
  const json* account = field_of(describe.json, "AccountId");
  REQUIRE(account);
  CHECK((*account)["type"] == "reference");
  CHECK((*account)["referenceTo"] == json::array({"Account"}));
  CHECK((*account)["relationshipName"] == "Account");
  CHECK((*field_of(describe.json, "Email"))["type"] == "email");
  CHECK((*field_of(describe.json, "Birthdate"))["type"] == "date");
  CHECK((*field_of(describe.json, "Name"))["createable"] == false);
  CHECK(field_of(describe.json, "CreatedDate"));

  for (const char* path : {"/sobjects/Nothing", "/sobjects/Nothing/describe"}) {
    auto r = t.get(kDataApi + path);
    CHECK(r.status == 404);
    CHECK(data_error_code(r) == "NOT_FOUND");
  }
}

TEST_CASE("data API: a record by 15- or 18-character id, some fields, and the errors",
          "[http][data]") {
  TestOrg t(fixture("default.yaml"));
  std::string id = new_contact(
      t, {{"FirstName", "Grace"}, {"LastName", "Hopper"}, {"Email", "grace@example.org"}});
  auto full = t.get(kDataApi + "/sobjects/Contact/" + id);
  INFO(full.body);
  REQUIRE(full.status == 200);
  CHECK(full.json["attributes"] ==
        json{{"type", "Contact"}, {"url", "/services/data/v59.0/sobjects/Contact/" + id}});
  CHECK(full.json["Id"] == id);
  CHECK(full.json["LastName"] == "Hopper");
  CHECK(full.json["MailingCity"].is_null());
  CHECK(full.json["IsDeleted"] == false);
  CHECK(full.json.contains("CreatedDate"));

  auto by15 = t.get(kDataApi + "/sobjects/Contact/" + id.substr(0, 15));
  CHECK(by15.status == 200);
  CHECK(by15.json == full.json);

  auto some = t.get(kDataApi + "/sobjects/Contact/" + id + "?fields=lastname,Email");
  INFO(some.body);
  REQUIRE(some.status == 200);
  CHECK(some.json == json{{"attributes", full.json["attributes"]},
                          {"LastName", "Hopper"},
                          {"Email", "grace@example.org"},
                          {"Id", id}});

  auto unknown_field = t.get(kDataApi + "/sobjects/Contact/" + id + "?fields=LastName,Nope__c");
  CHECK(unknown_field.status == 400);
  CHECK(data_error_code(unknown_field) == "INVALID_FIELD");
  CHECK(unknown_field.json[0]["message"].get<std::string>().find("'Nope__c'") != std::string::npos);

  auto malformed = t.get(kDataApi + "/sobjects/Contact/abc");
  CHECK(malformed.status == 400);
  CHECK(data_error_code(malformed) == "MALFORMED_ID");
  CHECK(malformed.json[0]["message"].get<std::string>().find("abc") != std::string::npos);

  std::string missing = id.substr(0, 12) + "999";  // a well-formed id no record has
  auto none = t.get(kDataApi + "/sobjects/Contact/" + missing);
  CHECK(none.status == 404);
  CHECK(data_error_code(none) == "NOT_FOUND");
  auto other_type = t.get(kDataApi + "/sobjects/Account/" + id);
  CHECK(other_type.status == 404);
  auto no_type = t.get(kDataApi + "/sobjects/Nothing/" + id);
  CHECK(no_type.status == 404);
}

TEST_CASE("data API: limits count the API requests, Sforce-Limit-Info tells the usage",
          "[http][data]") {
  TestOrg t(fixture("default.yaml"));
  auto first = t.get(kDataApi + "/limits");
  INFO(first.body);
  REQUIRE(first.status == 200);
  const json daily = first.json["DailyApiRequests"];
  CHECK(daily["Max"] == 15000);
  auto second = t.get(kDataApi + "/limits");
  CHECK(second.json["DailyApiRequests"]["Remaining"] == daily["Remaining"].get<long>() - 1);
  const std::string header = second.headers.find("Sforce-Limit-Info")->second;
  CHECK(header ==
        "api-usage=" +
            std::to_string(15000 - second.json["DailyApiRequests"]["Remaining"].get<long>()) +
            "/15000");
}

TEST_CASE("data API: the Tooling API's sandbox query answers no rows", "[http][data]") {
  TestOrg t(fixture("default.yaml"));
  auto none = t.get(kDataApi + "/tooling/query?q=SELECT%20Id%20FROM%20SandboxProcess%20WHERE%20" +
                    "SandboxOrganization%3D%2700D7Q00000LoCaL%27");
  INFO(none.body);
  REQUIRE(none.status == 200);
  CHECK(none.json["entityTypeName"] == "SandboxProcess");
  CHECK(none.json["records"].empty());
  auto apex = t.get(kDataApi + "/tooling/query?q=SELECT%20Id%20FROM%20ApexClass");
  CHECK(apex.status == 400);
  CHECK(apex.json[0]["errorCode"] == "INVALID_TYPE");
  CHECK(t.get(kDataApi + "/tooling/query").json[0]["errorCode"] == "MALFORMED_QUERY");
  CHECK(t.get(kDataApi + "/tooling/query?q=SELECT%20Id%20FROM%20SandboxProcess", false).status ==
        401);
}
