// POST /PaymentIntent (new one-time, pay existing installment), reads,
// errors with their HTTP status, idempotency and atomicity, over real HTTP.
#include <catch2/catch.hpp>
#include <optional>
#include <set>
#include <thread>

#include "domain/org/psp_sessions.h"
#include "domain/store/idempotency.h"
#include "testing/intent_body.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

// Every new payment of this file comes from one donation form.
IntentBody one_time() {
  return IntentBody::one_time().origin("Donation form A");
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
        "/services/data/v68.0/sobjects/cpm__Installment__c/" + inst_id);

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

TEST_CASE("the inbound report keeps the request body as the client sent it", "[http][intent]") {
  TestOrg t(fixture("default.yaml"));
  // Key order, spacing and a line break: what a client sent, not a rewrite.
  const std::string sent =
      "{\"SuccessURL\": \"https://shop.example/ok\",\n"
      "  \"FailureURL\": \"https://shop.example/ko\", \"OneTime\": "
      "{\"Amount\": 12.50},\n  \"PaymentMethod\": {\"Name\": \"CreditCard\"},"
      " \"Payer\": {\"Contact\": {\"CrmFields\": {\"LastName\": \"Raw\"}}}}";
  auto r = t.post_raw("/PaymentIntent", sent);
  REQUIRE(r.status == 200);
  auto report = t.get("/__admin/records/cpm__Inbound_Report__c", false).json["records"][0];
  CHECK(report["cpm__Raw_Request__c"] == sent);
}

TEST_CASE("an inline direct debit has no RedirectURL and echoes its parameters", "[http][intent]") {
  TestOrg t(fixture("default.yaml"));
  auto r = t.post("/PaymentIntent", one_time().method(sepa_debit()));
  REQUIRE(r.status == 200);
  CHECK_FALSE(r.json.contains("RedirectURL"));
  const json expected3 = json::parse(R"({"Name":"SEPA Direct Debit","Processor":"GoCardless",
      "Target":"Core","Parameters":{"IBAN":"DE89370400440532013000","AccountHolderName":"Ada Lovelace"}})");
  CHECK(r.json["PaymentMethod"] == expected3);
}

TEST_CASE("amounts: numeric strings, currencies and their precision", "[http][intent]") {
  TestOrg t(fixture("default.yaml"));
  auto s = t.post("/PaymentIntent", one_time().amount("19.99"));
  REQUIRE(s.status == 200);
  auto pi = t.get("/PaymentIntent/" + s.json["Id"].get<std::string>());
  CHECK(t.get("/Installment/" + pi.json["OneTime"]["Id"].get<std::string>()).json["Amount"] ==
        19.99);

  json jpy = one_time().amount(1500).currency("JPY");
  CHECK(t.post("/PaymentIntent", jpy).status == 200);
  jpy["OneTime"]["Amount"] = 1500.5;
  auto bad_jpy = t.post("/PaymentIntent", jpy);
  CHECK(bad_jpy.status == 422);
  CHECK(message_of(bad_jpy) ==
        "OneTime.Amount '1500.5' has more decimal places than JPY allows (0)");

  for (json amount : {json(0), json(-5), json("0.00")}) {
    auto r = t.post("/PaymentIntent", one_time().amount(amount));
    CHECK(r.status == 422);
    CHECK(code_of(r) == "200");
    CHECK(message_of(r).find("OneTime.Amount must be greater than zero") == 0);
  }
  json chf = one_time().currency("CHF");
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
  auto r = t.post("/PaymentIntent", one_time().without("SuccessURL"));
  CHECK(r.status == 400);
  CHECK(code_of(r) == "010");
  CHECK(message_of(r) == "SuccessURL is required (where the payer goes after success)");

  CHECK(message_of(t.post("/PaymentIntent", one_time().without("Payer"))) ==
        "A new payment needs a Payer with a Contact or an Account (spec 2.2)");
  json nothing = {{"SuccessURL", "https://a.example/"}, {"FailureURL", "https://a.example/"}};
  auto none = t.post("/PaymentIntent", nothing);
  CHECK(none.status == 400);
  CHECK(message_of(none).find("The request matches no operation") == 0);

  json both = one_time().without("Payer");
  both["OneTime"]["Id"] = "a0F5J0000000001AAA";
  auto mixed = t.post("/PaymentIntent", both);
  CHECK(mixed.status == 400);
  CHECK(message_of(mixed).find("OneTime.Id pays the open amount") == 0);

  auto two = t.post("/PaymentIntent", one_time().without("SuccessURL").without("FailureURL"));
  CHECK(two.json["Errors"].size() == 2);
}

