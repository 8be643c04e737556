// Payer flows a review of the fake found missing: the mandate of a one-time
// inline direct debit, and what the PSP returns for each kind of method.
#include <catch2/catch.hpp>

#include "domain/payments/collections.h"
#include "events/psp_signature.h"
#include "events/psp_simulator.h"
#include "testing/intent_body.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

// A one-time payment by Ada Weber.
IntentBody intent(const json& method, double amount = 10) {
  return IntentBody::one_time(method)
      .contact({{"FirstName", "Ada"}, {"LastName", "Weber"}, {"Email", "weber@example.de"}})
      .amount(amount);
}

json sepa(const std::string& iban) {
  return sepa_debit(iban, "Max Weber");
}

}  // namespace

TEST_CASE("a one-time inline direct debit creates its mandate and profile with the request",
          "[collections][psp]") {
  TestOrg t(fixture("default.yaml"));
  t.set_clock("2027-03-01T09:00:00Z");
  auto c = t.create_intent(intent(sepa("DE89 3704 0044 0532 0130 00")));
  CHECK(c.redirect.empty());

  // At once, in the request's transaction: an Active mandate signed today,
  // and the contact's profile holding the account.
  auto inst = t.admin_record("cpm__Installment__c", c.installment);
  const std::string mandate_id = inst.value("cpm__Mandate__c", "");
  const std::string profile_id = inst.value("cpm__Payment_Profile__c", "");
  REQUIRE_FALSE(mandate_id.empty());
  REQUIRE_FALSE(profile_id.empty());
  auto mandate = t.admin_record("cpm__Mandate__c", mandate_id);
  CHECK(mandate["cpm__Status__c"] == "Active");
  CHECK(mandate["cpm__Signature_Date__c"] == "2027-03-01");
  CHECK(mandate["cpm__Bank_Scheme__c"] == "SEPA");
  CHECK(mandate["cpm__Payment_Method__c"] == "SEPA Direct Debit");
  CHECK(mandate["cpm__Payment_Processor__c"] == "GoCardless");
  CHECK(mandate["cpm__Payment_Intent_Id__c"] == c.id);
  CHECK(mandate["cpm__Payment_Profile__c"] == profile_id);
  CHECK(mandate["cpm__Contact__c"] == inst["cpm__Contact__c"]);
  CHECK(mandate.value("cpm__Mandate_Reference__c", "").rfind("CPM-", 0) == 0);
  CHECK_FALSE(mandate.contains("cpm__Recurring_Payment__c"));
  auto profile = t.admin_record("cpm__Payment_Profile__c", profile_id);
  CHECK(profile["cpm__Contact__c"] == inst["cpm__Contact__c"]);
  // Typed in groups of four, stored in its electronic form (decisions row 26).
  CHECK(profile["cpm__IBAN__c"] == "DE89370400440532013000");
  CHECK(profile["cpm__Account_Holder_Name__c"] == "Max Weber");
  CHECK(profile["cpm__Active__c"] == true);
  CHECK(t.admin_records("cpm__Payment__c").empty());

  // Due today: collected when the clock moves, through that mandate's profile.
  t.advance_clock("1d");
  inst = t.admin_record("cpm__Installment__c", c.installment);
  CHECK(inst["cpm__Status__c"] == "Collected");
  CHECK(inst["cpm__Mandate__c"] == mandate_id);
  auto payments = t.admin_records("cpm__Payment__c");
  REQUIRE(payments.size() == 1);
  CHECK(payments[0]["cpm__Payment_Profile__c"] == profile_id);
  CHECK(payments[0]["cpm__Collection_Date__c"] == "2027-03-02");
  CHECK(t.admin_records("cpm__Payment_Profile__c").size() == 1);
}

