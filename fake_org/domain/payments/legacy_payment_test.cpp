// The older /Payment body translated into the payment-intent request, the
// error paths renamed back, and the answer built from the shared result.
#include "legacy_payment.h"

#include <catch2/catch.hpp>

#include "domain/store/idempotency.h"
#include "fixture/fixture_loader.h"

using namespace fake_org;
using nlohmann::json;

namespace {

const OrgConfig& legacy_config() {
  static const OrgConfig c = [] {
    auto load = load_embedded_fixture("default.yaml");
    REQUIRE(load.ok());
    return *load.config;
  }();
  return c;
}

json body() {
  return json::parse(R"j({
    "SuccessURL": "https://shop.example/thanks",
    "FailureURL": "https://shop.example/sorry",
    "WebhookURL": "https://hooks.example/cpm",
    "Origin": "Legacy form",
    "Payer": {
      "Contact": {"FirstName": "Ada", "LastName": "Lovelace", "Email": "ada@example.org"},
      "ContactRecordTypeName": "Donor",
      "Account": {"Name": "Analytical Engines Ltd"},
      "AccountRecordTypeName": "Business_Account",
      "AllowDeduplication": true,
      "PrimaryRelation": "Contact"
    },
    "Payment": {"Amount": 25, "CurrencyISOCode": "GBP", "CustomFields": {"Appeal_Code__c": "A1"}},
    "PaymentMethod": {"Name": "CreditCard", "Processor": "Stripe", "Target": "Online",
                      "ParameterMap": {"description": "Spring"}},
    "SourceConnector": {"Name": "cpm_Native"},
    "PackageActions": {"cpm_GiftAid": {"Declaration": {"FirstName": "Ada"}}}
  })j");
}

std::string messages(const ApiErrors& errors) {
  std::string out;
  for (const auto& e : errors) out += e.code + " " + e.field + ": " + e.message + "\n";
  return out;
}

}  // namespace

TEST_CASE("a legacy one-time body becomes a new one-time payment intent", "[legacy]") {
  auto r = translate_legacy_request(body(), legacy_config());
  INFO((r.ok() ? "" : messages(r.errors())));
  REQUIRE(r.ok());
  const PaymentIntentRequest& q = r->intent;
  CHECK(q.operation == Operation::kNewOneTime);
  CHECK(q.interface_name == "Payment");
  CHECK(q.success_url == "https://shop.example/thanks");
  CHECK(q.webhook_url == "https://hooks.example/cpm");
  CHECK(q.origin == "Legacy form");
  REQUIRE(q.payer);
  CHECK((*q.payer)["Contact"]["CrmFields"]["Email"] == "ada@example.org");
  CHECK((*q.payer)["Contact"]["RecordTypeName"] == "Donor");
  CHECK((*q.payer)["Account"]["CrmFields"]["Name"] == "Analytical Engines Ltd");
  CHECK((*q.payer)["AccountRecordTypeName"] == "Business_Account");
  CHECK((*q.payer)["AllowDeduplication"] == true);
  REQUIRE(q.one_time);
  CHECK(*q.one_time->amount == 25);
  CHECK(q.one_time->currency == "GBP");
  CHECK(q.one_time->crm_fields == json({{"Appeal_Code__c", "A1"}}));
  REQUIRE(q.payment_method);
  CHECK(q.payment_method->processor == "Stripe");
  CHECK(q.payment_method->target == "Online");
  CHECK(q.payment_method->parameters == json({{"description", "Spring"}}));
  CHECK(q.source_connector == "cpm_Native");
  // PackageActions is package -> action -> parameters in both interfaces: handed over as is.
  CHECK(q.package_actions == body()["PackageActions"]);
  CHECK(r->allow_deduplication);
  CHECK(r->account_fields_given);
  CHECK_FALSE(r->contact_id_given);
}