TEST_CASE("processor parameters missing are 011, source connector parameters 012",
          "[http][intent][errors]") {
  TestOrg t(fixture("default.yaml"));
  auto r = t.post("/PaymentIntent", one_time().method(sepa_debit()).parameters({{"IBAN", kIban}}));
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
  CHECK(c.post("/PaymentIntent", one_time().connector_parameters({{"FundCode", "GEN"}})).status ==
        200);
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
  auto b = one_time().processor("Stripe");
  auto r = t.post("/PaymentIntent", b);
  CHECK(r.status == 400);
  CHECK(code_of(r) == "998");
  CHECK(message_of(r) ==
        "PaymentMethod.Target is not given and Stripe has no default target for CreditCard; "
        "name one of: Online, Telephone");
  auto ok = t.post("/PaymentIntent", b.target("Telephone"));
  REQUIRE(ok.status == 200);
  CHECK(ok.json["PaymentMethod"]["Target"] == "Telephone");
}

TEST_CASE("invalid data is 200 with HTTP 422 and names the field", "[http][intent][errors]") {
  TestOrg t(fixture("default.yaml"));
  auto r = t.post("/PaymentIntent", one_time().method(payment_method("Cheque")));
  CHECK(r.status == 422);
  CHECK(code_of(r) == "200");
  CHECK(message_of(r) ==
        "PaymentMethod.Name 'Cheque' is not an activated payment method of this org; available: "
        "CreditCard, SEPA Direct Debit, Bacs Direct Debit, PayPal");
  CHECK(message_of(t.post("/PaymentIntent", one_time().processor("Braintree"))) ==
        "PaymentMethod.Processor 'Braintree' is not configured for CreditCard; available: Stripe, "
        "Adyen");
  CHECK(message_of(t.post("/PaymentIntent", one_time().set("SuccessURL", "/relative"))) ==
        "SuccessURL '/relative' is not an absolute http(s) URL");
  CHECK(message_of(t.post("/PaymentIntent", one_time().processing_type("Nope")))
            .find("Settings.ProcessingType 'Nope' is not an inbound report subtype") == 0);
  CHECK(message_of(t.post("/PaymentIntent", one_time().campaign("spring"))) ==
        "CampaignId 'spring' is not a record id (15 or 18 letters and digits)");
  CHECK(message_of(t.post("/PaymentIntent", one_time().set("SucessURL", "typo")))
            .find("Unknown field 'SucessURL'") == 0);
  auto email =
      t.post("/PaymentIntent", one_time().contact({{"LastName", "X"}, {"Email", "not-an-email"}}));
  CHECK(email.status == 422);
  CHECK(message_of(email).find("Email") != std::string::npos);
  auto unknown = t.post("/PaymentIntent", one_time().one_time_fields({{"No_Such_Field__c", 1}}));
  CHECK(unknown.status == 422);
  CHECK(message_of(unknown).find("No_Such_Field__c") != std::string::npos);
  CHECK(t.count("Contact") == 3);  // nothing was created by any of these
}

