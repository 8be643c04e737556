// The server's own behaviour: informational endpoints, authentication, 404,
// 405, non-JSON bodies, the admin API and logging-independent plumbing.
#include <catch2/catch.hpp>

#include "testing/intent_body.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {
EmbeddedOptions manual_clock_options(std::shared_ptr<ManualClock> clock) {
  EmbeddedOptions o;
  o.deps.base_clock = std::move(clock);
  return o;
}
}  // namespace

TEST_CASE("GET /PaymentMethods reflects the default fixture", "[http][info]") {
  TestOrg t(fixture("default.yaml"));
  auto r = t.get("/PaymentMethods");
  REQUIRE(r.status == 200);
  CHECK(r.headers.find("Content-Type")->second.rfind("application/json", 0) == 0);
  const auto& methods = r.json.at("PaymentMethods");
  REQUIRE(methods.size() == 4);
  CHECK(methods[0]["Name"] == "CreditCard");
  const auto& stripe = methods[0]["Processors"][0];
  CHECK(stripe["Name"] == "Stripe");
  CHECK(stripe["IsDefault"] == true);
  CHECK(stripe["InitialPaymentonRecurring"] == "Required");
  CHECK(stripe["RequiresPayerAction"] == true);
  const json expected1 =
      json::parse(R"([{"Name":"Online","IsDefault":true},{"Name":"Telephone","IsDefault":false}])");
  CHECK(stripe["Targets"] == expected1);
  CHECK(methods[0]["Processors"][1]["IsDefault"] == false);
  CHECK(methods[1]["Name"] == "SEPA Direct Debit");
  CHECK(methods[1]["Processors"][0]["InitialPaymentonRecurring"] == "Optional");
  CHECK(methods[1]["Processors"][0]["RequiresPayerAction"] == false);
  const auto& iban = methods[1]["Processors"][0]["Parameters"][0];
  const json expected2 = json::parse(
      R"j({"Name":"IBAN","DataType":"String","Required":true,"Description":"The payer's IBAN (ISO 13616)"})j");
  CHECK(iban == expected2);
  CHECK(methods[2]["Processors"][0]["InitialPaymentonRecurring"] == "No");
  CHECK(methods[2]["Processors"][1]["RequiredPackageActions"] ==
        json::array({"cpm_GiftAid.Declaration"}));
  CHECK(methods[3]["Processors"][0]["SupportsRecurring"] == false);
  CHECK(r.body.find("RecurringRequiresInitialPayment") == std::string::npos);
}

TEST_CASE("informational endpoints follow the fixture they were given", "[http][info]") {
  TestOrg t(fixture("nonprofit.yaml"));
  auto sc = t.get("/SourceConnector");
  REQUIRE(sc.status == 200);
  const json expected3 = json::parse(R"({"SourceConnectors":[{"Name":"npsp_RecurringDonations",
      "PrettyName":"NPSP Recurring Donations","IsDefault":true,
      "RecurringObject":"npe03__Recurring_Donation__c","Frequencies":["Weekly","Monthly","Quarterly","Yearly"]}]})");
  CHECK(sc.json == expected3);
  auto pm = t.get("/PaymentMethods");
  CHECK(pm.json["PaymentMethods"][0]["Processors"][0]["Name"] == "Authorize.Net");

  TestOrg d(fixture("default.yaml"));
  auto dsc = d.get("/SourceConnector");
  REQUIRE(dsc.json["SourceConnectors"].size() == 1);
  CHECK(dsc.json["SourceConnectors"][0]["Name"] == "cpm_Native");
  CHECK(dsc.json["SourceConnectors"][0]["Frequencies"] ==
        json::array({"Daily", "Weekly", "Monthly", "Yearly"}));
}

