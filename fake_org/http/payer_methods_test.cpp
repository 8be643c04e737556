// Payer flows by method: a US ACH debit (a bank method without a European
// scheme) collected on the org clock, and the one-off mandate of an inline
// debit that another payment of its installment replaces.
#include <catch2/catch.hpp>

#include "testing/intent_body.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

json ach(const std::string& routing = "011000015", const std::string& account = "000123456789") {
  return ach_debit("Sam Okafor", routing, account);
}

json sepa_method(const std::string& iban) {
  return sepa_debit(iban, "Max Weber");
}

// A one-time payment by Sam Okafor.
IntentBody sam_pays(const json& method, const json& amount) {
  return IntentBody::one_time(method)
      .contact({{"FirstName", "Sam"}, {"LastName", "Okafor"}, {"Email", "sam@example.org"}})
      .amount(amount);
}

std::string installment_of(TestOrg& t, const std::string& pi) {
  return t.get("/PaymentIntent/" + pi).json["OneTime"].value("Id", "");
}

}  // namespace

TEST_CASE("a one-time ACH debit is collected on its due date through its own mandate",
          "[collections][ach]") {
  TestOrg t(fixture("nonprofit.yaml"));
  t.set_clock("2027-03-01T09:00:00Z");
  auto r = t.post("/PaymentIntent", sam_pays(ach(), 25));
  INFO(r.body);
  REQUIRE(r.status == 200);
  CHECK_FALSE(r.json.contains("RedirectURL"));
  const std::string id = installment_of(t, r.json["Id"]);
  auto inst = t.admin_record("cpm__Installment__c", id);
  auto mandate = t.admin_record("cpm__Mandate__c", inst.value("cpm__Mandate__c", "?"));
  CHECK(mandate["cpm__Status__c"] == "Active");
  CHECK(mandate["cpm__Signature_Date__c"] == "2027-03-01");
  CHECK(mandate.value("cpm__Mandate_Reference__c", "").rfind("CPM-", 0) == 0);
  auto profile =
      t.admin_record("cpm__Payment_Profile__c", inst.value("cpm__Payment_Profile__c", "?"));
  CHECK(profile["cpm__Routing_Number__c"] == "011000015");
  CHECK(profile["cpm__Account_Number__c"] == "000123456789");
  CHECK(t.admin_records("cpm__Payment__c").empty());

  // The clock outruns the test's token: read through the admin records.
  t.advance_clock("1d");
  inst = t.admin_record("cpm__Installment__c", id);
  CHECK(inst["cpm__Status__c"] == "Collected");
  CHECK(inst["cpm__Amount_Open__c"] == 0);
  auto payments = t.admin_records("cpm__Payment__c");
  REQUIRE(payments.size() == 1);
  CHECK(payments[0]["cpm__Payment_Method__c"] == "ACH");
  CHECK(payments[0]["cpm__Collection_Date__c"] == "2027-03-02");
  CHECK(payments[0]["cpm__Payment_Profile__c"] == inst["cpm__Payment_Profile__c"]);
  t.advance_clock("30d");
  CHECK(t.admin_records("cpm__Payment__c").size() == 1);
}

TEST_CASE("a recurring ACH donation is collected on every due date, its initial payment too",
          "[collections][ach]") {
  TestOrg t(fixture("nonprofit.yaml"));
  t.set_clock("2027-01-31T09:00:00Z");
  auto r = t.post("/PaymentIntent",
                  sam_pays(ach(), 10).series(10, "Monthly", "2027-02-28", "2027-04-30"));
  INFO(r.body);
  REQUIRE(r.status == 200);
  CHECK_FALSE(r.json.contains("RedirectURL"));
  const std::string first = installment_of(t, r.json["Id"]);
  REQUIRE_FALSE(first.empty());

  t.advance_clock("1d");  // 1 February: the initial payment is due
  CHECK(t.admin_record("cpm__Installment__c", first)["cpm__Status__c"] == "Collected");
  t.advance_clock("90d");  // 1 May: 28 February, 28 March, 28 April
  auto insts = t.admin_records("cpm__Installment__c");
  REQUIRE(insts.size() == 4);
  int collected = 0;
  for (const auto& i : insts) collected += i["cpm__Status__c"] == "Collected";
  CHECK(collected == 4);
  CHECK(t.admin_records("cpm__Payment__c").size() == 4);
}

