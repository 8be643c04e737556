// Requests the fake once answered wrongly: one type rule for every
// field (decisions 70), the bank statement `description` for every method
// (spec 2.6), SEPA in euro only, one rule for a malformed id in a path and a
// body (decisions 20), and the nonprofit package's household for a
// contact-only payer (decisions 19). A refused request changes nothing.
#include <catch2/catch.hpp>

#include "domain/store/idempotency.h"
#include "testing/intent_body.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

// Refused with 422 and code 200 naming `field`; nothing is stored.
void check_refused(TestOrg& t, const json& body, const std::string& field,
                   const std::string& says) {
  const size_t reports = t.count(objects::kInboundReport);
  const size_t installments = t.count(objects::kInstallment);
  auto r = t.post("/PaymentIntent", body);
  INFO(r.body);
  REQUIRE(r.status == 422);
  CHECK(code_of(r) == "200");
  CHECK(message_of(r).find(says) != std::string::npos);
  CHECK(message_of(r).find(field) != std::string::npos);
  CHECK(t.count(objects::kInboundReport) == reports);
  CHECK(t.count(objects::kInstallment) == installments);
}

}  // namespace

TEST_CASE("a string field of the spec given as a number is refused, naming it",
          "[payment_intent][types]") {
  TestOrg t(fixture("default.yaml"));
  json key = IntentBody::one_time().body();
  key["IdempotencyKey"] = 12345;
  check_refused(t, key, "IdempotencyKey", "IdempotencyKey must be a string, got a number 12345");
  json origin = IntentBody::one_time().body();
  origin["Origin"] = 7;
  check_refused(t, origin, "Origin", "Origin must be a string, got a number 7");
  json currency = IntentBody::one_time().body();
  currency["OneTime"]["CurrencyISOCode"] = 978;
  check_refused(t, currency, "OneTime.CurrencyISOCode", "must be a string");
}

TEST_CASE("CrmFields take their field's JSON type: a boolean or number as text is refused",
          "[payment_intent][types][crm_fields]") {
  TestOrg t(fixture("default.yaml"));
  json text_bool = IntentBody::one_time()
                       .contact({{"LastName", "Types"}, {"Newsletter_Opt_In__c", "true"}})
                       .body();
  check_refused(t, text_bool, "Payer.Contact.CrmFields.Newsletter_Opt_In__c",
                "must be the JSON boolean true or false");
  json number_text =
      IntentBody::one_time().contact({{"LastName", "Types"}, {"MailingPostalCode", 12345}}).body();
  check_refused(t, number_text, "Payer.Contact.CrmFields.MailingPostalCode", "as a JSON string");
  json not_number = IntentBody::one_time()
                        .contact({{"LastName", "Types"}, {"Lifetime_Giving__c", "lots"}})
                        .body();
  check_refused(t, not_number, "Payer.Contact.CrmFields.Lifetime_Giving__c", "is not one");
  // The JSON types themselves pass.
  auto ok = t.post("/PaymentIntent", IntentBody::one_time()
                                         .contact({{"LastName", "Types"},
                                                   {"Newsletter_Opt_In__c", true},
                                                   {"MailingPostalCode", "12345"},
                                                   {"Lifetime_Giving__c", "12.50"}})
                                         .body());
  INFO(ok.body);
  CHECK(ok.status == 200);
}

TEST_CASE("Parameters.description is the bank statement text of every method",
          "[payment_intent][parameters]") {
  TestOrg t(fixture("default.yaml"));
  // PayPal's processor declares no parameters; spec 2.6 names description for any method.
  json paypal = {{"Name", "PayPal"}, {"Parameters", {{"description", "Gift 2027"}}}};
  auto r = t.post("/PaymentIntent", IntentBody::one_time(paypal).body());
  INFO(r.body);
  REQUIRE(r.status == 200);
  CHECK(r.json["PaymentMethod"]["Parameters"] == json{{"description", "Gift 2027"}});
  json number = {{"Name", "PayPal"}, {"Parameters", {{"description", 5}}}};
  check_refused(t, IntentBody::one_time(number).body(), "PaymentMethod.Parameters.description",
                "must be a string");
  // A declared parameter's type is its DataType's JSON type too.
  json card = {{"Name", "CreditCard"}, {"Parameters", {{"description", true}}}};
  check_refused(t, IntentBody::one_time(card).body(), "PaymentMethod.Parameters.description",
                "must be a string");
}

