// POST /PaymentIntent (new one-time, pay existing installment), reads,
// errors with their HTTP status, idempotency and atomicity, over real HTTP.
#include <catch2/catch.hpp>
#include <optional>
#include <set>
#include <thread>

#include "test_support.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

json one_time(
    json payer = json::parse(R"({"Contact":{"CrmFields":{"FirstName":"Ada","LastName":"Lovelace",
                                          "Email":"ada@example.org"}}})"),
    json amount = 25) {
  return {{"SuccessURL", "https://shop.example/thanks"},
          {"FailureURL", "https://shop.example/sorry"},
          {"Origin", "Donation form A"},
          {"Payer", payer},
          {"OneTime", {{"Amount", amount}}},
          {"PaymentMethod", {{"Name", "CreditCard"}}}};
}

json sepa(json params = json::parse(
              R"({"IBAN":"DE89370400440532013000","AccountHolderName":"Ada Lovelace"})")) {
  json b = one_time();
  b["PaymentMethod"] = {{"Name", "SEPA Direct Debit"}, {"Parameters", params}};
  return b;
}

std::string code_of(const Response& r) {
  return r.json["Errors"][0]["error_code"].get<std::string>();
}
std::string message_of(const Response& r) {
  return r.json["Errors"][0]["error_message"].get<std::string>();
}
size_t count(TestOrg& t, const std::string& object) {
  return t.get("/__admin/records/" + object, false).json["totalSize"].get<size_t>();
}

}  // namespace

TEST_CASE("a new one-time card payment creates contact, installment and inbound report",
          "[http][intent]") {
  TestOrg t(fixture("default.yaml"));
  auto r = t.post("/PaymentIntent", one_time());
  REQUIRE(r.status == 200);
  std::string id = r.json["Id"];
  CHECK(id.rfind("pi_", 0) == 0);
  CHECK(id.size() == 27);
  const json expected1 =
      json::parse(R"({"Name":"CreditCard","Processor":"Stripe","Target":"Online"})");
  CHECK(r.json["PaymentMethod"] == expected1);
  const json expected2 =
      json::parse(R"({"SourceConnector":"cpm_Native","ProcessingType":"Default"})");
  CHECK(r.json["Settings"] == expected2);
  std::string redirect = r.json["RedirectURL"];
  CHECK(redirect.rfind(
            "http://127.0.0.1:" + std::to_string(t.embedded().port()) + "/psp/checkout/cs_", 0) ==
        0);
  std::string session = redirect.substr(redirect.rfind('/') + 1);
  CHECK(t.org().psp_sessions().get(session)->payment_intent_id == id);

  auto pi = t.get("/PaymentIntent/" + id);
  REQUIRE(pi.status == 200);
  CHECK(pi.json["Id"] == id);
  CHECK(pi.json["Status"] == "Matched");
  CHECK(pi.json["Payer"]["Contact"]["Type"] == "Contact");
  CHECK(pi.json["Payer"]["Contact"]["Name"] == "Ada Lovelace");
  CHECK(pi.json["OneTime"]["Type"] == "cpm__Installment__c");
  CHECK(pi.json["OneTime"]["Status"] == "Outstanding");
  CHECK_FALSE(pi.json.contains("Recurring"));
  std::string inst_id = pi.json["OneTime"]["Id"];
  CHECK(pi.json["OneTime"]["Url"] ==
        "/services/data/v59.0/sobjects/cpm__Installment__c/" + inst_id);

  auto inst = t.get("/Installment/" + inst_id);
  REQUIRE(inst.status == 200);
  CHECK(inst.json["Amount"] == 25);
  CHECK(inst.json["AmountOpen"] == 25);
  CHECK(inst.json["CurrencyISOCode"] == "EUR");
  CHECK(inst.json["Status"] == "Outstanding");
  CHECK(inst.json["PaymentMethod"] == "CreditCard");
  CHECK(inst.json["PaymentProcessor"] == "Stripe");
  CHECK(inst.json["Target"] == "Online");
  CHECK(inst.json["PaymentIntentId"] == id);
  CHECK(inst.json["PayUrl"] == redirect);
  CHECK(inst.json["Payments"] == json::array());
  CHECK(inst.json["RecordTypeName"] == "Master");
  // By GUID and by the 15-character id as well.
  CHECK(t.get("/Installment/" + inst.json["GUID"].get<std::string>()).json["Id"] == inst_id);
  CHECK(t.get("/Installment/" + inst_id.substr(0, 15)).json["Id"] == inst_id);

  auto report = t.get("/__admin/records/cpm__Inbound_Report__c", false).json["records"][0];
  CHECK(report["cpm__Payment_Intent_Id__c"] == id);
  CHECK(report["cpm__Status__c"] == "Matched");
  CHECK(report["cpm__Origin__c"] == "Donation form A");
  CHECK(report["cpm__Installment__c"] == inst_id);
  CHECK(json::parse(report["cpm__Raw_Request__c"].get<std::string>()) == one_time());
}