TEST_CASE(
    "a second inline direct debit of the contact: its own mandate, a new profile for "
    "another account, the same profile for the same account",
    "[collections][psp]") {
  TestOrg t(fixture("default.yaml"));
  auto first = t.create_intent(intent(sepa(kIban)));
  auto a = t.admin_record("cpm__Installment__c", first.installment);
  json again =
      intent(sepa(collection_magic::kIbanFailsAtCollection)).contact_id(a["cpm__Contact__c"]);
  auto second = t.create_intent(again);
  auto b = t.admin_record("cpm__Installment__c", second.installment);
  REQUIRE(a["cpm__Contact__c"] == b["cpm__Contact__c"]);
  CHECK(a["cpm__Mandate__c"] != b["cpm__Mandate__c"]);
  CHECK(t.admin_records("cpm__Mandate__c").size() == 2);
  // Another account: a profile of its own; the first keeps its account, inactive
  // (decisions row 26), so the first debit is still collected from it.
  CHECK(a["cpm__Payment_Profile__c"] != b["cpm__Payment_Profile__c"]);
  REQUIRE(t.admin_records("cpm__Payment_Profile__c").size() == 2);
  auto pa = t.admin_record("cpm__Payment_Profile__c", a["cpm__Payment_Profile__c"]);
  auto pb = t.admin_record("cpm__Payment_Profile__c", b["cpm__Payment_Profile__c"]);
  CHECK(pa["cpm__IBAN__c"] == "DE89370400440532013000");
  CHECK(pa["cpm__Active__c"] == false);
  CHECK(pb["cpm__IBAN__c"] == collection_magic::kIbanFailsAtCollection);
  CHECK(pb["cpm__Active__c"] == true);

  // The same account again: the active profile, reused.
  auto third = t.create_intent(again);
  auto c = t.admin_record("cpm__Installment__c", third.installment);
  CHECK(c["cpm__Payment_Profile__c"] == b["cpm__Payment_Profile__c"]);
  CHECK(t.admin_records("cpm__Payment_Profile__c").size() == 2);

  t.advance_clock("1d");
  CHECK(t.admin_record("cpm__Installment__c", first.installment)["cpm__Status__c"] == "Collected");
  b = t.admin_record("cpm__Installment__c", second.installment);
  CHECK(b["cpm__Status__c"] == "Failed");
  CHECK(b.value("cpm__Failure_Reason__c", "").rfind("AC04", 0) == 0);
}

TEST_CASE("a Bacs one-time debit gets a Bacs mandate with the sort code on the profile",
          "[collections][psp]") {
  TestOrg t(fixture("default.yaml"));
  auto c = t.create_intent(intent(bacs_debit("Max Weber", "601613", "31926819")).currency("GBP"));
  auto inst = t.admin_record("cpm__Installment__c", c.installment);
  auto mandate = t.admin_record("cpm__Mandate__c", inst.value("cpm__Mandate__c", "?"));
  CHECK(mandate["cpm__Bank_Scheme__c"] == "Bacs");
  CHECK(mandate["cpm__Status__c"] == "Active");
  auto profile =
      t.admin_record("cpm__Payment_Profile__c", inst.value("cpm__Payment_Profile__c", "?"));
  CHECK(profile["cpm__Sort_Code__c"] == "601613");
  CHECK(profile["cpm__Account_Number__c"] == "31926819");
}

TEST_CASE("a hosted card payment creates no mandate up front", "[collections][psp]") {
  TestOrg t(fixture("default.yaml"));
  auto c = t.create_intent(intent(card()));
  CHECK_FALSE(c.redirect.empty());
  auto inst = t.admin_record("cpm__Installment__c", c.installment);
  CHECK_FALSE(inst.contains("cpm__Mandate__c"));
  CHECK(t.admin_records("cpm__Mandate__c").empty());
}

namespace {

const char* kCardFields[] = {"cpm__Card_Brand__c", "cpm__Card_Last_Four__c",
                             "cpm__Card_Expiry_Month__c", "cpm__Card_Expiry_Year__c",
                             "cpm__Card_Holder_Name__c"};

}  // namespace