TEST_CASE("parameters nothing reads are 200 naming what the processor or connector accepts",
          "[http][intent][errors]") {
  TestOrg t(fixture("default.yaml"));
  auto r = t.post("/PaymentIntent",
                  one_time().method(sepa_debit(kIban, "Ada")).parameter("Ibann", kIban));
  CHECK(r.status == 422);
  CHECK(message_of(r) ==
        "PaymentMethod.Parameters.Ibann is not a parameter of processor GoCardless for SEPA Direct "
        "Debit; it accepts: IBAN, AccountHolderName, BIC, Street, HouseNameOrNumber, PostalCode, "
        "City, description");
  // A wrong case of an optional parameter says which name is meant.
  CHECK(message_of(
            t.post("/PaymentIntent",
                   one_time().method(sepa_debit(kIban, "Ada")).parameter("bic", "COBADEFFXXX")))
            .find("PaymentMethod.Parameters.bic is not a parameter of processor GoCardless for "
                  "SEPA Direct Debit (did you mean BIC? names are case-sensitive)") == 0);
  // A card method takes no bank account data.
  CHECK(message_of(t.post("/PaymentIntent", one_time().parameters({{"IBAN", kIban}})))
            .find("PaymentMethod.Parameters.IBAN is not a parameter of processor Stripe") == 0);
  // What the fake reads beyond the declared ones passes: the house number's
  // other spelling, the mandate and profile parameters of update rule 3.
  CHECK(t.post("/PaymentIntent", one_time()
                                     .method(sepa_debit(kIban, "Ada"))
                                     .parameter("HouseNumberOrName", "1")
                                     .parameter("MandateReference", "REF-1")
                                     .parameter("SignatureDate", "2020-01-01"))
            .status == 200);
  auto connector = t.post("/PaymentIntent", one_time().connector_parameters({{"Foo", "bar"}}));
  CHECK(connector.status == 422);
  CHECK(message_of(connector) ==
        "Settings.SourceConnectorParameters.Foo is not a parameter of source connector cpm_Native; "
        "it accepts: (none)");
  CHECK(t.count("cpm__Inbound_Report__c") == 1);
}

TEST_CASE("the fixture can map invalid data to HTTP 400", "[http][intent][errors]") {
  // Real orgs that answer 400 for invalid data break the strict contract on
  // purpose (the lenient profile accepts them), so the self-check is off here.
  EmbeddedOptions lenient;
  lenient.check_contracts = false;
  TestOrg t(fixture_text("extends: default.yaml\norg:\n  error_status: {\"200\": 400}\n"), lenient);
  auto r = t.post("/PaymentIntent", one_time().amount(0));
  CHECK(r.status == 400);
  CHECK(code_of(r) == "200");
}

TEST_CASE("CampaignId links when valid and is noted when it names no campaign", "[http][intent]") {
  TestOrg t(fixture("default.yaml"));
  json b = one_time().campaign("7017Q00000Sprg1");  // 15-character form of a seeded campaign
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
  json b = one_time().origin(std::string(255, 'o'));  // exactly the field's length
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

  b = one_time()
          .idempotency_key(std::string(300, 'k'))
          .set("SuccessURL", "https://shop.example/" + std::string(1000, 'p'));
  r = t.post("/PaymentIntent", b);
  CHECK(r.status == 422);
  REQUIRE(r.json["Errors"].size() == 2);
  CHECK(message_of(r).find(
            "IdempotencyKey is stored in cpm__Inbound_Report__c.cpm__Idempotency_Key__c") == 0);
  CHECK(message_of(r, 1).find(
            "SuccessURL is stored in cpm__Inbound_Report__c.cpm__Success_URL__c, and the value is "
            "too long: 1021 characters, at most 1000") == 0);
  // Nothing was stored, and the refused key was not claimed: it runs once fixed.
  CHECK(t.count("cpm__Inbound_Report__c") == 1);
  b["IdempotencyKey"] = std::string(255, 'k');
  b["SuccessURL"] = "https://shop.example/thanks";
  CHECK(t.post("/PaymentIntent", b).status == 200);
}

TEST_CASE("processing types send reports to Guided Review or Failed", "[http][intent]") {
  TestOrg t(fixture("default.yaml"));
  json b = one_time().amount(20000).processing_type("HighValue");
  auto r = t.post("/PaymentIntent", b);
  REQUIRE(r.status == 200);
  CHECK(r.json["Settings"]["ProcessingType"] == "HighValue");
  CHECK(t.get("/PaymentIntent/" + r.json["Id"].get<std::string>()).json["Status"] ==
        "Guided Review");
  b["OneTime"]["Amount"] = 50;
  CHECK(t.get("/PaymentIntent/" + t.post("/PaymentIntent", b).json["Id"].get<std::string>())
            .json["Status"] == "Matched");
  json qa = one_time()
                .contact({{"LastName", "Q"}, {"Email", "qa@example.invalid"}})
                .processing_type("QA");
  CHECK(t.get("/PaymentIntent/" + t.post("/PaymentIntent", qa).json["Id"].get<std::string>())
            .json["Status"] == "Failed");
}