TEST_CASE("bank data a processor does not declare is text too", "[payment_intent][types][bank]") {
  TestOrg t(fixture("default.yaml"));
  json bacs = bacs_debit();
  bacs["Parameters"]["City"] = 5;  // read for the mandate, not declared by SmartDebit
  check_refused(t, IntentBody::one_time(bacs).currency("GBP").body(),
                "PaymentMethod.Parameters.City", "must be a string, got 5");
  json sepa = sepa_debit();
  sepa["Parameters"]["BIC"] = 12345678;  // declared String
  check_refused(t, IntentBody::one_time(sepa).body(), "PaymentMethod.Parameters.BIC",
                "must be a string");
}

TEST_CASE("SEPA direct debit collects in euro only, Bacs in pounds", "[payment_intent][bank]") {
  TestOrg t(fixture("default.yaml"));
  check_refused(t, IntentBody::one_time(sepa_debit()).currency("GBP").body(),
                "OneTime.CurrencyISOCode", "uses the SEPA scheme, which collects in EUR only");
  check_refused(t,
                IntentBody::recurring(sepa_debit())
                    .set("Recurring", {{"Amount", 10},
                                       {"Frequency", "Monthly"},
                                       {"StartDate", "2027-04-01"},
                                       {"CurrencyISOCode", "USD"}})
                    .body(),
                "Recurring.CurrencyISOCode", "the payment is in USD");
  auto eur = t.post("/PaymentIntent", IntentBody::one_time(sepa_debit()).currency("EUR").body());
  INFO(eur.body);
  CHECK(eur.status == 200);
  // Each scheme its currency: Bacs in GBP.
  check_refused(t, IntentBody::one_time(bacs_debit()).body(), "OneTime.CurrencyISOCode",
                "uses the Bacs scheme, which collects in GBP only; the payment is in EUR");
  CHECK(
      t.post("/PaymentIntent", IntentBody::one_time(bacs_debit()).currency("GBP").body()).status ==
      200);
}

TEST_CASE("Autogiro collects in SEK only", "[payment_intent][bank]") {
  TestOrg t(fixture("multi_connector.yaml"));
  json autogiro = {
      {"Name", "Autogiro"},
      {"Parameters",
       {{"ClearingNumber", "3300"}, {"AccountNumber", "3912319997"}, {"AccountHolderName", "A"}}}};
  check_refused(t, IntentBody::one_time(autogiro).currency("EUR").body(), "OneTime.CurrencyISOCode",
                "uses the Autogiro scheme, which collects in SEK only");
  auto sek = t.post("/PaymentIntent", IntentBody::one_time(autogiro).currency("SEK").body());
  INFO(sek.body);
  CHECK(sek.status == 200);
}

TEST_CASE("a malformed id is invalid data in a body and in a path alike", "[reads][ids]") {
  TestOrg t(fixture("default.yaml"));
  auto body = t.post("/PaymentIntent", IntentBody::pay_installment("xyz").body());
  INFO(body.body);
  REQUIRE(body.status == 422);
  CHECK(code_of(body) == "200");
  for (const char* path : {"/Installment/xyz", "/Recurring/xyz", "/PaymentIntent/xyz"}) {
    auto r = t.get(path);
    INFO(path << ": " << r.body);
    CHECK(r.status == 422);
    CHECK(code_of(r) == "200");
  }
  // A well-formed id of no record stays 404 in both.
  CHECK(t.get("/Installment/a0B5J000001AbCdUAK").status == 404);
}

TEST_CASE("nonprofit: a contact-only payer naming the household type gets its household",
          "[payer][nonprofit]") {
  TestOrg t(fixture("nonprofit.yaml"));
  json body =
      IntentBody::one_time()
          .contact({{"FirstName", "Rosa"}, {"LastName", "Parks"}})
          .set("Payer",
               {{"Contact",
                 {{"CrmFields",
                   {{"FirstName", "Rosa"}, {"LastName", "Parks"}, {"Email", "rosa@example.org"}}}}},
                {"AccountRecordTypeName", "HH_Account"}})
          .body();
  auto c = t.create_intent(body);
  auto read = t.get("/PaymentIntent/" + c.id);
  INFO(read.body);
  REQUIRE(read.json["Payer"].contains("Account"));
  CHECK(read.json["Payer"]["Account"]["Name"] == "Parks Household");
  const std::string account = read.json["Payer"]["Account"]["Id"];
  CHECK(t.record(account).text("RecordTypeName") == "HH_Account");
}