TEST_CASE("an inline direct debit has no RedirectURL and echoes its parameters", "[http][intent]") {
  TestOrg t(fixture("default.yaml"));
  auto r = t.post("/PaymentIntent", sepa());
  REQUIRE(r.status == 200);
  CHECK_FALSE(r.json.contains("RedirectURL"));
  const json expected3 = json::parse(R"({"Name":"SEPA Direct Debit","Processor":"GoCardless",
      "Target":"Core","Parameters":{"IBAN":"DE89370400440532013000","AccountHolderName":"Ada Lovelace"}})");
  CHECK(r.json["PaymentMethod"] == expected3);
}

TEST_CASE("amounts: numeric strings, currencies and their precision", "[http][intent]") {
  TestOrg t(fixture("default.yaml"));
  auto s = t.post("/PaymentIntent", one_time(one_time()["Payer"], "19.99"));
  REQUIRE(s.status == 200);
  auto pi = t.get("/PaymentIntent/" + s.json["Id"].get<std::string>());
  CHECK(t.get("/Installment/" + pi.json["OneTime"]["Id"].get<std::string>()).json["Amount"] ==
        19.99);

  json jpy = one_time();
  jpy["OneTime"] = {{"Amount", 1500}, {"CurrencyISOCode", "JPY"}};
  CHECK(t.post("/PaymentIntent", jpy).status == 200);
  jpy["OneTime"]["Amount"] = 1500.5;
  auto bad_jpy = t.post("/PaymentIntent", jpy);
  CHECK(bad_jpy.status == 422);
  CHECK(message_of(bad_jpy) ==
        "OneTime.Amount '1500.5' has more decimal places than JPY allows (0)");

  for (json amount : {json(0), json(-5), json("0.00")}) {
    auto r = t.post("/PaymentIntent", one_time(one_time()["Payer"], amount));
    CHECK(r.status == 422);
    CHECK(code_of(r) == "200");
    CHECK(message_of(r).find("OneTime.Amount must be greater than zero") == 0);
  }
  json chf = one_time();
  chf["OneTime"]["CurrencyISOCode"] = "CHF";
  auto r = t.post("/PaymentIntent", chf);
  CHECK(r.status == 422);
  CHECK(message_of(r) ==
        "OneTime.CurrencyISOCode 'CHF' is not enabled in this org; enabled: EUR, USD, GBP, JPY");
  chf["OneTime"]["CurrencyISOCode"] = "ABC";
  CHECK(message_of(t.post("/PaymentIntent", chf)) ==
        "OneTime.CurrencyISOCode 'ABC' is not an ISO 4217 currency code");
}

TEST_CASE("missing core parameters are 010 with HTTP 400", "[http][intent][errors]") {
  TestOrg t(fixture("default.yaml"));
  json b = one_time();
  b.erase("SuccessURL");
  auto r = t.post("/PaymentIntent", b);
  CHECK(r.status == 400);
  CHECK(code_of(r) == "010");
  CHECK(message_of(r) == "SuccessURL is required (where the payer goes after success)");

  json no_payer = one_time();
  no_payer.erase("Payer");
  CHECK(message_of(t.post("/PaymentIntent", no_payer)) ==
        "A new payment needs a Payer with a Contact or an Account (spec 2.2)");
  json nothing = {{"SuccessURL", "https://a.example/"}, {"FailureURL", "https://a.example/"}};
  auto none = t.post("/PaymentIntent", nothing);
  CHECK(none.status == 400);
  CHECK(message_of(none).find("The request matches no operation") == 0);

  json both = one_time();
  both["OneTime"]["Id"] = "a0F5J0000000001AAA";
  both.erase("Payer");
  auto mixed = t.post("/PaymentIntent", both);
  CHECK(mixed.status == 400);
  CHECK(message_of(mixed).find("OneTime.Id pays the open amount") == 0);

  json several = one_time();
  several.erase("SuccessURL");
  several.erase("FailureURL");
  auto two = t.post("/PaymentIntent", several);
  CHECK(two.json["Errors"].size() == 2);
}

