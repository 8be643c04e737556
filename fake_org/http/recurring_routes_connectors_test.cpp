// Recurring payments over real HTTP on the multi-connector fixture: every
// source connector under every InitialPaymentonRecurring value, updates per
// connector, spec 4.1 rule 3 (mandate and profile parameters) and package
// actions (spec 2.8) in the recurring and one-time flows.
#include "domain/core/fields.h"
#include "testing/intent_body.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

// The fixtures' processors; an update names the processor (spec 4.1).
const json kSepaGc = with_processor(sepa_debit(), "GoCardless");
const json kCardAdyen = card("Adyen");

json gift_aid() {
  return json::parse(R"j({"cpm_GiftAid": {"Declaration": {
    "DeclarationDate": "2027-02-20", "ValidFrom": "2027-02-20", "ValidTo": "2031-02-19",
    "Title": "Ms", "FirstName": "Ada", "LastName": "Lovelace", "HouseNameOrNumber": "12",
    "Street": "St James's Square", "City": "London", "PostalCode": "SW1Y 4JH",
    "Country": "United Kingdom", "Overseas": false, "AcquisitionMethod": "Online"}}})j");
}

const json kPaySuite = with_processor(bacs_debit(), "Access PaySuite");

}  // namespace

TEST_CASE("every connector under every initial payment rule", "[http][recurring]") {
  TestOrg t(fixture("multi_connector.yaml"));
  struct Connector {
    const char* name;
    const char* object;
    const char* link;  // the installment's lookup to the recurring record
  };
  const std::vector<Connector> connectors = {
      {"cpm_Native", "cpm__Recurring_Payment__c", "cpm__Recurring_Payment__c"},
      {"npsp_RecurringDonations", "npe03__Recurring_Donation__c", "cpm__Recurring_Donation__c"},
      {"sf_Fundraising", "GiftCommitment", "cpm__Gift_Commitment__c"}};
  struct Rule {
    const char* value;
    json method;
    bool without_ok, with_ok;
  };
  const std::vector<Rule> rules = {{"Required", card(), false, true},
                                   {"Optional", kSepaGc, true, true},
                                   {"No", bacs_debit(), true, false}};
  for (const auto& c : connectors) {
    for (const auto& rule : rules) {
      CAPTURE(c.name, rule.value);
      for (bool with_first : {false, true}) {
        CAPTURE(with_first);
        const size_t before = t.records_of(objects::kInstallment).size();
        const size_t records = t.records_of(c.object).size();
        auto body = IntentBody::recurring(rule.method).source_connector(c.name);
        if (rule.method == bacs_debit()) body.series_currency("GBP");  // Bacs collects in GBP
        if (with_first) body.initial_payment(10);
        auto r = t.post("/PaymentIntent", body);
        const bool ok = with_first ? rule.with_ok : rule.without_ok;
        if (!ok) {
          REQUIRE(r.status == 400);
          CHECK(code_of(r) == "010");
          CHECK(message_of(r).find(std::string("InitialPaymentonRecurring = ") + rule.value) !=
                std::string::npos);
          CHECK(t.records_of(c.object).size() == records);
          CHECK(t.records_of(objects::kInstallment).size() == before);
          continue;
        }
        REQUIRE(r.status == 200);
        CHECK(r.json["Settings"]["SourceConnector"] == c.name);
        std::string id = t.recurring_id(r);
        CHECK(t.record(id).object == c.object);
        auto insts = t.records_of(objects::kInstallment);
        CHECK(insts.size() == before + (with_first ? 1 : 0));
        if (with_first) CHECK(insts.back().text(c.link) == id);
        auto get = t.get("/Recurring/" + id);
        REQUIRE(get.status == 200);
        CHECK(get.json["Type"] == c.object);
        CHECK(get.json["SourceConnector"] == c.name);
        CHECK(t.get("/Recurring/" + t.record(id).guid).json == get.json);
      }
    }
  }
}

