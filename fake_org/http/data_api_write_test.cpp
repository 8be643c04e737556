// The REST data API's single-record writes: create, update, delete, with
// the platform's error codes, nothing changed by a refused request, and the
// same records the payment API deduplicates against.
#include <httplib.h>

#include <catch2/catch.hpp>

#include "testing/intent_body.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

const std::string kContacts = "/services/data/v59.0/sobjects/Contact";

std::string create(TestOrg& t, const json& fields) {
  auto r = t.post(kContacts, fields);
  INFO(r.body);
  REQUIRE(r.status == 201);
  CHECK(r.json["success"] == true);
  CHECK(r.json["errors"] == json::array());
  return r.json["id"].get<std::string>();
}

// A refused create: its status and first errorCode, and nothing stored.
Response refused(TestOrg& t, const std::string& body, int status, const std::string& code) {
  const size_t before = t.count("Contact");
  auto r = t.post_raw(kContacts, body);
  INFO(body << " -> " << r.body);
  CHECK(r.status == status);
  CHECK(data_error_code(r) == code);
  CHECK(t.count("Contact") == before);
  return r;
}

Response query_at(TestOrg& t, const std::string& resource, const std::string& soql) {
  return t.get("/services/data/v59.0/" + resource +
               "?q=" + httplib::detail::encode_query_param(soql));
}

}  // namespace

TEST_CASE("data API: a contact created by POST sobjects reads back and deduplicates",
          "[http][data][write]") {
  TestOrg t(fixture("default.yaml"));
  t.set_clock("2027-03-01T09:00:00Z");
  const size_t before = t.count("Contact");
  std::string id = create(t, {{"FirstName", "Grace"},
                              {"LastName", "Hopper"},
                              {"Email", "grace.hopper@example.org"},
                              {"MailingPostalCode", 10001},
                              {"HasOptedOutOfEmail", true},
                              {"attributes", {{"type", "Contact"}}}});
  CHECK(id.size() == 18);
  CHECK(id.rfind("003", 0) == 0);
  CHECK(t.count("Contact") == before + 1);
  auto read = t.get(kContacts + "/" + id);
  INFO(read.body);
  CHECK(read.json["Email"] == "grace.hopper@example.org");
  CHECK(read.json["MailingPostalCode"] == "10001");
  CHECK(read.json["HasOptedOutOfEmail"] == true);
  // The org clock runs on from the instant it was set.
  CHECK(read.json["CreatedDate"].get<std::string>().rfind("2027-03-01T09:00", 0) == 0);

  // POST /PaymentIntent finds it by the Email rule.
  auto pi = t.post("/PaymentIntent",
                   IntentBody::one_time()
                       .contact({{"LastName", "Hopper"}, {"Email", "GRACE.HOPPER@example.org"}})
                       .allow_deduplication());
  INFO(pi.body);
  REQUIRE(pi.status == 200);
  auto status = t.get("/PaymentIntent/" + pi.json["Id"].get<std::string>());
  CHECK(status.json["Payer"]["Contact"]["Id"] == id);
  CHECK(t.count("Contact") == before + 1);
}

TEST_CASE("data API: a refused create names the platform's code and stores nothing",
          "[http][data][write]") {
  TestOrg t(fixture("default.yaml"));
  refused(t, R"({"LastName": "X", "Nope__c": 1})", 400, "INVALID_FIELD");
  auto missing = refused(t, R"({"FirstName": "X"})", 400, "REQUIRED_FIELD_MISSING");
  CHECK(missing.json[0]["fields"] == json::array({"LastName"}));
  refused(t, json{{"LastName", std::string(81, 'x')}}.dump(), 400, "STRING_TOO_LONG");
  refused(t, R"({"LastName": "X", "Salutation": "Sir"})", 400,
          "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST");
  refused(t, R"({"LastName": "X", "Birthdate": "yesterday"})", 400,
          "INVALID_TYPE_ON_FIELD_IN_RECORD");
  refused(t, R"({"LastName": "X", "DoNotCall": "yes"})", 400, "INVALID_TYPE_ON_FIELD_IN_RECORD");
  refused(t, R"({"LastName": "X", "FirstName": {"a": 1}})", 400, "JSON_PARSER_ERROR");
  refused(t, R"({"LastName": )", 400, "JSON_PARSER_ERROR");
  refused(t, "", 400, "JSON_PARSER_ERROR");
  refused(t, R"([1, 2])", 400, "JSON_PARSER_ERROR");
  refused(t, R"({"LastName": "X", "AccountId": "001000000000001"})", 400,
          "INVALID_CROSS_REFERENCE_KEY");
  refused(t, R"({"LastName": "X", "AccountId": "abc"})", 400, "MALFORMED_ID");
  refused(t, R"({"LastName": "X", "Email": "nobody"})", 400, "INVALID_EMAIL_ADDRESS");
  for (const char* system : {"Id", "CreatedDate", "Name", "IsDeleted"}) {
    auto r = refused(t, json{{"LastName", "X"}, {system, "2027-01-01"}}.dump(), 400,
                     "INVALID_FIELD_FOR_INSERT_UPDATE");
    CHECK(r.json[0]["fields"].size() == 1);
  }
  // Two problems: both listed.
  auto two = refused(t, R"({"Salutation": "Sir"})", 400, "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST");
  CHECK(two.json.size() == 2);
  CHECK(data_error_code(two, 1) == "REQUIRED_FIELD_MISSING");

  auto no_type = t.post("/services/data/v59.0/sobjects/Nothing", json{{"Name", "X"}});
  CHECK(no_type.status == 404);
  CHECK(data_error_code(no_type) == "NOT_FOUND");
}