TEST_CASE("a change to the fixture shows in the informational endpoints", "[http][info]") {
  TestOrg t(fixture_text(R"(
extends: default.yaml
source_connectors:
  - name: acme_Native
    pretty_name: Acme recurring
    default: true
    kind: native
    recurring_object: cpm__Recurring_Payment__c
    frequencies: [Monthly]
packages:
  - name: cpm_GiftAid
    actions:
      - name: Declaration
  - name: acme_Receipts
    description: Receipts
    actions:
      - name: Send
        description: Sends one
        parameters:
          - {name: Email, type: Email, required: true, description: Where to}
)"));
  auto sc = t.get("/SourceConnector");
  CHECK(sc.json["SourceConnectors"][0]["Name"] == "acme_Native");
  CHECK(sc.json["SourceConnectors"][0]["Frequencies"] == json::array({"Monthly"}));
  auto pa = t.get("/PackageActions");
  REQUIRE(pa.status == 200);
  const json expected4 =
      json::parse(R"({"Packages":[{"Name":"acme_Receipts","Description":"Receipts","Actions":[
      {"Name":"Send","Description":"Sends one","Parameters":[
        {"Name":"Email","DataType":"Email","Required":true,"Description":"Where to"}]}]}]})");
  pa.json["Packages"].erase(0);
  CHECK(pa.json == expected4);
}

TEST_CASE("GET /PackageActions lists the default org's packages", "[http][info]") {
  TestOrg t(fixture("default.yaml"));
  auto r = t.get("/PackageActions");
  REQUIRE(r.status == 200);
  REQUIRE(r.json["Packages"].size() == 2);
  const auto& decl = r.json["Packages"][0]["Actions"][0];
  CHECK(r.json["Packages"][0]["Name"] == "cpm_GiftAid");
  CHECK(decl["Name"] == "Declaration");
  const json expected5 = json::parse(R"({"Name":"DeclarationDate","DataType":"Date","Required":true,
      "Description":"Date the donor made the declaration"})");
  CHECK(decl["Parameters"][0] == expected5);
  CHECK(decl["Parameters"].back()["Values"] ==
        json::array({"Online", "Paper", "Verbal", "Email", "SMS"}));
}

TEST_CASE("API calls without a valid bearer token get 401 INVALID_SESSION_ID", "[http][auth]") {
  auto clock = std::make_shared<ManualClock>(*parse_iso8601("2027-01-31T09:00:00Z"));
  TestOrg t(fixture("default.yaml"), manual_clock_options(clock));
  const json expected =
      json::parse(R"([{"message":"Session expired or invalid","errorCode":"INVALID_SESSION_ID"}])");

  auto none = t.get("/PaymentMethods", false);
  CHECK(none.status == 401);
  CHECK(none.json == expected);

  httplib::Headers bogus{{"Authorization", "Bearer 00D7Q00000LoCaL!not-a-token"}};
  auto unknown = t.client().Get("/services/apexrest/cpm/v2/PaymentMethods", bogus);
  CHECK(unknown->status == 401);
  CHECK(json::parse(unknown->body) == expected);

  httplib::Headers basic{{"Authorization", "Basic bG9jYWwtY2xpZW50OmxvY2FsLXNlY3JldA=="}};
  CHECK(t.client().Get("/services/apexrest/cpm/v2/PaymentMethods", basic)->status == 401);

  // Even an unknown path answers 401 first, as the platform does.
  CHECK(t.get("/NoSuchThing", false).status == 401);

  std::string token = t.token();
  CHECK(t.get("/PaymentMethods").status == 200);
  // The token lives 2 hours on the org clock (fixture auth.token_lifetime).
  clock->advance(std::chrono::minutes(119));
  CHECK(t.get("/PaymentMethods").status == 200);
  clock->advance(std::chrono::minutes(2));
  auto expired = t.get("/PaymentMethods");
  CHECK(expired.status == 401);
  CHECK(expired.json == expected);
}

TEST_CASE("the admin clock expires tokens without waiting", "[http][auth][admin]") {
  TestOrg t(fixture("default.yaml"));
  CHECK(t.get("/PaymentMethods").status == 200);
  t.advance_clock("2h");
  CHECK(t.get("/PaymentMethods").status == 401);
}

