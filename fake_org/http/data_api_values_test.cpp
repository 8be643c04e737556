// The values a REST data API write takes, as the platform takes them: extra
// decimals rounded, numbers beyond their field refused, lengths in
// characters, "" as null, date-times in the API's own output form, and one
// email rule shared with the admin API and the payment API. A refused write
// answers the platform's error list and stores nothing.
#include <catch2/catch.hpp>

#include "testing/intent_body.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

const std::string kContactPath = kDataApi + "/sobjects/Contact";

OrgConfig values_org() {
  return fixture_text(R"(extends: default.yaml
objects:
  Contact:
    fields:
      Last_Seen__c: datetime
      Visits__c: {type: number, precision: 18, scale: 0}
)");
}

std::string created(TestOrg& t, const std::string& body) {
  auto r = t.post_raw(kContactPath, body);
  INFO(body << " -> " << r.body);
  REQUIRE(r.status == 201);
  return r.json["id"].get<std::string>();
}

json read(TestOrg& t, const std::string& id) {
  auto r = t.get(kContactPath + "/" + id);
  INFO(r.body);
  REQUIRE(r.status == 200);
  return r.json;
}

// A refused create: 400, the platform's error list, nothing stored.
json refused(TestOrg& t, const std::string& body) {
  const size_t before = t.count("Contact");
  auto r = t.post_raw(kContactPath, body);
  INFO(body << " -> " << r.body);
  CHECK(r.status == 400);
  CHECK(t.count("Contact") == before);
  REQUIRE(r.json.is_array());
  return r.json;
}

json one_error(const std::string& message, const std::string& code, const std::string& field) {
  return json::array({{{"message", message}, {"errorCode", code}, {"fields", {field}}}});
}

}  // namespace

TEST_CASE("data API values: extra decimals round to the field's scale", "[http][data][values]") {
  TestOrg t(values_org());
  // A JavaScript client's 3 * 19.99.
  std::string id = created(t, R"({"LastName": "Round", "Lifetime_Giving__c": 59.97000000000001})");
  CHECK(read(t, id)["Lifetime_Giving__c"] == 59.97);
  auto patched = t.send("PATCH", kContactPath + "/" + id, R"({"Lifetime_Giving__c": "12.345"})");
  CHECK(patched.status == 204);
  CHECK(read(t, id)["Lifetime_Giving__c"] == 12.35);
  patched = t.send("PATCH", kContactPath + "/" + id, R"({"Visits__c": 2.5})");
  CHECK(patched.status == 204);
  CHECK(read(t, id)["Visits__c"] == 3);
}

TEST_CASE("data API values: a number beyond its field is NUMBER_OUTSIDE_VALID_RANGE",
          "[http][data][values]") {
  TestOrg t(values_org());
  CHECK(refused(t, R"({"LastName": "X", "Lifetime_Giving__c": 100000000000000})") ==
        one_error("Lifetime Giving: value outside of valid range on numeric field: "
                  "100000000000000",
                  "NUMBER_OUTSIDE_VALID_RANGE", "Lifetime_Giving__c"));
  CHECK(refused(t, R"({"LastName": "X", "Visits__c": 3000000000})") ==
        one_error("Visits: value outside of valid range on numeric field: 3000000000",
                  "NUMBER_OUTSIDE_VALID_RANGE", "Visits__c"));
  std::string id = created(t, R"({"LastName": "Kept", "Visits__c": 2147483647})");
  auto patched = t.send("PATCH", kContactPath + "/" + id, R"({"Visits__c": -3000000000})");
  CHECK(patched.status == 400);
  CHECK(data_error_code(patched) == "NUMBER_OUTSIDE_VALID_RANGE");
  CHECK(read(t, id)["Visits__c"] == 2147483647);
}

TEST_CASE("data API values: lengths count characters, not UTF-8 bytes", "[http][data][values]") {
  TestOrg t(values_org());
  std::string e41;
  for (int i = 0; i < 41; ++i) e41 += "\xC3\xA9";  // é: 2 bytes, 1 character
  std::string id = created(t, json{{"LastName", e41 + e41.substr(0, 78)}}.dump());
  CHECK(read(t, id)["LastName"] == e41 + e41.substr(0, 78));  // 80 characters, 160 bytes
  std::string e81 = e41 + e41.substr(0, 80);
  CHECK(refused(t, json{{"LastName", e81}}.dump()) ==
        one_error("LastName: data value too large: " + e81 + " (max length=80)", "STRING_TOO_LONG",
                  "LastName"));
}

TEST_CASE("data API values: \"\" is null and fills no required field", "[http][data][values]") {
  TestOrg t(values_org());
  CHECK(refused(t, R"({"LastName": "", "FirstName": "Grace"})") ==
        one_error("Required fields are missing: [LastName]", "REQUIRED_FIELD_MISSING", "LastName"));
  std::string id = created(t, R"({"LastName": "Hopper", "FirstName": "Grace"})");
  auto cleared = t.send("PATCH", kContactPath + "/" + id, R"({"LastName": ""})");
  CHECK(cleared.status == 400);
  CHECK(data_error_code(cleared) == "REQUIRED_FIELD_MISSING");
  CHECK(read(t, id)["LastName"] == "Hopper");
  auto first = t.send("PATCH", kContactPath + "/" + id, R"({"FirstName": ""})");
  CHECK(first.status == 204);
  CHECK(read(t, id)["FirstName"].is_null());
}