TEST_CASE("deduplication: one match reuses the contact, several go to Guided Review",
          "[http][intent][dedup]") {
  TestOrg t(fixture("default.yaml"));
  json one = one_time()
                 .contact({{"LastName", "Doe"}, {"Email", "JANE.DOE@example.org "}})
                 .allow_deduplication();
  auto r = t.post("/PaymentIntent", one);
  REQUIRE(r.status == 200);
  auto pi = t.get("/PaymentIntent/" + r.json["Id"].get<std::string>());
  CHECK(pi.json["Payer"]["Contact"]["Id"] == "0037Q00000JaneDQAR");
  CHECK(pi.json["Status"] == "Matched");
  CHECK(t.count("Contact") == 3);

  json several = one_time()
                     .contact({{"LastName", "Taylor"}, {"Email", "alex.taylor@example.com"}})
                     .allow_deduplication();
  auto s = t.post("/PaymentIntent", several);
  REQUIRE(s.status == 200);
  CHECK(t.get("/PaymentIntent/" + s.json["Id"].get<std::string>()).json["Status"] ==
        "Guided Review");

  json no_dedup = one_time().contact({{"LastName", "Doe"}, {"Email", "jane.doe@example.org"}});
  auto n = t.post("/PaymentIntent", no_dedup);
  CHECK(t.get("/PaymentIntent/" + n.json["Id"].get<std::string>()).json["Payer"]["Contact"]["Id"] !=
        "0037Q00000JaneDQAR");
}

TEST_CASE("concurrent identical payers with deduplication create exactly one contact",
          "[http][intent][dedup]") {
  TestOrg t(fixture("default.yaml"));
  t.token();
  json b =
      one_time()
          .contact({{"FirstName", "Grace"}, {"LastName", "Hopper"}, {"Email", "grace@example.org"}})
          .allow_deduplication();
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
  CHECK(t.count("Contact") == 4);
  CHECK(t.count("cpm__Installment__c") == static_cast<size_t>(ok.load()));
}

TEST_CASE("paying an existing installment", "[http][intent]") {
  TestOrg t(fixture("default.yaml"));
  auto first = t.post("/PaymentIntent", one_time().method(sepa_debit()));
  REQUIRE(first.status == 200);
  auto pi = t.get("/PaymentIntent/" + first.json["Id"].get<std::string>());
  std::string inst_id = pi.json["OneTime"]["Id"];
  std::string guid = t.get("/Installment/" + inst_id).json["GUID"];

  json pay = IntentBody::pay_installment(guid, card());
  auto r = t.post("/PaymentIntent", pay);
  REQUIRE(r.status == 200);
  CHECK(r.json.contains("RedirectURL"));
  auto paid = t.get("/PaymentIntent/" + r.json["Id"].get<std::string>());
  CHECK(paid.json["OneTime"]["Id"] == inst_id);
  CHECK(paid.json["Payer"]["Contact"]["Id"] == pi.json["Payer"]["Contact"]["Id"]);
  CHECK(t.get("/Installment/" + inst_id).json["PaymentMethod"] == "CreditCard");
  CHECK(t.count("cpm__Installment__c") == 1);

  json unknown = pay;
  unknown["OneTime"]["Id"] = "a0F5J00000000ZZ";
  auto nf = t.post("/PaymentIntent", unknown);
  CHECK(nf.status == 404);
  CHECK(code_of(nf) == "200");
  json with_payer = pay;
  with_payer["Payer"] = ada();
  CHECK(code_of(t.post("/PaymentIntent", with_payer)) == "010");
}

TEST_CASE("an inline direct debit installment paid again without PaymentMethod keeps its mandate",
          "[http][intent]") {
  // Its account is on file in the mandate: the processor's parameters (IBAN,
  // holder) are not asked again (found by the multi-connector scenarios).
  TestOrg t(fixture("default.yaml"));
  auto first = t.post("/PaymentIntent", one_time().method(sepa_debit()));
  REQUIRE(first.status == 200);
  std::string inst_id =
      t.get("/PaymentIntent/" + first.json["Id"].get<std::string>()).json["OneTime"]["Id"];
  auto before = t.get("/__admin/records/cpm__Installment__c/" + inst_id, false).json;
  REQUIRE_FALSE(before.value("cpm__Mandate__c", "").empty());

  auto r = t.post("/PaymentIntent", IntentBody::pay_installment(inst_id));
  INFO(r.body);
  REQUIRE(r.status == 200);
  CHECK_FALSE(r.json.contains("RedirectURL"));
  CHECK(r.json["PaymentMethod"]["Name"] == "SEPA Direct Debit");
  CHECK(r.json["PaymentMethod"]["Processor"] == "GoCardless");
  auto after = t.get("/__admin/records/cpm__Installment__c/" + inst_id, false).json;
  CHECK(after["cpm__Mandate__c"] == before["cpm__Mandate__c"]);
  CHECK(after["cpm__Payment_Profile__c"] == before["cpm__Payment_Profile__c"]);
  CHECK(t.count("cpm__Mandate__c") == 1);
}