TEST_CASE("processor parameters missing are 011, source connector parameters 012",
          "[http][intent][errors]") {
  TestOrg t(fixture("default.yaml"));
  auto r = t.post("/PaymentIntent", sepa(json::parse(R"({"IBAN":"DE89370400440532013000"})")));
  CHECK(r.status == 400);
  CHECK(code_of(r) == "011");
  CHECK(message_of(r) ==
        "PaymentMethod.Parameters.AccountHolderName is required by processor GoCardless for "
        "SEPA Direct Debit: Name of the account holder");

  TestOrg c(fixture_text(R"(
extends: default.yaml
source_connectors:
  - name: cpm_Native
    pretty_name: Native with a required parameter
    default: true
    kind: native
    recurring_object: cpm__Recurring_Payment__c
    frequencies: [Monthly]
    parameters:
      - {name: FundCode, type: String, required: true, description: Fund the gift is booked to}
)"));
  auto m = c.post("/PaymentIntent", one_time());
  CHECK(m.status == 400);
  CHECK(code_of(m) == "012");
  CHECK(message_of(m).find("Settings.SourceConnectorParameters.FundCode is required by source "
                           "connector cpm_Native") == 0);
  json ok = one_time();
  ok["Settings"] = {{"SourceConnectorParameters", {{"FundCode", "GEN"}}}};
  CHECK(c.post("/PaymentIntent", ok).status == 200);
}

TEST_CASE("objects without a default are 998", "[http][intent][errors]") {
  TestOrg t(fixture_text(R"(
extends: default.yaml
payment_methods:
  - name: CreditCard
    processors:
      - name: Stripe
        hosted_page: true
        targets: [{name: Online}, {name: Telephone}]
      - name: Adyen
        default: true
        hosted_page: true
        targets: [{name: Ecommerce}, {name: MOTO}]
)"));
  json b = one_time();
  b["PaymentMethod"]["Processor"] = "Stripe";
  auto r = t.post("/PaymentIntent", b);
  CHECK(r.status == 400);
  CHECK(code_of(r) == "998");
  CHECK(message_of(r) ==
        "PaymentMethod.Target is not given and Stripe has no default target for CreditCard; "
        "name one of: Online, Telephone");
  b["PaymentMethod"]["Target"] = "Telephone";
  auto ok = t.post("/PaymentIntent", b);
  REQUIRE(ok.status == 200);
  CHECK(ok.json["PaymentMethod"]["Target"] == "Telephone");
}

TEST_CASE("invalid data is 200 with HTTP 422 and names the field", "[http][intent][errors]") {
  TestOrg t(fixture("default.yaml"));
  json b = one_time();
  b["PaymentMethod"]["Name"] = "Cheque";
  auto r = t.post("/PaymentIntent", b);
  CHECK(r.status == 422);
  CHECK(code_of(r) == "200");
  CHECK(message_of(r) ==
        "PaymentMethod.Name 'Cheque' is not an activated payment method of this org; available: "
        "CreditCard, SEPA Direct Debit, Bacs Direct Debit, PayPal");
  b = one_time();
  b["PaymentMethod"]["Processor"] = "Braintree";
  CHECK(message_of(t.post("/PaymentIntent", b)) ==
        "PaymentMethod.Processor 'Braintree' is not configured for CreditCard; available: Stripe, "
        "Adyen");
  b = one_time();
  b["SuccessURL"] = "/relative";
  CHECK(message_of(t.post("/PaymentIntent", b)) ==
        "SuccessURL '/relative' is not an absolute http(s) URL");
  b = one_time();
  b["Settings"] = {{"ProcessingType", "Nope"}};
  CHECK(message_of(t.post("/PaymentIntent", b))
            .find("Settings.ProcessingType 'Nope' is not an inbound report subtype") == 0);
  b = one_time();
  b["CampaignId"] = "spring";
  CHECK(message_of(t.post("/PaymentIntent", b)) ==
        "CampaignId 'spring' is not a record id (15 or 18 letters and digits)");
  b = one_time();
  b["SucessURL"] = "typo";
  CHECK(message_of(t.post("/PaymentIntent", b)).find("Unknown field 'SucessURL'") == 0);
  b = one_time(json::parse(R"({"Contact":{"CrmFields":{"LastName":"X","Email":"not-an-email"}}})"));
  auto email = t.post("/PaymentIntent", b);
  CHECK(email.status == 422);
  CHECK(message_of(email).find("Email") != std::string::npos);
  b = one_time();
  b["OneTime"]["CrmFields"] = {{"No_Such_Field__c", 1}};
  auto unknown = t.post("/PaymentIntent", b);
  CHECK(unknown.status == 422);
  CHECK(message_of(unknown).find("No_Such_Field__c") != std::string::npos);
  CHECK(count(t, "Contact") == 3);  // nothing was created by any of these
}

TEST_CASE("parameters nothing reads are 200 naming what the processor or connector accepts",
          "[http][intent][errors]") {
  TestOrg t(fixture("default.yaml"));
  json b = sepa(json::parse(
      R"({"Ibann":"DE89370400440532013000","IBAN":"DE89370400440532013000","AccountHolderName":"Ada"})"));
  auto r = t.post("/PaymentIntent", b);
  CHECK(r.status == 422);
  CHECK(message_of(r) ==
        "PaymentMethod.Parameters.Ibann is not a parameter of processor GoCardless for SEPA Direct "
        "Debit; it accepts: IBAN, AccountHolderName, BIC, Street, HouseNameOrNumber, PostalCode, "
        "City, description");
  // A wrong case of an optional parameter says which name is meant.
  b = sepa(json::parse(
      R"({"IBAN":"DE89370400440532013000","AccountHolderName":"Ada","bic":"COBADEFFXXX"})"));
  CHECK(message_of(t.post("/PaymentIntent", b))
            .find("PaymentMethod.Parameters.bic is not a parameter of processor GoCardless for "
                  "SEPA Direct Debit (did you mean BIC? names are case-sensitive)") == 0);
  // A card method takes no bank account data.
  b = one_time();
  b["PaymentMethod"]["Parameters"] = {{"IBAN", "DE89370400440532013000"}};
  CHECK(message_of(t.post("/PaymentIntent", b))
            .find("PaymentMethod.Parameters.IBAN is not a parameter of processor Stripe") == 0);
  // What the fake reads beyond the declared ones passes: the house number's
  // other spelling, the mandate and profile parameters of update rule 3.
  b = sepa(json::parse(R"({"IBAN":"DE89370400440532013000","AccountHolderName":"Ada",
      "HouseNumberOrName":"1","MandateReference":"REF-1","SignatureDate":"2020-01-01"})"));
  CHECK(t.post("/PaymentIntent", b).status == 200);
  b = one_time();
  b["Settings"] = {{"SourceConnectorParameters", {{"Foo", "bar"}}}};
  auto connector = t.post("/PaymentIntent", b);
  CHECK(connector.status == 422);
  CHECK(message_of(connector) ==
        "Settings.SourceConnectorParameters.Foo is not a parameter of source connector cpm_Native; "
        "it accepts: (none)");
  CHECK(count(t, "cpm__Inbound_Report__c") == 1);
}

TEST_CASE("the fixture can map invalid data to HTTP 400", "[http][intent][errors]") {
  // Real orgs that answer 400 for invalid data break the strict contract on
  // purpose (the lenient profile accepts them), so the self-check is off here.
  EmbeddedOptions lenient;
  lenient.check_contracts = false;
  TestOrg t(fixture_text("extends: default.yaml\norg:\n  error_status: {\"200\": 400}\n"), lenient);
  auto r = t.post("/PaymentIntent", one_time(one_time()["Payer"], 0));
  CHECK(r.status == 400);
  CHECK(code_of(r) == "200");
}

TEST_CASE("CampaignId links when valid and is noted when it names no campaign", "[http][intent]") {
  TestOrg t(fixture("default.yaml"));
  json b = one_time();
  b["CampaignId"] = "7017Q00000Sprg1";  // 15-character form of a seeded campaign
  auto r = t.post("/PaymentIntent", b);
  REQUIRE(r.status == 200);
  auto inst = t.get("/__admin/records/cpm__Installment__c", false).json["records"][0];
  CHECK(inst["cpm__Campaign__c"] == "7017Q00000Sprg1QAB");

  b["CampaignId"] = "7017Q00000NoCmpQAF";
  auto unlinked = t.post("/PaymentIntent", b);
  REQUIRE(unlinked.status == 200);
  auto records = t.get("/__admin/records/cpm__Installment__c", false).json["records"];
  CHECK_FALSE(records[1].contains("cpm__Campaign__c"));
  auto report = t.get("/__admin/records/cpm__Inbound_Report__c", false).json["records"][1];
  CHECK(report["cpm__Notes__c"].get<std::string>().find(
            "CampaignId 7017Q00000NoCmpQAF names no campaign") == 0);

  // The client's notes (root CrmFields go to the inbound report) are kept,
  // the org's note follows them.
  b["CrmFields"] = {{"cpm__Notes__c", "entered by the call centre"}};
  REQUIRE(t.post("/PaymentIntent", b).status == 200);
  report = t.get("/__admin/records/cpm__Inbound_Report__c", false).json["records"][2];
  CHECK(report["cpm__Notes__c"] ==
        "entered by the call centre\nCampaignId 7017Q00000NoCmpQAF names no campaign of this org; "
        "the records were created without a campaign (spec 2.3: linked only when valid)");

  // An 18-character id whose suffix does not belong to its first 15.
  b.erase("CrmFields");
  b["CampaignId"] = "7017Q00000Sprg1QAC";
  auto bad = t.post("/PaymentIntent", b);
  CHECK(bad.status == 422);
  CHECK(message_of(bad) ==
        "CampaignId '7017Q00000Sprg1QAC' is not a record id: its last three characters are not "
        "the case-safe suffix of its first 15 (that would be 7017Q00000Sprg1QAB); was it "
        "retyped with another case?");
}

TEST_CASE("root parameters the org stores must fit their fields: 200 naming the limit",
          "[http][intent][errors]") {
  TestOrg t(fixture("default.yaml"));
  json b = one_time();
  b["Origin"] = std::string(255, 'o');  // exactly the field's length
  REQUIRE(t.post("/PaymentIntent", b).status == 200);
  auto report = t.get("/__admin/records/cpm__Inbound_Report__c", false).json["records"][0];
  CHECK(report["cpm__Origin__c"] == std::string(255, 'o'));

  b["Origin"] = std::string(256, 'o');
  auto r = t.post("/PaymentIntent", b);
  CHECK(r.status == 422);
  CHECK(code_of(r) == "200");
  CHECK(message_of(r) ==
        "Origin is stored in cpm__Inbound_Report__c.cpm__Origin__c, and the value is too long: "
        "256 characters, at most 255 allowed");

  b = one_time();
  b["IdempotencyKey"] = std::string(300, 'k');
  b["SuccessURL"] = "https://shop.example/" + std::string(1000, 'p');
  r = t.post("/PaymentIntent", b);
  CHECK(r.status == 422);
  REQUIRE(r.json["Errors"].size() == 2);
  CHECK(r.json["Errors"][0]["error_message"].get<std::string>().find(
            "IdempotencyKey is stored in cpm__Inbound_Report__c.cpm__Idempotency_Key__c") == 0);
  CHECK(r.json["Errors"][1]["error_message"].get<std::string>().find(
            "SuccessURL is stored in cpm__Inbound_Report__c.cpm__Success_URL__c, and the value is "
            "too long: 1021 characters, at most 1000") == 0);
  // Nothing was stored, and the refused key was not claimed: it runs once fixed.
  CHECK(count(t, "cpm__Inbound_Report__c") == 1);
  b["IdempotencyKey"] = std::string(255, 'k');
  b["SuccessURL"] = "https://shop.example/thanks";
  CHECK(t.post("/PaymentIntent", b).status == 200);
}

TEST_CASE("processing types send reports to Guided Review or Failed", "[http][intent]") {
  TestOrg t(fixture("default.yaml"));
  json b = one_time(one_time()["Payer"], 20000);
  b["Settings"] = {{"ProcessingType", "HighValue"}};
  auto r = t.post("/PaymentIntent", b);
  REQUIRE(r.status == 200);
  CHECK(r.json["Settings"]["ProcessingType"] == "HighValue");
  CHECK(t.get("/PaymentIntent/" + r.json["Id"].get<std::string>()).json["Status"] ==
        "Guided Review");
  b["OneTime"]["Amount"] = 50;
  CHECK(t.get("/PaymentIntent/" + t.post("/PaymentIntent", b).json["Id"].get<std::string>())
            .json["Status"] == "Matched");
  json qa = one_time(
      json::parse(R"({"Contact":{"CrmFields":{"LastName":"Q","Email":"qa@example.invalid"}}})"));
  qa["Settings"] = {{"ProcessingType", "QA"}};
  CHECK(t.get("/PaymentIntent/" + t.post("/PaymentIntent", qa).json["Id"].get<std::string>())
            .json["Status"] == "Failed");
}

TEST_CASE("deduplication: one match reuses the contact, several go to Guided Review",
          "[http][intent][dedup]") {
  TestOrg t(fixture("default.yaml"));
  json one = one_time(json::parse(R"({"AllowDeduplication":true,
      "Contact":{"CrmFields":{"LastName":"Doe","Email":"JANE.DOE@example.org "}}})"));
  auto r = t.post("/PaymentIntent", one);
  REQUIRE(r.status == 200);
  auto pi = t.get("/PaymentIntent/" + r.json["Id"].get<std::string>());
  CHECK(pi.json["Payer"]["Contact"]["Id"] == "0037Q00000JaneDQAR");
  CHECK(pi.json["Status"] == "Matched");
  CHECK(count(t, "Contact") == 3);

  json several = one_time(json::parse(R"({"AllowDeduplication":true,
      "Contact":{"CrmFields":{"LastName":"Taylor","Email":"alex.taylor@example.com"}}})"));
  auto s = t.post("/PaymentIntent", several);
  REQUIRE(s.status == 200);
  CHECK(t.get("/PaymentIntent/" + s.json["Id"].get<std::string>()).json["Status"] ==
        "Guided Review");

  json no_dedup = one_time(json::parse(
      R"({"Contact":{"CrmFields":{"LastName":"Doe","Email":"jane.doe@example.org"}}})"));
  auto n = t.post("/PaymentIntent", no_dedup);
  CHECK(t.get("/PaymentIntent/" + n.json["Id"].get<std::string>()).json["Payer"]["Contact"]["Id"] !=
        "0037Q00000JaneDQAR");
}

TEST_CASE("concurrent identical payers with deduplication create exactly one contact",
          "[http][intent][dedup]") {
  TestOrg t(fixture("default.yaml"));
  t.token();
  json b = one_time(json::parse(R"({"AllowDeduplication":true,
      "Contact":{"CrmFields":{"FirstName":"Grace","LastName":"Hopper","Email":"grace@example.org"}}})"));
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&] {
      httplib::Client c("127.0.0.1", t.embedded().port());
      auto r = c.Post("/services/apexrest/cpm/v2/PaymentIntent",
                      {{"Authorization", "Bearer " + t.token()}}, b.dump(), "application/json");
      if (r && r->status == 200) ++ok;
    });
  for (auto& th : threads) th.join();
  // Every answered request made one installment, and all of them share one new contact.
  CHECK(ok > 0);
  CHECK(count(t, "Contact") == 4);
  CHECK(count(t, "cpm__Installment__c") == static_cast<size_t>(ok.load()));
}