TEST_CASE("a revoked token is refused", "[http][auth]") {
  TestOrg t(fixture("default.yaml"));
  std::string token = t.token();
  CHECK(t.get("/PaymentMethods").status == 200);
  auto r = t.client().Post("/services/oauth2/revoke", httplib::Params{{"token", token}});
  REQUIRE(r->status == 200);
  CHECK(t.get("/PaymentMethods").status == 401);
}

TEST_CASE("unknown paths get 404, wrong methods 405, both as JSON", "[http]") {
  TestOrg t(fixture("default.yaml"));
  auto nf = t.get("/NoSuchThing");
  CHECK(nf.status == 404);
  const json expected6 =
      json::parse(R"([{"message":"Could not find a match for URL","errorCode":"NOT_FOUND"}])");
  CHECK(nf.json == expected6);
  auto put = t.send("PUT", "/PaymentMethods", "{}");
  CHECK(put.status == 405);
  CHECK(put.json[0]["errorCode"] == "METHOD_NOT_ALLOWED");
  CHECK(put.json[0]["message"] == "HTTP Method 'PUT' not allowed. Allowed are GET, HEAD, OPTIONS");
  auto allow = put.headers.find("Allow");
  REQUIRE(allow != put.headers.end());
  CHECK(allow->second == "GET, HEAD, OPTIONS");
  auto del = t.send("DELETE", "/PaymentIntent", "");
  CHECK(del.status == 405);
  CHECK(del.json[0]["message"] == "HTTP Method 'DELETE' not allowed. Allowed are POST, OPTIONS");
  auto outside = t.client().Get("/favicon.ico");
  CHECK(outside->status == 404);
  CHECK(json::parse(outside->body)[0]["errorCode"] == "NOT_FOUND");
}

TEST_CASE("a body that is not JSON gets 400 with the Errors body", "[http]") {
  TestOrg t(fixture("default.yaml"));
  auto r = t.post_raw("/PaymentIntent", "{\"SuccessURL\": ");
  CHECK(r.status == 400);
  REQUIRE(r.json.contains("Errors"));
  CHECK(code_of(r) == "010");
  CHECK(message_of(r).find("not valid JSON") != std::string::npos);
  CHECK(t.post_raw("/__admin/clock", "nope", false).status == 400);
}