TEST_CASE("data API: PATCH updates by 15- or 18-character id, a refused one changes nothing",
          "[http][data][write]") {
  TestOrg t(fixture("default.yaml"));
  t.set_clock("2027-03-01T09:00:00Z");
  std::string id = create(t, {{"LastName", "Hopper"}});
  t.set_clock("2027-03-01T10:00:00Z");  // within the token's two hours
  auto patched = t.send("PATCH", kContacts + "/" + id.substr(0, 15),
                        json{{"FirstName", "Grace"}, {"LastName", "Murray"}}.dump());
  INFO(patched.body);
  CHECK(patched.status == 204);
  CHECK(patched.body.empty());
  auto read = t.get(kContacts + "/" + id);
  CHECK(read.json["FirstName"] == "Grace");
  CHECK(read.json["LastName"] == "Murray");
  CHECK(read.json["CreatedDate"].get<std::string>().rfind("2027-03-01T09:00", 0) == 0);
  CHECK(read.json["LastModifiedDate"].get<std::string>().rfind("2027-03-01T10:00", 0) == 0);

  auto bad = t.send("PATCH", kContacts + "/" + id,
                    json{{"FirstName", "Ada"}, {"Salutation", "Sir"}}.dump());
  CHECK(bad.status == 400);
  CHECK(data_error_code(bad) == "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST");
  CHECK(t.get(kContacts + "/" + id).json["FirstName"] == "Grace");

  auto cleared = t.send("PATCH", kContacts + "/" + id, R"({"LastName": null})");
  CHECK(cleared.status == 400);
  CHECK(data_error_code(cleared) == "REQUIRED_FIELD_MISSING");
  auto system = t.send("PATCH", kContacts + "/" + id, R"({"Id": "003000000000001"})");
  CHECK(data_error_code(system) == "INVALID_FIELD_FOR_INSERT_UPDATE");
  auto bad_id = t.send("PATCH", kContacts + "/nope", R"({"LastName": "X"})");
  CHECK(bad_id.status == 400);
  CHECK(data_error_code(bad_id) == "MALFORMED_ID");
  auto none = t.send("PATCH", kContacts + "/" + id.substr(0, 12) + "999", R"({"LastName": "X"})");
  CHECK(none.status == 404);
  CHECK(data_error_code(none) == "NOT_FOUND");
}

TEST_CASE("data API: DELETE hides a record from query and deduplication, queryAll sees it",
          "[http][data][write]") {
  TestOrg t(fixture("default.yaml"));
  std::string id = create(t, {{"LastName", "Gone"}, {"Email", "gone@example.org"}});
  auto deleted = t.send("DELETE", kContacts + "/" + id.substr(0, 15), "");
  CHECK(deleted.status == 204);
  for (const char* method : {"GET", "PATCH", "DELETE"}) {
    auto r = t.send(method, kContacts + "/" + id, R"({"LastName": "Back"})");
    INFO(method << ": " << r.body);
    CHECK(r.status == 404);
    CHECK(data_error_code(r) == "ENTITY_IS_DELETED");
  }
  const std::string soql = "SELECT Id, IsDeleted FROM Contact WHERE LastName = 'Gone'";
  CHECK(query_at(t, "query", soql).json["totalSize"] == 0);
  auto all = query_at(t, "queryAll", soql);
  INFO(all.body);
  REQUIRE(all.json["totalSize"] == 1);
  CHECK(all.json["records"][0]["Id"] == id);
  CHECK(all.json["records"][0]["IsDeleted"] == true);
  CHECK(query_at(t, "queryAll", soql + " AND IsDeleted = true").json["totalSize"] == 1);

  // Deduplication no longer finds it: the payment API makes a new contact.
  const size_t before = t.count("Contact");
  auto pi =
      t.post("/PaymentIntent", IntentBody::one_time()
                                   .contact({{"LastName", "Gone"}, {"Email", "gone@example.org"}})
                                   .allow_deduplication());
  REQUIRE(pi.status == 200);
  auto status = t.get("/PaymentIntent/" + pi.json["Id"].get<std::string>());
  CHECK(status.json["Payer"]["Contact"]["Id"] != id);
  CHECK(t.count("Contact") == before + 1);
}