TEST_CASE("paying an existing installment", "[http][intent]") {
  TestOrg t(fixture("default.yaml"));
  auto first = t.post("/PaymentIntent", sepa());
  REQUIRE(first.status == 200);
  auto pi = t.get("/PaymentIntent/" + first.json["Id"].get<std::string>());
  std::string inst_id = pi.json["OneTime"]["Id"];
  std::string guid = t.get("/Installment/" + inst_id).json["GUID"];

  json pay = {{"SuccessURL", "https://shop.example/ok"},
              {"FailureURL", "https://shop.example/ko"},
              {"OneTime", {{"Id", guid}}},
              {"PaymentMethod", {{"Name", "CreditCard"}}}};
  auto r = t.post("/PaymentIntent", pay);
  REQUIRE(r.status == 200);
  CHECK(r.json.contains("RedirectURL"));
  auto paid = t.get("/PaymentIntent/" + r.json["Id"].get<std::string>());
  CHECK(paid.json["OneTime"]["Id"] == inst_id);
  CHECK(paid.json["Payer"]["Contact"]["Id"] == pi.json["Payer"]["Contact"]["Id"]);
  CHECK(t.get("/Installment/" + inst_id).json["PaymentMethod"] == "CreditCard");
  CHECK(count(t, "cpm__Installment__c") == 1);

  json unknown = pay;
  unknown["OneTime"]["Id"] = "a0F5J00000000ZZ";
  auto nf = t.post("/PaymentIntent", unknown);
  CHECK(nf.status == 404);
  CHECK(code_of(nf) == "200");
  json with_payer = pay;
  with_payer["Payer"] = one_time()["Payer"];
  CHECK(code_of(t.post("/PaymentIntent", with_payer)) == "010");
}

