// The REST data API's sObject collections (composite/sobjects): save results
// per record, allOrNone rolling everything back, the 200-record limit.
#include <catch2/catch.hpp>

#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

const std::string kCollection = "/services/data/v59.0/composite/sobjects";

json contact(const std::string& last_name) {
  return {{"attributes", {{"type", "Contact"}}}, {"LastName", last_name}};
}

}  // namespace

TEST_CASE("data API: composite create, update and delete with save results",
          "[http][data][composite]") {
  TestOrg t(fixture("default.yaml"));
  const size_t before = t.count("Contact");
  auto created =
      t.post(kCollection, {{"allOrNone", false},
                           {"records",
                            {contact("One"),
                             contact("Two"),
                             {{"attributes", {{"type", "Contact"}}}, {"Salutation", "Sir"}}}}});
  INFO(created.body);
  REQUIRE(created.status == 200);
  REQUIRE(created.json.size() == 3);
  CHECK(created.json[0]["success"] == true);
  CHECK(created.json[0]["errors"] == json::array());
  CHECK(created.json[1]["success"] == true);
  CHECK(created.json[2]["success"] == false);
  CHECK(created.json[2]["id"].is_null());
  CHECK(created.json[2]["errors"][0]["statusCode"] == "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST");
  CHECK(created.json[2]["errors"][0]["fields"] == json::array({"Salutation"}));
  CHECK(t.count("Contact") == before + 2);
  const std::string one = created.json[0]["id"], two = created.json[1]["id"];

  auto updated =
      t.send("PATCH", kCollection,
             json{{"records",
                   {{{"attributes", {{"type", "Contact"}}}, {"id", one}, {"FirstName", "A"}},
                    {{"attributes", {{"type", "Contact"}}}, {"FirstName", "B"}}}}}
                 .dump());
  INFO(updated.body);
  REQUIRE(updated.status == 200);
  CHECK(updated.json[0] == json{{"id", one}, {"success", true}, {"errors", json::array()}});
  CHECK(updated.json[1]["errors"][0]["statusCode"] == "MISSING_ARGUMENT");
  CHECK(t.get("/services/data/v59.0/sobjects/Contact/" + one).json["FirstName"] == "A");

  auto removed =
      t.send("DELETE", kCollection + "?ids=" + one + "," + two.substr(0, 15) + ",bad", "");
  INFO(removed.body);
  REQUIRE(removed.status == 200);
  CHECK(removed.json[0]["success"] == true);
  CHECK(removed.json[1]["success"] == true);
  CHECK(removed.json[1]["id"] == two);
  CHECK(removed.json[2]["errors"][0]["statusCode"] == "MALFORMED_ID");
  CHECK(t.get("/services/data/v59.0/sobjects/Contact/" + one).status == 404);
}

TEST_CASE("data API: allOrNone rolls every record back when one fails", "[http][data][composite]") {
  TestOrg t(fixture("default.yaml"));
  const size_t before = t.count("Contact");
  auto r = t.post(kCollection,
                  {{"allOrNone", true},
                   {"records", {contact("One"), contact(std::string(81, 'x')), contact("Three")}}});
  INFO(r.body);
  REQUIRE(r.status == 200);
  CHECK(t.count("Contact") == before);
  CHECK(r.json[1]["errors"][0]["statusCode"] == "STRING_TOO_LONG");
  for (size_t i : {0u, 2u}) {
    CHECK(r.json[i]["success"] == false);
    CHECK(r.json[i]["id"].is_null());
    CHECK(r.json[i]["errors"][0]["statusCode"] == "ALL_OR_NONE_OPERATION_ROLLED_BACK");
  }

  // A delete with allOrNone: one unknown id keeps every record.
  auto kept = t.post(kCollection, {{"records", {contact("Kept")}}});
  const std::string id = kept.json[0]["id"];
  auto removed = t.send(
      "DELETE", kCollection + "?allOrNone=true&ids=" + id + "," + id.substr(0, 12) + "999", "");
  INFO(removed.body);
  CHECK(removed.json[0]["errors"][0]["statusCode"] == "ALL_OR_NONE_OPERATION_ROLLED_BACK");
  CHECK(removed.json[1]["errors"][0]["statusCode"] == "NOT_FOUND");
  CHECK(t.get("/services/data/v59.0/sobjects/Contact/" + id).status == 200);
}

TEST_CASE("data API: a collection of more than 200 records, or none, is refused",
          "[http][data][composite]") {
  TestOrg t(fixture("default.yaml"));
  json records = json::array();
  for (int i = 0; i < 201; ++i) records.push_back(contact("N"));
  auto big = t.post(kCollection, {{"records", records}});
  CHECK(big.status == 400);
  CHECK(big.json[0]["errorCode"] == "EXCEEDED_ID_LIMIT");
  auto none = t.post(kCollection, json::object());
  CHECK(none.status == 400);
  CHECK(none.json[0]["errorCode"] == "JSON_PARSER_ERROR");
  auto no_ids = t.send("DELETE", kCollection, "");
  CHECK(no_ids.status == 400);
  auto no_type = t.post(kCollection, {{"records", {{{"LastName", "X"}}}}});
  CHECK(no_type.json[0]["errors"][0]["statusCode"] == "INVALID_TYPE");
}