TEST_CASE("ACH account data is checked: error 200 naming the parameter", "[ach][http]") {
  TestOrg t(fixture("nonprofit.yaml"));
  auto r = t.post("/PaymentIntent", sam_pays(ach("011000016", "12"), 5));
  INFO(r.body);
  REQUIRE(r.status == 422);
  REQUIRE(r.json["Errors"].size() == 2);
  CHECK(code_of(r) == "200");
  CHECK(message_of(r).find("ABA check digit") != std::string::npos);
  CHECK(code_of(r, 1) == "200");
  CHECK(message_of(r, 1).find("AccountNumber '12'") != std::string::npos);
  CHECK(t.admin_records("cpm__Installment__c").empty());
}

TEST_CASE("an inline debit's mandate ends when its installment is paid by card instead",
          "[collections][psp]") {
  TestOrg t(fixture("default.yaml"));
  t.set_clock("2027-03-01T09:00:00Z");
  auto debit = t.post("/PaymentIntent", sam_pays(sepa_method(kIban), 10));
  REQUIRE(debit.status == 200);
  const std::string id = installment_of(t, debit.json["Id"]);
  const std::string mandate_id =
      t.admin_record("cpm__Installment__c", id).value("cpm__Mandate__c", "");
  REQUIRE_FALSE(mandate_id.empty());

  auto r = t.post("/PaymentIntent", IntentBody::pay_installment(id, card()));
  INFO(r.body);
  REQUIRE(r.status == 200);
  const std::string redirect = r.json["RedirectURL"];
  const std::string session = redirect.substr(redirect.rfind('/') + 1);
  // The page is open, not paid: the payer may still abandon it, so the
  // mandate stands until the money comes another way.
  CHECK(t.admin_record("cpm__Mandate__c", mandate_id)["cpm__Status__c"] == "Active");
  REQUIRE(t.complete_session(session, {{"outcome", "failure"}}).status == 200);
  CHECK(t.admin_record("cpm__Mandate__c", mandate_id)["cpm__Status__c"] == "Active");

  t.advance_clock("23h");  // the next day; the page stays open for 24 hours (decisions 96)
  REQUIRE(t.complete_session(session).status == 200);
  auto mandate = t.admin_record("cpm__Mandate__c", mandate_id);
  CHECK(mandate["cpm__Status__c"] == "Inactive");
  CHECK(mandate["cpm__Deactivation_Date__c"] == "2027-03-02");
  t.advance_clock("30d");
  auto payments = t.admin_records("cpm__Payment__c");
  REQUIRE(payments.size() == 1);
  CHECK(payments[0]["cpm__Payment_Method__c"] == "CreditCard");
}

TEST_CASE("a new inline account for an installment ends its previous one-off mandate at once",
          "[collections]") {
  TestOrg t(fixture("default.yaml"));
  auto debit = t.post("/PaymentIntent", sam_pays(sepa_method(kIban), 10));
  REQUIRE(debit.status == 200);
  const std::string id = installment_of(t, debit.json["Id"]);
  const std::string old_mandate =
      t.admin_record("cpm__Installment__c", id).value("cpm__Mandate__c", "");
  auto r = t.post("/PaymentIntent",
                  IntentBody::pay_installment(id, sepa_method("DE02120300000000202051")));
  INFO(r.body);
  REQUIRE(r.status == 200);
  const std::string new_mandate =
      t.admin_record("cpm__Installment__c", id).value("cpm__Mandate__c", "");
  CHECK(new_mandate != old_mandate);
  CHECK(t.admin_record("cpm__Mandate__c", old_mandate)["cpm__Status__c"] == "Inactive");
  CHECK(t.admin_record("cpm__Mandate__c", new_mandate)["cpm__Status__c"] == "Active");
  t.advance_clock("1d");
  CHECK(t.admin_records("cpm__Payment__c").size() == 1);
}