TEST_CASE("an inline direct debit installment paid again without PaymentMethod keeps its mandate",
          "[http][intent]") {
  // Its account is on file in the mandate: the processor's parameters (IBAN,
  // holder) are not asked again (found by the multi-connector scenarios).
  TestOrg t(fixture("default.yaml"));
  auto first = t.post("/PaymentIntent", sepa());
  REQUIRE(first.status == 200);
  std::string inst_id =
      t.get("/PaymentIntent/" + first.json["Id"].get<std::string>()).json["OneTime"]["Id"];
  auto before = t.get("/__admin/records/cpm__Installment__c/" + inst_id, false).json;
  REQUIRE_FALSE(before.value("cpm__Mandate__c", "").empty());

  json pay = {{"SuccessURL", "https://shop.example/ok"},
              {"FailureURL", "https://shop.example/ko"},
              {"OneTime", {{"Id", inst_id}}}};
  auto r = t.post("/PaymentIntent", pay);
  INFO(r.body);
  REQUIRE(r.status == 200);
  CHECK_FALSE(r.json.contains("RedirectURL"));
  CHECK(r.json["PaymentMethod"]["Name"] == "SEPA Direct Debit");
  CHECK(r.json["PaymentMethod"]["Processor"] == "GoCardless");
  auto after = t.get("/__admin/records/cpm__Installment__c/" + inst_id, false).json;
  CHECK(after["cpm__Mandate__c"] == before["cpm__Mandate__c"]);
  CHECK(after["cpm__Payment_Profile__c"] == before["cpm__Payment_Profile__c"]);
  CHECK(count(t, "cpm__Mandate__c") == 1);
}

