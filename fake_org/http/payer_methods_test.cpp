// Payer flows by method: a US ACH debit (a bank method without a European
// scheme) collected on the org clock, and the one-off mandate of an inline
// debit that another payment of its installment replaces.
#include <catch2/catch.hpp>

#include "http/test_support.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

json ach(const std::string& routing = "011000015", const std::string& account = "000123456789") {
  return {{"Name", "ACH"},
          {"Parameters",
           {{"RoutingNumber", routing},
            {"AccountNumber", account},
            {"AccountHolderName", "Sam Okafor"}}}};
}

json sepa(const std::string& iban) {
  return {{"Name", "SEPA Direct Debit"},
          {"Parameters", {{"IBAN", iban}, {"AccountHolderName", "Max Weber"}}}};
}

json intent(const json& method, const json& amounts) {
  json b = {{"SuccessURL", "https://shop.example/thanks"},
            {"FailureURL", "https://shop.example/sorry"},
            {"Payer",
             {{"Contact",
               {{"CrmFields",
                 {{"FirstName", "Sam"}, {"LastName", "Okafor"}, {"Email", "sam@example.org"}}}}}}},
            {"PaymentMethod", method}};
  b.update(amounts);
  return b;
}

std::string installment_of(TestOrg& t, const std::string& pi) {
  return t.get("/PaymentIntent/" + pi).json["OneTime"].value("Id", "");
}

void advance(TestOrg& t, const std::string& by) {
  REQUIRE(t.post("/__admin/clock", {{"advance", by}}, false).status == 200);
}

}  // namespace

TEST_CASE("a one-time ACH debit is collected on its due date through its own mandate",
          "[collections][ach]") {
  TestOrg t(fixture("nonprofit.yaml"));
  REQUIRE(t.post("/__admin/clock", {{"set", "2027-03-01T09:00:00Z"}}, false).status == 200);
  auto r = t.post("/PaymentIntent", intent(ach(), {{"OneTime", {{"Amount", 25}}}}));
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
  advance(t, "1d");
  inst = t.admin_record("cpm__Installment__c", id);
  CHECK(inst["cpm__Status__c"] == "Collected");
  CHECK(inst["cpm__Amount_Open__c"] == 0);
  auto payments = t.admin_records("cpm__Payment__c");
  REQUIRE(payments.size() == 1);
  CHECK(payments[0]["cpm__Payment_Method__c"] == "ACH");
  CHECK(payments[0]["cpm__Collection_Date__c"] == "2027-03-02");
  CHECK(payments[0]["cpm__Payment_Profile__c"] == inst["cpm__Payment_Profile__c"]);
  advance(t, "30d");
  CHECK(t.admin_records("cpm__Payment__c").size() == 1);
}

TEST_CASE("a recurring ACH donation is collected on every due date, its initial payment too",
          "[collections][ach]") {
  TestOrg t(fixture("nonprofit.yaml"));
  REQUIRE(t.post("/__admin/clock", {{"set", "2027-01-31T09:00:00Z"}}, false).status == 200);
  auto r = t.post("/PaymentIntent", intent(ach(), {{"OneTime", {{"Amount", 10}}},
                                                   {"Recurring",
                                                    {{"Amount", 10},
                                                     {"Frequency", "Monthly"},
                                                     {"StartDate", "2027-02-28"},
                                                     {"EndDate", "2027-04-30"}}}}));
  INFO(r.body);
  REQUIRE(r.status == 200);
  CHECK_FALSE(r.json.contains("RedirectURL"));
  const std::string first = installment_of(t, r.json["Id"]);
  REQUIRE_FALSE(first.empty());

  advance(t, "1d");  // 1 February: the initial payment is due
  CHECK(t.admin_record("cpm__Installment__c", first)["cpm__Status__c"] == "Collected");
  advance(t, "90d");  // 1 May: 28 February, 28 March, 28 April
  auto insts = t.admin_records("cpm__Installment__c");
  REQUIRE(insts.size() == 4);
  int collected = 0;
  for (const auto& i : insts) collected += i["cpm__Status__c"] == "Collected";
  CHECK(collected == 4);
  CHECK(t.admin_records("cpm__Payment__c").size() == 4);
}