TEST_CASE("updates of nonprofit and fundraising records between direct debit and card",
          "[http][recurring]") {
  TestOrg t(fixture("multi_connector.yaml"));
  for (const std::string connector : {"npsp_RecurringDonations", "sf_Fundraising"}) {
    CAPTURE(connector);
    std::string id = t.recurring_id(
        t.post("/PaymentIntent", IntentBody::recurring(kSepaGc).source_connector(connector)));
    const std::string dd_mandate = t.record(id).text("cpm__Mandate__c");

    // Direct debit -> card: OneTime with Amount, then a RedirectURL.
    auto no_first = t.post(
        "/PaymentIntent", IntentBody::update_recurring(id, kCardAdyen).source_connector(connector));
    REQUIRE(no_first.status == 400);
    CHECK(code_of(no_first) == "010");
    auto card = t.post("/PaymentIntent", IntentBody::update_recurring(id, kCardAdyen)
                                             .initial_payment(10)
                                             .source_connector(connector));
    REQUIRE(card.status == 200);
    CHECK(card.json.contains("RedirectURL"));
    Record rec = t.record(id);
    CHECK(rec.text("cpm__Payment_Method__c") == "CreditCard");
    CHECK(t.record(dd_mandate).text("cpm__Status__c") == "Inactive");
    if (connector == "sf_Fundraising")
      CHECK(t.record(rec.text("CurrentGiftCmtScheduleId")).text("PaymentMethod") == "Credit Card");

    // Card -> direct debit: a new active mandate and a profile with the account.
    const std::string card_mandate = rec.text("cpm__Mandate__c");
    auto dd = t.post("/PaymentIntent",
                     IntentBody::update_recurring(id, kSepaGc).source_connector(connector));
    REQUIRE(dd.status == 200);
    CHECK_FALSE(dd.json.contains("RedirectURL"));
    Record after = t.record(id);
    CHECK(t.record(card_mandate).text("cpm__Status__c") == "Inactive");
    Record mandate = t.record(after.text("cpm__Mandate__c"));
    CHECK(mandate.text("cpm__Status__c") == "Active");
    CHECK(mandate.text("cpm__Bank_Scheme__c") == "SEPA");
    CHECK(t.record(after.text("cpm__Payment_Profile__c")).text("cpm__IBAN__c") ==
          "DE89370400440532013000");
    if (connector == "sf_Fundraising")
      CHECK(t.record(after.text("CurrentGiftCmtScheduleId")).text("PaymentMethod") ==
            "Direct Debit");

    // Without Settings.SourceConnector: 012, nothing changes.
    auto no_settings = t.post("/PaymentIntent", IntentBody::update_recurring(id, kSepaGc));
    REQUIRE(no_settings.status == 400);
    CHECK(code_of(no_settings) == "012");
    CHECK(t.record(id).text("cpm__Mandate__c") == after.text("cpm__Mandate__c"));
  }
}

TEST_CASE("an update's additional parameters change mandate and profile (spec 4.1 rule 3)",
          "[http][recurring]") {
  TestOrg t(fixture("default.yaml"));
  std::string id = t.recurring_id(t.post("/PaymentIntent", IntentBody::recurring(sepa_debit())));
  const json update =
      IntentBody::update_recurring(id, kSepaGc)
          .parameter("MandateReference", "NHWT-2027-000042")
          .parameter("SignatureDate", "2026-01-15")  // in the past of the real clock
          .parameter("Mandate.cpm__Description__c", "Signed on paper at the gala")
          .parameter("PaymentProfile.cpm__Bank_Name__c", "Commerzbank");
  auto r = t.post("/PaymentIntent", update);
  REQUIRE(r.status == 200);
  // The response echoes the parameters: the scope of the change.
  CHECK(r.json["PaymentMethod"]["Parameters"] == update["PaymentMethod"]["Parameters"]);
  CHECK_FALSE(r.json.contains("RedirectURL"));
  Record rec = t.record(id);
  Record mandate = t.record(rec.text("cpm__Mandate__c"));
  CHECK(mandate.text("cpm__Mandate_Reference__c") == "NHWT-2027-000042");
  CHECK(mandate.text("cpm__Signature_Date__c") == "2026-01-15");
  CHECK(mandate.text("cpm__Description__c") == "Signed on paper at the gala");
  Record profile = t.record(rec.text("cpm__Payment_Profile__c"));
  CHECK(profile.text("cpm__Bank_Name__c") == "Commerzbank");

  struct Bad {
    const char* key;
    json value;
    const char* says;
  };
  const std::vector<Bad> bad = {
      {"MandateReference", std::string(36, 'R'), "longer than 35 characters"},
      {"SignatureDate", "2999-01-01", "today or earlier"},
      {"Mandate.cpm__Status__c", "Active", "cpm__Mandate__c"},
      {"PaymentProfile.Nope__c", "x", "cpm__Payment_Profile__c"}};
  for (const auto& b : bad) {
    CAPTURE(b.key);
    auto e = t.post("/PaymentIntent",
                    IntentBody::update_recurring(id, kSepaGc).parameter(b.key, b.value));
    REQUIRE(e.status == 422);
    CHECK(code_of(e) == "200");
    CHECK(message_of(e).find(b.says) != std::string::npos);
    CHECK(t.record(id).text("cpm__Mandate__c") == mandate.id);
  }
}