TEST_CASE("reads: unknown ids are 404, malformed ids 400", "[http][intent]") {
  TestOrg t(fixture("default.yaml"));
  auto a = t.get("/PaymentIntent/pi_doesnotexist");
  CHECK(a.status == 404);
  CHECK(code_of(a) == "200");
  CHECK(t.get("/PaymentIntent/abc").status == 400);
  CHECK(t.get("/Installment/a0F5J00000000ZZ").status == 404);
  CHECK(t.get("/Installment/not-an-id").status == 400);
  CHECK(t.get("/Installment/0037Q00000JaneDQAR").status == 404);  // a contact, not an installment
}

TEST_CASE("idempotency: replay creates nothing, another body conflicts",
          "[http][intent][idempotency]") {
  TestOrg t(fixture("default.yaml"));
  json b = one_time();
  b["IdempotencyKey"] = "6c0e3f1a-5b1e-4c61-9e0b-2d3c4b5a6f70";
  auto first = t.post("/PaymentIntent", b);
  REQUIRE(first.status == 200);
  auto again = t.post("/PaymentIntent", b);
  REQUIRE(again.status == 200);
  CHECK(again.json == first.json);
  CHECK(again.headers.find("Idempotent-Replayed")->second == "true");
  CHECK(count(t, "cpm__Installment__c") == 1);
  b["OneTime"]["Amount"] = 26;
  auto conflict = t.post("/PaymentIntent", b);
  CHECK(conflict.status == 409);
  CHECK(code_of(conflict) == "999");
  CHECK(message_of(conflict).find("was already used with a different request body") !=
        std::string::npos);
  // A failed request keeps nothing: the key can be used after fixing the body.
  json failing = one_time(one_time()["Payer"], 0);
  failing["IdempotencyKey"] = "k-failing";
  CHECK(t.post("/PaymentIntent", failing).status == 422);
  failing["OneTime"]["Amount"] = 5;
  CHECK(t.post("/PaymentIntent", failing).status == 200);
  // Keys expire after the org's window (24h).
  t.post("/__admin/clock", {{"advance", "25h"}}, false);
  b["OneTime"]["Amount"] = 25;
  auto after = t.post("/PaymentIntent", b);
  REQUIRE(after.status == 401);  // the token expired too; a fresh one
}