TEST_CASE("a wallet method's profile holds the payer's login, never card data", "[psp]") {
  TestOrg t(fixture("default.yaml"));
  auto c = t.create_intent(intent(payment_method("PayPal")));
  const std::string session = c.session;
  auto page = t.page_client().Get(("/psp/checkout/" + session).c_str());
  REQUIRE(page);
  CHECK(page->body.find("name=\"email\"") != std::string::npos);
  CHECK(page->body.find("card_number") == std::string::npos);
  CHECK(page->body.find("name=\"iban\"") == std::string::npos);

  auto paid = t.submit_checkout(
      session, httplib::Params{{"action", "pay"}, {"email", "ada@wallet.example"}});
  REQUIRE(paid);
  CHECK(paid->status == 303);
  auto profiles = t.admin_records("cpm__Payment_Profile__c");
  REQUIRE(profiles.size() == 1);
  const auto& p = profiles[0];
  INFO(p.dump(2));
  CHECK(p["cpm__Payment_Method__c"] == "PayPal");
  CHECK(p["cpm__Wallet_Email__c"] == "ada@wallet.example");
  const std::string payer_id = p.value("cpm__Wallet_Account_Id__c", "");
  CHECK(payer_id.size() == 13);
  for (const char* f : kCardFields) CHECK_FALSE(p.contains(f));
  CHECK_FALSE(p.contains("cpm__IBAN__c"));

  // The same login pays again (headless driver): same payer id, same profile.
  json again = intent(payment_method("PayPal")).contact_id(p["cpm__Contact__c"]);
  auto second = t.create_intent(again);
  auto done =
      t.complete_session(second.session, {{"outcome", "success"}, {"email", "ada@wallet.example"}});
  INFO(done.body);
  REQUIRE(done.status == 200);
  profiles = t.admin_records("cpm__Payment_Profile__c");
  REQUIRE(profiles.size() == 1);
  CHECK(profiles[0]["cpm__Wallet_Account_Id__c"] == payer_id);
}