TEST_CASE("a required package action is checked in the domain and creates a declaration",
          "[http][recurring][package_actions]") {
  TestOrg t(fixture("default.yaml"));
  auto missing = t.post("/PaymentIntent", IntentBody::recurring(kPaySuite));
  REQUIRE(missing.status == 400);
  CHECK(code_of(missing) == "010");
  CHECK(message_of(missing).find("requires package action cpm_GiftAid.Declaration") !=
        std::string::npos);
  CHECK(t.records_of(objects::kRecurringPayment).empty());

  json wrong = IntentBody::recurring(kPaySuite).package_actions(gift_aid());
  wrong["PackageActions"]["cpm_GiftAid"]["Declaration"].erase("LastName");
  wrong["PackageActions"]["cpm_GiftAid"]["Declaration"]["ValidFrom"] = "next week";
  auto e = t.post("/PaymentIntent", wrong);
  CHECK(e.status >= 400);
  REQUIRE(e.json["Errors"].size() == 2);

  // A failure later in the request (the payer's email) leaves no declaration.
  IntentBody later =
      IntentBody::recurring(kPaySuite)
          .package_actions(gift_aid())
          .contact({{"FirstName", "Ada"}, {"LastName", "Lovelace"}, {"Email", "not-an-email"}});
  CHECK(t.post("/PaymentIntent", later).status == 422);
  CHECK(t.records_of(objects::kGiftAidDeclaration).empty());

  auto r =
      t.post("/PaymentIntent",
             IntentBody::recurring(kPaySuite).series_currency("GBP").package_actions(gift_aid()));
  REQUIRE(r.status == 200);
  std::string id = t.recurring_id(r);
  auto declarations = t.records_of(objects::kGiftAidDeclaration);
  REQUIRE(declarations.size() == 1);
  const Record& d = declarations[0];
  CHECK(d.text("cpm__Contact__c") == t.record(id).text("cpm__Contact__c"));
  CHECK(d.text("cpm__Payment_Intent_Id__c") == r.json["Id"]);
  CHECK(d.text("cpm__Declaration_Date__c") == "2027-02-20");
  CHECK(d.text("cpm__Valid_To__c") == "2031-02-19");
  CHECK(d.text("cpm__First_Name__c") == "Ada");
  CHECK(d.text("cpm__Last_Name__c") == "Lovelace");
  CHECK(d.text("cpm__House_Name_Or_Number__c") == "12");
  CHECK(d.text("cpm__Postal_Code__c") == "SW1Y 4JH");
  CHECK(d.fields["cpm__Overseas__c"] == false);
  CHECK(d.text("cpm__Acquisition_Method__c") == "Online");

  // An update to the processor needs it too.
  // (A Bacs series in GBP, the currency Bacs collects in: decisions 71.)
  std::string smart = t.recurring_id(
      t.post("/PaymentIntent", IntentBody::recurring(bacs_debit()).series_currency("GBP")));
  CHECK(code_of(t.post("/PaymentIntent", IntentBody::update_recurring(smart, kPaySuite))) == "010");
  REQUIRE(t.post("/PaymentIntent",
                 IntentBody::update_recurring(smart, kPaySuite).package_actions(gift_aid()))
              .status == 200);
  CHECK(t.records_of(objects::kGiftAidDeclaration).size() == 2);

  // A one-time payment may carry a declaration its method does not require.
  json one = IntentBody::one_time(sepa_debit()).amount(10).package_actions(gift_aid());
  one["PackageActions"]["cpm_GiftAid"]["Declaration"]["Overseas"] = "yes";
  auto bad_type = t.post("/PaymentIntent", one);
  REQUIRE(bad_type.status == 422);
  CHECK(message_of(bad_type).find("must be true or false") != std::string::npos);
  one["PackageActions"]["cpm_GiftAid"]["Declaration"]["Overseas"] = true;
  REQUIRE(t.post("/PaymentIntent", one).status == 200);
  auto after = t.records_of(objects::kGiftAidDeclaration);
  REQUIRE(after.size() == 3);
  CHECK(after.back().fields["cpm__Overseas__c"] == true);
}