TEST_CASE("concurrent requests with one idempotency key are processed once",
          "[http][intent][idempotency]") {
  TestOrg t(fixture("default.yaml"));
  std::string token = t.token();
  json b = one_time();
  b["IdempotencyKey"] = "concurrent-key";
  // Catch's assertions are not thread-safe: the threads only keep the answers.
  std::vector<std::optional<std::string>> answers(8);
  std::vector<std::thread> threads;
  for (auto& answer : answers)
    threads.emplace_back([&, slot = &answer] {
      httplib::Client c("127.0.0.1", t.embedded().port());
      auto r = c.Post("/services/apexrest/cpm/v2/PaymentIntent",
                      {{"Authorization", "Bearer " + token}}, b.dump(), "application/json");
      if (r) *slot = r->body;
    });
  for (auto& th : threads) th.join();
  std::set<std::string> ids;
  for (const auto& answer : answers) {
    REQUIRE(answer);
    ids.insert(json::parse(*answer).value("Id", "error"));
  }
  CHECK(ids.size() == 1);
  CHECK(count(t, "cpm__Installment__c") == 1);
}

TEST_CASE("a request failing late leaves no contact, account or installment",
          "[http][intent][atomic]") {
  TestOrg t(fixture("default.yaml"));
  // The payer is valid (a new contact and account would be created) but the
  // installment's CrmFields fail after the payer has been resolved.
  json b = one_time(
      json::parse(R"({"Contact":{"CrmFields":{"LastName":"Late","Email":"late@example.org"}},
      "Account":{"CrmFields":{"Name":"Late Ltd"}}})"));
  b["OneTime"]["CrmFields"] = {{"Gift_Count__c", "many"}};
  auto r = t.post("/PaymentIntent", b);
  CHECK(r.status == 422);
  CHECK(count(t, "Contact") == 3);
  CHECK(count(t, "Account") == 1);
  CHECK(count(t, "cpm__Installment__c") == 0);
  CHECK(count(t, "cpm__Inbound_Report__c") == 0);
}