TEST_CASE("legacy ids and the Enrich mode", "[legacy]") {
  json b = body();
  b["Payer"] = {{"ContactId", "0037Q00000JaneDQAR"}, {"AccountId", "0017Q00000GrnTrQAJ"}};
  auto r = translate_legacy_request(b, legacy_config());
  REQUIRE(r.ok());
  CHECK((*r->intent.payer)["Contact"] == json({{"Id", "0037Q00000JaneDQAR"}}));
  CHECK((*r->intent.payer)["Account"] == json({{"Id", "0017Q00000GrnTrQAJ"}}));
  CHECK(r->contact_id_given);
  CHECK(r->account_id_given);

  b["Payer"]["Contact"] = {{"MobilePhone", "+44 20 7946 0000"}};
  auto refused = translate_legacy_request(b, legacy_config());
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.errors().at(0).field == "Payer.Contact");
  CHECK(messages(refused.errors()).find("ContactUpdate \"Enrich\"") != std::string::npos);

  b["Payer"]["ContactUpdate"] = "Enrich";
  auto enrich = translate_legacy_request(b, legacy_config());
  REQUIRE(enrich.ok());
  CHECK((*enrich->intent.payer)["Contact"]["Id"] == "0037Q00000JaneDQAR");
  CHECK((*enrich->intent.payer)["Contact"]["CrmFields"]["MobilePhone"] == "+44 20 7946 0000");

  b["Payer"]["ContactUpdate"] = "Replace";
  b["Payer"]["PrimaryRelation"] = "Account";
  auto bad = translate_legacy_request(b, legacy_config());
  REQUIRE_FALSE(bad.ok());
  std::string m = messages(bad.errors());
  CHECK(m.find("Payer.ContactUpdate") != std::string::npos);
  CHECK(m.find("Payer.PrimaryRelation") != std::string::npos);
}

TEST_CASE("a legacy Recurring block becomes a new recurring payment", "[legacy]") {
  json b = body();
  b.erase("Payment");
  b["Recurring"] = {{"Amount", 10},
                    {"Frequency", "Monthly"},
                    {"StartDate", "2027-02-01"},
                    {"CustomFields", {{"Appeal_Code__c", "R1"}}}};
  SECTION("a processor with InitialPaymentonRecurring Required: the first collection is paid now") {
    auto r = translate_legacy_request(b, legacy_config());
    REQUIRE(r.ok());
    CHECK(r->intent.operation == Operation::kNewRecurring);
    CHECK(r->intent.recurring->frequency == "Monthly");
    CHECK(r->intent.recurring->crm_fields == json({{"Appeal_Code__c", "R1"}}));
    REQUIRE(r->intent.one_time);
    CHECK(*r->intent.one_time->amount == 10);
  }
  SECTION("Optional: no initial payment") {
    b["PaymentMethod"] = {{"Name", "SEPA Direct Debit"}};
    auto r = translate_legacy_request(b, legacy_config());
    REQUIRE(r.ok());
    CHECK_FALSE(r->intent.one_time);
  }
  SECTION("Payment and Recurring together") {
    b["Payment"] = {{"Amount", 5}};
    auto r = translate_legacy_request(b, legacy_config());
    REQUIRE_FALSE(r.ok());
    CHECK(r.errors().at(0).code == "010");
  }
}

TEST_CASE("legacy InstallmentId pays an existing installment", "[legacy]") {
  json b = body();
  b.erase("Payer");
  b["Payment"] = {{"InstallmentId", "a0F7Q00000AbCdE"}};
  auto r = translate_legacy_request(b, legacy_config());
  REQUIRE(r.ok());
  CHECK(r->intent.operation == Operation::kPayInstallment);
  CHECK(r->intent.one_time->id == "a0F7Q00000AbCdE");
}