TEST_CASE("ACH account data is checked: error 200 naming the parameter", "[ach][http]") {
  TestOrg t(fixture("nonprofit.yaml"));
  auto r = t.post("/PaymentIntent", intent(ach("011000016", "12"), {{"OneTime", {{"Amount", 5}}}}));
  INFO(r.body);
  REQUIRE(r.status == 422);
  REQUIRE(r.json["Errors"].size() == 2);
  CHECK(r.json["Errors"][0]["error_code"] == "200");
  CHECK(r.json["Errors"][0]["error_message"].get<std::string>().find("ABA check digit") !=
        std::string::npos);
  CHECK(r.json["Errors"][1]["error_code"] == "200");
  CHECK(r.json["Errors"][1]["error_message"].get<std::string>().find("AccountNumber '12'") !=
        std::string::npos);
  CHECK(t.admin_records("cpm__Installment__c").empty());
}

TEST_CASE("an inline debit's mandate ends when its installment is paid by card instead",
          "[collections][psp]") {
  TestOrg t(fixture("default.yaml"));
  REQUIRE(t.post("/__admin/clock", {{"set", "2027-03-01T09:00:00Z"}}, false).status == 200);
  auto debit = t.post("/PaymentIntent",
                      intent(sepa("DE89370400440532013000"), {{"OneTime", {{"Amount", 10}}}}));
  REQUIRE(debit.status == 200);
  const std::string id = installment_of(t, debit.json["Id"]);
  const std::string mandate_id =
      t.admin_record("cpm__Installment__c", id).value("cpm__Mandate__c", "");
  REQUIRE_FALSE(mandate_id.empty());

  json by_card = {{"SuccessURL", "https://shop.example/ok"},
                  {"FailureURL", "https://shop.example/ko"},
                  {"OneTime", {{"Id", id}}},
                  {"PaymentMethod", {{"Name", "CreditCard"}}}};
  auto r = t.post("/PaymentIntent", by_card);
  INFO(r.body);
  REQUIRE(r.status == 200);
  const std::string redirect = r.json["RedirectURL"];
  const std::string session = redirect.substr(redirect.rfind('/') + 1);
  // The page is open, not paid: the payer may still abandon it, so the
  // mandate stands until the money comes another way.
  CHECK(t.admin_record("cpm__Mandate__c", mandate_id)["cpm__Status__c"] == "Active");
  REQUIRE(t.post("/__admin/psp/" + session + "/complete", {{"outcome", "failure"}}, false).status ==
          200);
  CHECK(t.admin_record("cpm__Mandate__c", mandate_id)["cpm__Status__c"] == "Active");

  advance(t, "1d");
  REQUIRE(t.post("/__admin/psp/" + session + "/complete", {{"outcome", "success"}}, false).status ==
          200);
  auto mandate = t.admin_record("cpm__Mandate__c", mandate_id);
  CHECK(mandate["cpm__Status__c"] == "Inactive");
  CHECK(mandate["cpm__Deactivation_Date__c"] == "2027-03-02");
  advance(t, "30d");
  auto payments = t.admin_records("cpm__Payment__c");
  REQUIRE(payments.size() == 1);
  CHECK(payments[0]["cpm__Payment_Method__c"] == "CreditCard");
}

TEST_CASE("a new inline account for an installment ends its previous one-off mandate at once",
          "[collections]") {
  TestOrg t(fixture("default.yaml"));
  auto debit = t.post("/PaymentIntent",
                      intent(sepa("DE89370400440532013000"), {{"OneTime", {{"Amount", 10}}}}));
  REQUIRE(debit.status == 200);
  const std::string id = installment_of(t, debit.json["Id"]);
  const std::string old_mandate =
      t.admin_record("cpm__Installment__c", id).value("cpm__Mandate__c", "");
  json again = {{"SuccessURL", "https://shop.example/ok"},
                {"FailureURL", "https://shop.example/ko"},
                {"OneTime", {{"Id", id}}},
                {"PaymentMethod", sepa("DE02120300000000202051")}};
  auto r = t.post("/PaymentIntent", again);
  INFO(r.body);
  REQUIRE(r.status == 200);
  const std::string new_mandate =
      t.admin_record("cpm__Installment__c", id).value("cpm__Mandate__c", "");
  CHECK(new_mandate != old_mandate);
  CHECK(t.admin_record("cpm__Mandate__c", old_mandate)["cpm__Status__c"] == "Inactive");
  CHECK(t.admin_record("cpm__Mandate__c", new_mandate)["cpm__Status__c"] == "Active");
  advance(t, "1d");
  CHECK(t.admin_records("cpm__Payment__c").size() == 1);
}