TEST_CASE("person accounts: PersonEmail round trip", "[http][intent][person]") {
  TestOrg t(fixture("default.yaml"));
  json b = one_time(json::parse(R"({"Account":{"RecordTypeName":"PersonAccount","CrmFields":{
      "FirstName":"Mary","LastName":"Seacole","PersonEmail":"mary@example.org","PersonMailingCity":"Kingston",
      "BillingStreet":"1 Harbour St"}}})"));
  auto r = t.post("/PaymentIntent", b);
  REQUIRE(r.status == 200);
  auto pi = t.get("/PaymentIntent/" + r.json["Id"].get<std::string>());
  std::string contact = pi.json["Payer"]["Contact"]["Id"],
              account = pi.json["Payer"]["Account"]["Id"];
  CHECK(pi.json["Payer"]["Account"]["Name"] == "Mary Seacole");
  auto c = t.get("/__admin/records/Contact/" + contact, false).json;
  CHECK(c["Email"] == "mary@example.org");
  CHECK(c["MailingCity"] == "Kingston");
  CHECK(c["AccountId"] == account);
  auto a = t.get("/__admin/records/Account/" + account, false).json;
  CHECK(a["BillingStreet"] == "1 Harbour St");
  CHECK(a["IsPersonAccount"] == true);
  json bad = b;
  bad["Payer"]["Account"]["RecordTypeName"] = "Household";
  auto rt = t.post("/PaymentIntent", bad);
  CHECK(rt.status == 422);
  CHECK(message_of(rt).find("Household") != std::string::npos);
}