TEST_CASE("legacy shape errors name the legacy fields", "[legacy]") {
  json b = body();
  b["Payment"]["Amont"] = 3;
  b["SourceConnector"] = "cpm_Native";
  b["IdempotencyKey"] = "k";
  auto r = translate_legacy_request(b, legacy_config());
  REQUIRE_FALSE(r.ok());
  std::string m = messages(r.errors());
  CHECK(m.find("Payment.Amont") != std::string::npos);
  CHECK(m.find("SourceConnector must be a JSON object") != std::string::npos);
  CHECK(m.find("IdempotencyKey") != std::string::npos);

  json no_url = body();
  no_url.erase("SuccessURL");
  auto u = translate_legacy_request(no_url, legacy_config());
  REQUIRE_FALSE(u.ok());
  CHECK(u.errors().at(0).code == "010");
  CHECK(u.errors().at(0).field == "SuccessURL");
}

TEST_CASE("v2 paths are renamed to the legacy ones", "[legacy]") {
  CHECK(to_legacy_path("OneTime.Amount must be greater than zero") ==
        "Payment.Amount must be greater than zero");
  CHECK(to_legacy_path("OneTime.CrmFields.Foo__c") == "Payment.CustomFields.Foo__c");
  CHECK(to_legacy_path("Payer.Contact.CrmFields.LastName is required") ==
        "Payer.Contact.LastName is required");
  CHECK(to_legacy_path("Payer.Contact.Id 'x'") == "Payer.ContactId 'x'");
  CHECK(to_legacy_path("Payer.Account.RecordTypeName") == "Payer.AccountRecordTypeName");
  CHECK(to_legacy_path("PaymentMethod.Parameters.IBAN") == "PaymentMethod.ParameterMap.IBAN");
  CHECK(to_legacy_path("Settings.SourceConnector 'x'") == "SourceConnector.Name 'x'");
  CHECK(to_legacy_path("Recurring.CrmFields.X") == "Recurring.CustomFields.X");
  CHECK(to_legacy_path("OneTime.Id") == "Payment.InstallmentId");
  // Only whole names: other words stay.
  CHECK(to_legacy_path("NewOneTime Payer.ContactId") == "NewOneTime Payer.ContactId");
}

TEST_CASE("legacy answers: success from the shared result, failure with the first code",
          "[legacy]") {
  LegacyPaymentRequest req;
  req.allow_deduplication = true;
  req.account_fields_given = true;
  IntentResult result;
  result.body = json::parse(R"j({"Id":"pi_x","PaymentMethod":{"Name":"CreditCard",
      "Processor":"Stripe","Target":"Online","Parameters":{"description":"d"}},
      "Settings":{"SourceConnector":"cpm_Native","ProcessingType":"Default"},
      "RedirectURL":"http://127.0.0.1:1/psp/checkout/cs_1"})j");
  result.records.contact_id = "0037Q00000JaneDQAR";
  result.records.account_id = "0017Q00000GrnTrQAJ";
  result.records.installment_id = "a0F7Q00000AbCdEQAB";
  result.records.contact_existed = true;
  result.records.account_existed = false;
  json ok = legacy_success_body(req, result);
  CHECK(ok == json::parse(R"j({"ResponseCode":"001","IsSuccess":true,
      "Payer":{"ContactId":"0037Q00000JaneDQAR","AccountId":"0017Q00000GrnTrQAJ",
               "ContactDeduplicated":true,"AccountDeduplicated":false},
      "Payment":{"InstallmentId":"a0F7Q00000AbCdEQAB"},
      "PaymentMethod":{"Name":"CreditCard","Processor":"Stripe","Target":"Online"},
      "SourceConnector":"cpm_Native",
      "RedirectURL":"http://127.0.0.1:1/psp/checkout/cs_1"})j"));

  req.contact_id_given = true;  // named by ContactId: not deduplicated
  CHECK(legacy_success_body(req, result)["Payer"]["ContactDeduplicated"] == false);

  json fail = legacy_failure_body({make_error("200", "Payment.Amount", "Amount must be > 0"),
                                   make_error("010", "SuccessURL", "SuccessURL is required")});
  CHECK(fail == json::parse(R"j({"ResponseCode":"010","IsSuccess":false,
      "Message":"SuccessURL is required; Amount must be > 0"})j"));
}