TEST_CASE("reads: unknown ids are 404, malformed ids 422", "[http][intent]") {
  TestOrg t(fixture("default.yaml"));
  auto a = t.get("/PaymentIntent/pi_doesnotexist");
  CHECK(a.status == 404);
  CHECK(code_of(a) == "200");
  CHECK(t.get("/PaymentIntent/abc").status == 422);
  CHECK(t.get("/Installment/a0F5J00000000ZZ").status == 404);
  CHECK(t.get("/Installment/not-an-id").status == 422);
  CHECK(t.get("/Installment/0037Q00000JaneDQAR").status == 404);  // a contact, not an installment
}

TEST_CASE("idempotency: replay creates nothing, another body conflicts",
          "[http][intent][idempotency]") {
  TestOrg t(fixture("default.yaml"));
  json b = one_time().idempotency_key("6c0e3f1a-5b1e-4c61-9e0b-2d3c4b5a6f70");
  auto first = t.post("/PaymentIntent", b);
  REQUIRE(first.status == 200);
  auto again = t.post("/PaymentIntent", b);
  REQUIRE(again.status == 200);
  CHECK(again.json == first.json);
  CHECK(again.headers.find("Idempotent-Replayed")->second == "true");
  CHECK(t.count("cpm__Installment__c") == 1);
  b["OneTime"]["Amount"] = 26;
  auto conflict = t.post("/PaymentIntent", b);
  CHECK(conflict.status == 409);
  CHECK(code_of(conflict) == "999");
  CHECK(message_of(conflict).find("was already used with a different request body") !=
        std::string::npos);
  // A failed request keeps nothing: the key can be used after fixing the body.
  json failing = one_time().amount(0).idempotency_key("k-failing");
  CHECK(t.post("/PaymentIntent", failing).status == 422);
  failing["OneTime"]["Amount"] = 5;
  CHECK(t.post("/PaymentIntent", failing).status == 200);
  // Keys expire after the org's window (24h).
  t.advance_clock("25h");
  b["OneTime"]["Amount"] = 25;
  auto after = t.post("/PaymentIntent", b);
  REQUIRE(after.status == 401);  // the token expired too; a fresh one
}

TEST_CASE("concurrent requests with one idempotency key are processed once",
          "[http][intent][idempotency]") {
  TestOrg t(fixture("default.yaml"));
  std::string token = t.token();
  json b = one_time().idempotency_key("concurrent-key");
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
  CHECK(t.count("cpm__Installment__c") == 1);
}

TEST_CASE("a request failing late leaves no contact, account or installment",
          "[http][intent][atomic]") {
  TestOrg t(fixture("default.yaml"));
  // The payer is valid (a new contact and account would be created) but the
  // installment's CrmFields fail after the payer has been resolved.
  json b = one_time()
               .contact({{"LastName", "Late"}, {"Email", "late@example.org"}})
               .account({{"Name", "Late Ltd"}})
               .one_time_fields({{"Gift_Count__c", "many"}});
  auto r = t.post("/PaymentIntent", b);
  CHECK(r.status == 422);
  CHECK(t.count("Contact") == 3);
  CHECK(t.count("Account") == 1);
  CHECK(t.count("cpm__Installment__c") == 0);
  CHECK(t.count("cpm__Inbound_Report__c") == 0);
}

TEST_CASE("person accounts: PersonEmail round trip", "[http][intent][person]") {
  TestOrg t(fixture("default.yaml"));
  json b = one_time().person_account({{"FirstName", "Mary"},
                                      {"LastName", "Seacole"},
                                      {"PersonEmail", "mary@example.org"},
                                      {"PersonMailingCity", "Kingston"},
                                      {"BillingStreet", "1 Harbour St"}});
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