TEST_CASE("admin API: health, clock, records, reset", "[http][admin]") {
  TestOrg t(fixture("default.yaml"));
  auto h = t.get("/__admin/health", false);
  REQUIRE(h.status == 200);
  CHECK(h.json["status"] == "ok");
  CHECK(h.json["org"] == "Local Fake Org");
  CHECK(h.json["records"] ==
        14);  // 7 seeded, and the org's own: Organization, User, Profile, RecordTypes
  CHECK(h.json["api_base_path"] == "/services/apexrest/cpm/v2");  // a runner's --target follows it

  auto set = t.post("/__admin/clock", {{"set", "2027-01-31T09:00:00Z"}}, false);
  REQUIRE(set.status == 200);
  CHECK(set.json["now"].get<std::string>().rfind("2027-01-31T09:00:0", 0) == 0);
  auto adv = t.post("/__admin/clock", {{"advance", "90m"}}, false);
  CHECK(adv.json["now"].get<std::string>().rfind("2027-01-31T10:30:0", 0) == 0);
  CHECK(
      t.get("/__admin/clock", false).json["now"].get<std::string>().rfind("2027-01-31T10:30", 0) ==
      0);
  auto bad = t.post("/__admin/clock", {{"advance", "soon"}}, false);
  CHECK(bad.status == 400);
  CHECK(message_of(bad).find("'advance' must be a duration") == 0);
  CHECK(t.post("/__admin/clock", {{"advance", "1m"}, {"set", "2027-01-01T00:00:00Z"}}, false)
            .status == 400);
  CHECK(t.post("/__admin/clock", {{"set", "2027-01-31 09:00"}}, false).status == 400);

  auto contacts = t.get("/__admin/records/Contact", false);
  REQUIRE(contacts.status == 200);
  CHECK(contacts.json["totalSize"] == 3);
  CHECK(contacts.json["records"][0]["Id"] == "0037Q00000JaneDQAR");
  CHECK(contacts.json["records"][0]["attributes"]["url"] ==
        "/services/data/v68.0/sobjects/Contact/0037Q00000JaneDQAR");
  auto jane15 = t.get("/__admin/records/Contact/0037Q00000JaneD", false);  // 15-character form
  REQUIRE(jane15.status == 200);
  CHECK(jane15.json["Email"] == "jane.doe@example.org");
  CHECK(t.get("/__admin/records/Contact/08d4901a-5552-433e-8834-5ad0ee82e293", false).json["Id"] ==
        "0037Q00000JaneDQAR");
  CHECK(t.get("/__admin/records/Contact/0037Q00000NopeXQAA", false).status >= 400);
  CHECK(t.get("/__admin/records/Nope__c", false).status == 404);
  CHECK(t.get("/__admin/records/Account/0037Q00000JaneDQAR", false).status == 404);

  // A payment intent adds records; reset takes the org back to the fixture.
  auto pi =
      t.post("/PaymentIntent", IntentBody::one_time()
                                   .contact({{"LastName", "Reset"}, {"Email", "reset@example.org"}})
                                   .amount(10));
  REQUIRE(pi.status == 200);
  CHECK(t.get("/__admin/health", false).json["records"] == 17);
  auto reset = t.post("/__admin/reset", json::object(), false);
  CHECK(reset.status == 200);
  CHECK(reset.json["records"] == 14);
  CHECK(t.get("/__admin/records/cpm__Installment__c", false).json["totalSize"] == 0);
  CHECK(t.get("/PaymentIntent/" + pi.json["Id"].get<std::string>()).status == 404);
}

TEST_CASE("admin clock: no bare numbers, nothing negative, at most 100 years, never past 9999",
          "[http][admin][clock]") {
  TestOrg t(fixture("default.yaml"));
  REQUIRE(t.post("/__admin/clock", {{"set", "2027-01-31T09:00:00Z"}}, false).status == 200);
  auto refused = [&](const json& body, const std::string& field, const std::string& says) {
    auto r = t.post("/__admin/clock", body, false);
    INFO(body.dump() << " -> " << r.body);
    CHECK(r.status == 400);
    CHECK(code_of(r) == "010");
    std::string message = message_of(r);
    CHECK(message.rfind("'" + field + "'", 0) == 0);
    CHECK(message.find(says) != std::string::npos);
  };
  refused({{"advance", "99999999999d"}}, "advance", "at most 100 years");
  refused({{"advance", "36526d"}}, "advance", "at most 100 years");
  refused({{"advance", "90"}}, "advance", "ms, s, m, h, d or w");
  refused({{"advance", "-1d"}}, "advance", "ms, s, m, h, d or w");
  // The org clock runs on from the instant set: the minute shows no move.
  CHECK(
      t.get("/__admin/clock", false).json["now"].get<std::string>().rfind("2027-01-31T09:00:", 0) ==
      0);

  REQUIRE(t.post("/__admin/clock", {{"set", "9999-12-01T00:00:00Z"}}, false).status == 200);
  refused({{"advance", "31d"}}, "advance", "no later than 9999-12-31T23:59:59Z");
  refused({{"set", "9999-12-31T23:59:59-01:00"}}, "set", "no later than 9999-12-31T23:59:59Z");
  CHECK(
      t.get("/__admin/clock", false).json["now"].get<std::string>().rfind("9999-12-01T00:00:", 0) ==
      0);
  auto last = t.post("/__admin/clock", {{"set", "9999-12-31T23:59:59Z"}}, false);
  CHECK(last.status == 200);
  CHECK(last.json["now"].get<std::string>().rfind("9999-12-31T23:59:59", 0) == 0);
}