TEST_CASE("the fixture's method kind, not the method's name, decides card or bank", "[psp]") {
  // Names that once fooled the name test: a card method without "Card" in
  // its name, and a hosted bank method with "Card" in it.
  TestOrg t(fixture_text(R"y(
extends: default.yaml
payment_methods:
  - name: QuickPay
    kind: card
    processors:
      - {name: Nets, default: true, hosted_page: true}
  - name: Bank Card Transfer
    kind: bank
    processors:
      - {name: Trustly, default: true, hosted_page: true}
)y"));
  auto card = t.create_intent(intent(payment_method("QuickPay")));
  auto page = t.page_client().Get(("/psp/checkout/" + card.session).c_str());
  REQUIRE(page);
  CHECK(page->body.find("card_number") != std::string::npos);
  CHECK(page->body.find("name=\"iban\"") == std::string::npos);
  REQUIRE(t.complete_session(card.session,
                             {{"outcome", "success"}, {"card_number", "5555555555554444"}})
              .status == 200);

  auto bank = t.create_intent(intent(payment_method("Bank Card Transfer")));
  page = t.page_client().Get(("/psp/checkout/" + bank.session).c_str());
  REQUIRE(page);
  CHECK(page->body.find("name=\"iban\"") != std::string::npos);
  CHECK(page->body.find("card_number") == std::string::npos);
  REQUIRE(t.complete_session(bank.session, {{"outcome", "success"}, {"iban", kIban}}).status ==
          200);

  auto card_inst = t.admin_record("cpm__Installment__c", card.installment);
  auto bank_inst = t.admin_record("cpm__Installment__c", bank.installment);
  auto card_profile = t.admin_record("cpm__Payment_Profile__c",
                                     card_inst["cpm__Payment_Profile__c"].get<std::string>());
  auto bank_profile = t.admin_record("cpm__Payment_Profile__c",
                                     bank_inst["cpm__Payment_Profile__c"].get<std::string>());
  CHECK(card_profile["cpm__Card_Brand__c"] == "Mastercard");
  CHECK(card_profile["cpm__Card_Last_Four__c"] == "4444");
  CHECK(bank_profile["cpm__IBAN__c"] == "DE89370400440532013000");
  for (const char* f : kCardFields) CHECK_FALSE(bank_profile.contains(f));
}

TEST_CASE("the decline IBAN is refused on a hosted bank page, a good IBAN then pays", "[psp]") {
  TestOrg t(fixture("multi_connector.yaml"));
  auto methods = t.get("/PaymentMethods");
  REQUIRE(methods.status == 200);
  bool listed = false;
  for (const auto& m : methods.json["PaymentMethods"]) listed = listed || m["Name"] == "iDEAL";
  CHECK(listed);

  auto c = t.create_intent(intent(payment_method("iDEAL"), 15));
  const std::string session = c.session;
  auto page = t.page_client().Get(("/psp/checkout/" + session).c_str());
  REQUIRE(page);
  CHECK(page->body.find("name=\"iban\"") != std::string::npos);
  CHECK(page->body.find(psp_magic::kIbanDecline) != std::string::npos);  // the hint names it

  auto declined = t.submit_checkout(
      session,
      httplib::Params{{"action", "pay"}, {"iban", "DE62 3704 0044 0532 0130 01"}, {"holder", "A"}});
  REQUIRE(declined);
  CHECK(declined->status == 303);
  CHECK(declined->get_header_value("Location") ==
        "https://shop.example/sorry?payment_intent=" + c.id);
  auto inst = t.admin_record("cpm__Installment__c", c.installment);
  CHECK(inst["cpm__Status__c"] == "Outstanding");
  CHECK(inst["cpm__Amount_Open__c"] == 15);
  CHECK(t.admin_records("cpm__Payment__c").empty());
  CHECK(t.admin_records("cpm__Payment_Profile__c").empty());

  // The payer retries from the same page with a good account.
  auto paid = t.submit_checkout(
      session,
      httplib::Params{{"action", "pay"}, {"iban", "DE89370400440532013000"}, {"holder", "A"}});
  REQUIRE(paid);
  CHECK(paid->status == 303);
  CHECK(paid->get_header_value("Location") == "https://shop.example/thanks?payment_intent=" + c.id);
  inst = t.admin_record("cpm__Installment__c", c.installment);
  CHECK(inst["cpm__Status__c"] == "Collected");
  auto profiles = t.admin_records("cpm__Payment_Profile__c");
  REQUIRE(profiles.size() == 1);
  CHECK(profiles[0]["cpm__IBAN__c"] == "DE89370400440532013000");
  CHECK(profiles[0]["cpm__Payment_Method__c"] == "iDEAL");
  CHECK(t.admin_records("cpm__Payment__c").size() == 1);
}

TEST_CASE("a hosted bank page: another IBAN gets a profile of its own, the same one reuses it",
          "[psp]") {
  TestOrg t(fixture("multi_connector.yaml"));
  auto pay = [&](const json& body, const std::string& iban) {
    auto c = t.create_intent(body);
    auto paid = t.submit_checkout(
        c.session, httplib::Params{{"action", "pay"}, {"iban", iban}, {"holder", "A"}});
    REQUIRE(paid);
    CHECK(paid->status == 303);
    auto inst = t.admin_record("cpm__Installment__c", c.installment);
    CHECK(inst["cpm__Status__c"] == "Collected");
    auto payments = t.admin_records("cpm__Payment__c");
    return std::make_pair(inst, payments.back());
  };
  auto [first, first_payment] = pay(intent(payment_method("iDEAL"), 15), "NL91ABNA0417164300");
  json again = intent(payment_method("iDEAL"), 20).contact_id(first["cpm__Contact__c"]);
  auto [second, second_payment] = pay(again, "DE89370400440532013000");
  const std::string a = first_payment.value("cpm__Payment_Profile__c", "");
  const std::string b = second_payment.value("cpm__Payment_Profile__c", "");
  REQUIRE_FALSE(a.empty());
  CHECK(a != b);
  // The first payment's profile still holds the account it was paid from.
  auto pa = t.admin_record("cpm__Payment_Profile__c", a);
  CHECK(pa["cpm__IBAN__c"] == "NL91ABNA0417164300");
  CHECK(pa["cpm__Active__c"] == false);
  CHECK(t.admin_record("cpm__Payment_Profile__c", b)["cpm__Active__c"] == true);
  // The same account again, spaced: the active profile.
  auto [third, third_payment] = pay(again, "DE89 3704 0044 0532 0130 00");
  CHECK(third_payment.value("cpm__Payment_Profile__c", "") == b);
  CHECK(t.admin_records("cpm__Payment_Profile__c").size() == 2);
}

TEST_CASE("POST /psp/callback refuses unsigned or wrongly signed callbacks and changes nothing",
          "[psp]") {
  TestOrg t(fixture("default.yaml"));
  auto c = t.create_intent(intent(card()));
  const std::string session = c.session;
  const std::string body =
      json{{"session", session},
           {"payment_intent", c.id},
           {"outcome", "success"},
           {"psp_reference", "psp_forged"},
           {"card", {{"brand", "Visa"}, {"last4", "4242"}, {"exp_month", 12}, {"exp_year", 2030}}}}
          .dump();
  const std::string& key = t.org().psp_callback_secret();
  CHECK(key.size() == 64);
  struct Case {
    const char* what;
    std::string signature;  // empty: no header
  };
  const Case cases[] = {
      {"unsigned", ""},
      {"signed with another key", psp_signature("not the org's key", unix_now(), body)},
      {"signed over another body", psp_signature(key, unix_now(), body + " ")},
      {"stale", psp_signature(key, unix_now() - kPspSignatureTolerance - 60, body)},
      {"malformed", "v1=forged"},
  };
  auto client = t.page_client();
  for (const auto& k : cases) {
    CAPTURE(k.what);
    httplib::Headers headers;
    if (!k.signature.empty()) headers.emplace(kPspSignatureHeader, k.signature);
    auto r = client.Post("/psp/callback", headers, body, "application/json");
    REQUIRE(r);
    CHECK(r->status == 401);
    auto errors = json::parse(r->body, nullptr, false);
    INFO(r->body);
    REQUIRE(errors.contains("Errors"));
    REQUIRE(errors["Errors"].size() == 1);
    CHECK(errors["Errors"][0]["error_code"] == "999");
    CHECK(errors["Errors"][0]["error_message"].get<std::string>().find(kPspSignatureHeader) !=
          std::string::npos);
  }
  // Nothing changed: the installment is open, no payment, the session untouched.
  auto inst = t.admin_record("cpm__Installment__c", c.installment);
  CHECK(inst["cpm__Status__c"] == "Outstanding");
  CHECK(t.admin_records("cpm__Payment__c").empty());
  CHECK(t.admin_records("cpm__Payment_Profile__c").empty());
  auto s = t.org().psp_sessions().get(session);
  REQUIRE(s);
  CHECK(s->status == "pending");
  CHECK(s->attempts == 0);

  // Signed with the org's key, the same callback is applied.
  httplib::Headers signed_headers{{kPspSignatureHeader, psp_signature(key, unix_now(), body)}};
  auto ok = client.Post("/psp/callback", signed_headers, body, "application/json");
  REQUIRE(ok);
  INFO(ok->body);
  CHECK(ok->status == 200);
  CHECK(t.admin_record("cpm__Installment__c", c.installment)["cpm__Status__c"] == "Collected");
}

TEST_CASE("each org start has its own PSP key", "[psp]") {
  TestOrg a(fixture("default.yaml"));
  TestOrg b(fixture("default.yaml"));
  CHECK(a.org().psp_callback_secret() != b.org().psp_callback_secret());
}

TEST_CASE("paying an open installment by another method uses that method's own mandate and profile",
          "[collections][psp]") {
  TestOrg t(fixture("default.yaml"));
  t.set_clock("2027-03-01T09:00:00Z");
  // A direct debit installment paid by card on the hosted page: the card
  // gets its own profile, the account's profile keeps no card data.
  auto debit = t.create_intent(intent(sepa(kIban)));
  auto r = t.post("/PaymentIntent", IntentBody::pay_installment(debit.installment, card()));
  INFO(r.body);
  REQUIRE(r.status == 200);
  const std::string redirect = r.json["RedirectURL"];
  const std::string debit_profile =
      t.admin_record("cpm__Installment__c", debit.installment).value("cpm__Payment_Profile__c", "");
  CHECK(debit_profile.empty());
  REQUIRE(t.complete_session(redirect.substr(redirect.rfind('/') + 1)).status == 200);
  auto inst = t.admin_record("cpm__Installment__c", debit.installment);
  CHECK(inst["cpm__Status__c"] == "Collected");
  auto card_profile =
      t.admin_record("cpm__Payment_Profile__c", inst["cpm__Payment_Profile__c"].get<std::string>());
  CHECK(card_profile["cpm__Payment_Method__c"] == "CreditCard");
  CHECK(card_profile["cpm__Card_Last_Four__c"] == "4242");
  for (const auto& p : t.admin_records("cpm__Payment_Profile__c"))
    if (p["cpm__Payment_Method__c"] == "SEPA Direct Debit")
      CHECK_FALSE(p.contains("cpm__Card_Last_Four__c"));
  // A card installment left open, then paid by SEPA direct debit.
  auto card = t.create_intent(intent(payment_method("CreditCard")));
  r = t.post("/PaymentIntent", IntentBody::pay_installment(card.installment, sepa(kIban)));
  INFO(r.body);
  REQUIRE(r.status == 200);
  CHECK_FALSE(r.json.contains("RedirectURL"));
  inst = t.admin_record("cpm__Installment__c", card.installment);
  auto mandate = t.admin_record("cpm__Mandate__c", inst.value("cpm__Mandate__c", "?"));
  CHECK(mandate["cpm__Status__c"] == "Active");
  CHECK(mandate["cpm__Payment_Intent_Id__c"] == r.json["Id"]);
  t.advance_clock("1d");
  CHECK(t.admin_record("cpm__Installment__c", card.installment)["cpm__Status__c"] == "Collected");
}

TEST_CASE(
    "a fixture whose failed status is Cancelled: a returned direct debit is Cancelled, "
    "and can still be paid by card",
    "[collections][psp]") {
  // Cancelled is in the catalog's installment status picklist; only this fixture
  // setting produces it (decisions.md, installment transitions).
  // A token that outlives the clock moves, so the reads go through the API.
  TestOrg t(
      fixture_text("extends: default.yaml\norg:\n  installment_failed_status: Cancelled\n"
                   "auth:\n  token_lifetime: 400d\n"));
  t.set_clock("2027-03-01T09:00:00Z");
  auto c = t.create_intent(intent(sepa(collection_magic::kIbanFailsAtCollection), 20));
  CHECK(t.get("/Installment/" + c.installment).json["Status"] == "Outstanding");

  t.advance_clock("1d");
  auto read = t.get("/Installment/" + c.installment);
  REQUIRE(read.status == 200);
  CHECK(read.json["Status"] == "Cancelled");
  CHECK(read.json["AmountOpen"] == 20);
  CHECK(read.json["Payments"].empty());
  CHECK(t.get("/Payment/" + c.installment).json["Payment"]["Status"] == "Cancelled");
  auto inst = t.admin_record("cpm__Installment__c", c.installment);
  CHECK(inst.value("cpm__Failure_Reason__c", "").rfind("AC04", 0) == 0);
  CHECK(t.admin_records("cpm__Payment__c").empty());
  // Not collected again by a later clock move.
  t.advance_clock("30d");
  CHECK(t.get("/Installment/" + c.installment).json["Status"] == "Cancelled");
  CHECK(t.admin_records("cpm__Payment__c").empty());

  // The open amount can still be paid (spec 2.4): by card on the hosted page.
  auto r = t.post("/PaymentIntent", IntentBody::pay_installment(c.installment, card()));
  INFO(r.body);
  REQUIRE(r.status == 200);
  const std::string redirect = r.json["RedirectURL"];
  REQUIRE(t.complete_session(redirect.substr(redirect.rfind('/') + 1)).status == 200);
  read = t.get("/Installment/" + c.installment);
  CHECK(read.json["Status"] == "Collected");
  CHECK(read.json["AmountOpen"] == 0);
  CHECK(t.admin_records("cpm__Payment__c").size() == 1);
}