TEST_CASE("data API values: a date-time read back is written back as it was",
          "[http][data][values]") {
  TestOrg t(values_org());
  std::string id =
      created(t, R"({"LastName": "Seen", "Last_Seen__c": "2027-01-05T08:11:12.123+0000",
             "Birthdate": "1906-12-09"})");
  json record = read(t, id);
  CHECK(record["Last_Seen__c"] == "2027-01-05T08:11:12.123+0000");
  CHECK(record["Birthdate"] == "1906-12-09");

  // Read, modify, write: the record's own values go back unchanged.
  json back = {{"LastName", "Seen again"},
               {"Last_Seen__c", record["Last_Seen__c"]},
               {"Birthdate", record["Birthdate"]}};
  auto rmw = t.send("PATCH", kContactPath + "/" + id, back.dump());
  INFO(rmw.body);
  CHECK(rmw.status == 204);
  CHECK(read(t, id)["Last_Seen__c"] == "2027-01-05T08:11:12.123+0000");

  const std::pair<const char*, const char*> forms[] = {
      {"2027-01-05T08:11:12Z", "2027-01-05T08:11:12.000+0000"},
      {"2027-01-05T08:11:12.5Z", "2027-01-05T08:11:12.500+0000"},
      {"2027-01-05T08:11:12+00:00", "2027-01-05T08:11:12.000+0000"},
      {"2027-01-05T09:11:12.123+01:00", "2027-01-05T08:11:12.123+0000"},
      {"2027-01-05T03:11:12.123-0500", "2027-01-05T08:11:12.123+0000"},
  };
  for (const auto& [sent, shown] : forms) {
    INFO(sent);
    auto r = t.send("PATCH", kContactPath + "/" + id, json{{"Last_Seen__c", sent}}.dump());
    CHECK(r.status == 204);
    CHECK(read(t, id)["Last_Seen__c"] == shown);
  }
  auto bad = t.send("PATCH", kContactPath + "/" + id, R"({"Last_Seen__c": "2027-01-05T08:11"})");
  CHECK(bad.status == 400);
  CHECK(data_error_code(bad) == "INVALID_TYPE_ON_FIELD_IN_RECORD");
  CHECK(read(t, id)["Last_Seen__c"] == "2027-01-05T08:11:12.123+0000");
}

TEST_CASE("data API values: the data, admin and payment APIs share one email rule",
          "[http][data][values]") {
  TestOrg t(values_org());
  auto through_data = [&](const std::string& address) {
    return t.post(kContactPath, {{"LastName", "Mail"}, {"Email", address}});
  };
  auto through_admin = [&](const std::string& address) {
    return t.post("/__admin/records/Contact", {{"LastName", "Mail"}, {"Email", address}}, false);
  };
  auto through_payments = [&](const std::string& address) {
    return t.post("/PaymentIntent",
                  IntentBody::one_time().contact({{"LastName", "Mail"}, {"Email", address}}));
  };
  for (const char* good : {"grace.hopper@example.org", "a..a@test.jp", "o'brien@example.ie"}) {
    INFO(good);
    CHECK(through_data(good).status == 201);
    CHECK(through_admin(good).status == 201);
    CHECK(through_payments(good).status == 200);
  }
  for (const char* bad :
       {"a@b", "\xF0\x9F\x98\x80@example.org", "nobody", ".a@test.jp", "ada@example.c"}) {
    INFO(bad);
    const size_t before = t.count("Contact");
    auto data = through_data(bad);
    CHECK(data.status == 400);
    CHECK(data.json == one_error(std::string("Email: invalid email address: ") + bad,
                                 "INVALID_EMAIL_ADDRESS", "Email"));
    auto admin = through_admin(bad);
    CHECK(admin.status == 400);
    CHECK(code_of(admin) == "010");
    auto payment = through_payments(bad);
    CHECK(payment.status == 422);
    CHECK(code_of(payment) == "200");
    CHECK(message_of(payment).find("must be an email address") != std::string::npos);
    CHECK(t.count("Contact") == before);
  }
}

TEST_CASE("data API values: a refused record rolls an allOrNone collection back",
          "[http][data][values]") {
  TestOrg t(values_org());
  const size_t before = t.count("Contact");
  auto contact = [](json fields) {
    fields["attributes"] = {{"type", "Contact"}};
    return fields;
  };
  auto r = t.post(kDataApi + "/composite/sobjects",
                  {{"allOrNone", true},
                   {"records",
                    {contact({{"LastName", "One"}, {"Lifetime_Giving__c", 1.005}}),
                     contact({{"LastName", "Two"}, {"Visits__c", 3000000000LL}}),
                     contact({{"LastName", ""}})}}});
  INFO(r.body);
  REQUIRE(r.status == 200);
  CHECK(t.count("Contact") == before);
  CHECK(r.json[0]["errors"][0]["statusCode"] == "ALL_OR_NONE_OPERATION_ROLLED_BACK");
  CHECK(r.json[1]["errors"][0]["statusCode"] == "NUMBER_OUTSIDE_VALID_RANGE");
  CHECK(r.json[1]["errors"][0]["fields"] == json::array({"Visits__c"}));
  CHECK(r.json[2]["errors"][0]["statusCode"] == "REQUIRED_FIELD_MISSING");
}
