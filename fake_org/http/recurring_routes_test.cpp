// New recurring payments per source connector, the initial payment rule,
// updates (spec 4.1 rules 1 to 5), GET /Recurring/{ID} and the bank-account
// codes 201 to 206, over real HTTP.
#include <catch2/catch.hpp>

#include "domain/core/fields.h"
#include "testing/intent_body.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

// default.yaml's SEPA processor, named as an update must (spec 4.1).
const json kSepaGoCardless = with_processor(sepa_debit(), "GoCardless");

}  // namespace

TEST_CASE("native: card (Required) needs OneTime and answers with a RedirectURL",
          "[http][recurring]") {
  TestOrg t(fixture("default.yaml"));
  auto bad = t.post("/PaymentIntent", IntentBody::recurring(card()));
  REQUIRE(bad.status == 400);
  CHECK(code_of(bad) == "010");
  CHECK(message_of(bad).find("InitialPaymentonRecurring = Required") != std::string::npos);
  CHECK(message_of(bad).find("CreditCard with processor Stripe") != std::string::npos);
  CHECK(t.records_of(objects::kRecurringPayment).empty());

  auto r = t.post("/PaymentIntent", IntentBody::recurring(card())
                                        .initial_payment(10)
                                        .end_date("2028-01-31")
                                        .recurring_fields({{"cpm__Description__c", "Monthly gift"},
                                                           {"Appeal_Code__c", "SPRING"}})
                                        .campaign("7017Q00000Sprg1QAB"));
  REQUIRE(r.status == 200);
  CHECK(r.json["RedirectURL"].get<std::string>().find("/psp/checkout/cs_") != std::string::npos);
  CHECK(r.json["Settings"]["SourceConnector"] == "cpm_Native");
  std::string id = t.recurring_id(r);
  Record rec = t.record(id);
  CHECK(rec.object == "cpm__Recurring_Payment__c");
  CHECK(rec.text("cpm__Frequency__c") == "Monthly");
  CHECK(rec.text("cpm__Start_Date__c") == "2027-02-01");
  CHECK(rec.text("cpm__End_Date__c") == "2028-01-31");
  CHECK(rec.text("cpm__Status__c") == "Pending");
  CHECK(rec.text("cpm__Campaign__c") == "7017Q00000Sprg1QAB");
  CHECK(rec.text("Appeal_Code__c") == "SPRING");
  CHECK(rec.text("cpm__Setup_URL__c") == r.json["RedirectURL"]);

  auto insts = t.records_of(objects::kInstallment);
  REQUIRE(insts.size() == 1);
  CHECK(insts[0].text("cpm__Recurring_Payment__c") == id);
  CHECK(insts[0].text("cpm__Mandate__c") == rec.text("cpm__Mandate__c"));
  Record mandate = t.record(rec.text("cpm__Mandate__c"));
  CHECK(mandate.text("cpm__Status__c") == "Pending");
  CHECK(mandate.text("cpm__Recurring_Payment__c") == id);
  Record profile = t.record(rec.text("cpm__Payment_Profile__c"));
  CHECK(profile.text("cpm__Contact__c") == insts[0].text("cpm__Contact__c"));
  CHECK(profile.text("cpm__Payment_Processor__c") == "Stripe");

  auto report = t.records_of(objects::kInboundReport).back();
  CHECK(report.text("cpm__Recurring_Id__c") == id);
  CHECK(report.text("cpm__Recurring_Object__c") == "cpm__Recurring_Payment__c");

  auto get = t.get("/Recurring/" + id);
  REQUIRE(get.status == 200);
  CHECK(get.json["Id"] == id);
  CHECK(get.json["GUID"] == rec.guid);
  CHECK(get.json["Type"] == "cpm__Recurring_Payment__c");
  CHECK(get.json["Amount"] == 10);
  CHECK(get.json["CurrencyISOCode"] == "EUR");
  CHECK(get.json["Frequency"] == "Monthly");
  CHECK(get.json["StartDate"] == "2027-02-01");
  CHECK(get.json["EndDate"] == "2028-01-31");
  CHECK(get.json["Description"] == "Monthly gift");
  CHECK(get.json["SourceConnector"] == "cpm_Native");
  CHECK(get.json["PaymentMethod"] == "CreditCard");
  CHECK(get.json["PaymentProcessor"] == "Stripe");
  CHECK(get.json["SetupUrl"] == r.json["RedirectURL"]);
  // No record types on the native object: "Master", as installments show it.
  CHECK(get.json["RecordTypeName"] == "Master");
  CHECK(t.get("/Installment/" + insts[0].id).json["RecordTypeName"] == "Master");
  CHECK(t.get("/Recurring/" + rec.guid).json == get.json);
  CHECK(t.get("/Recurring/" + insts[0].id).status == 404);
}

TEST_CASE("native: SEPA (Optional) with and without OneTime, Bacs (No) without",
          "[http][recurring]") {
  TestOrg t(fixture("default.yaml"));
  auto without = t.post("/PaymentIntent", IntentBody::recurring(sepa_debit()));
  REQUIRE(without.status == 200);
  CHECK_FALSE(without.json.contains("RedirectURL"));
  CHECK(without.json["PaymentMethod"]["Parameters"] == sepa_debit()["Parameters"]);
  Record rec = t.record(t.recurring_id(without));
  CHECK(rec.text("cpm__Status__c") == "Active");
  Record mandate = t.record(rec.text("cpm__Mandate__c"));
  CHECK(mandate.text("cpm__Status__c") == "Active");
  CHECK(mandate.text("cpm__Bank_Scheme__c") == "SEPA");
  CHECK_FALSE(mandate.text("cpm__Mandate_Reference__c").empty());
  Record profile = t.record(rec.text("cpm__Payment_Profile__c"));
  CHECK(profile.text("cpm__IBAN__c") == "DE89370400440532013000");
  CHECK(t.records_of(objects::kInstallment).empty());

  auto with = t.post("/PaymentIntent",
                     IntentBody::recurring(sepa_debit()).initial_payment(10).allow_deduplication());
  REQUIRE(with.status == 200);
  CHECK_FALSE(with.json.contains("RedirectURL"));
  Record rec2 = t.record(t.recurring_id(with));
  REQUIRE(t.records_of(objects::kInstallment).size() == 1);
  CHECK(t.records_of(objects::kInstallment)[0].text("cpm__Recurring_Payment__c") == rec2.id);
  // Same contact, method and processor: the profile is reused, not duplicated.
  CHECK(rec2.text("cpm__Payment_Profile__c") == rec.text("cpm__Payment_Profile__c"));
  CHECK(t.records_of(objects::kPaymentProfile).size() == 1);

  auto bacs = t.post("/PaymentIntent", IntentBody::recurring(bacs_debit()).series_currency("GBP"));
  REQUIRE(bacs.status == 200);
  CHECK(t.record(t.recurring_id(bacs)).text("cpm__Payment_Method__c") == "Bacs Direct Debit");
  auto bacs_first =
      t.post("/PaymentIntent", IntentBody::recurring(bacs_debit()).initial_payment(10));
  REQUIRE(bacs_first.status == 400);
  CHECK(code_of(bacs_first) == "010");
  CHECK(message_of(bacs_first).find("InitialPaymentonRecurring = No") != std::string::npos);
  CHECK(message_of(bacs_first).find("Bacs Direct Debit with processor SmartDebit") !=
        std::string::npos);
}

TEST_CASE("recurring data errors are 200", "[http][recurring][errors]") {
  TestOrg t(fixture("default.yaml"));
  auto r = t.post("/PaymentIntent", IntentBody::recurring(sepa_debit()).frequency("Quarterly"));
  REQUIRE(r.status == 422);
  CHECK(code_of(r) == "200");
  CHECK(message_of(r) ==
        "Recurring.Frequency 'Quarterly' is not allowed by source connector cpm_Native; allowed: "
        "Daily, Weekly, Monthly, Yearly");
  CHECK(code_of(t.post("/PaymentIntent",
                       IntentBody::recurring(sepa_debit()).start_date("2027-02-30"))) == "200");
  r = t.post("/PaymentIntent", IntentBody::recurring(sepa_debit()).end_date("2027-01-31"));
  CHECK(code_of(r) == "200");
  CHECK(message_of(r).find("must be after Recurring.StartDate") != std::string::npos);
  r = t.post("/PaymentIntent", IntentBody::recurring(payment_method("PayPal")));
  CHECK(code_of(r) == "200");
  CHECK(message_of(r).find("does not support recurring") != std::string::npos);
  r = t.post("/PaymentIntent",
             IntentBody::recurring(sepa_debit()).recurring_fields({{"Nope__c", 1}}));
  CHECK(code_of(r) == "200");
  CHECK(message_of(r).find("cpm__Recurring_Payment__c") != std::string::npos);
  CHECK(t.records_of(objects::kRecurringPayment).empty());
}

TEST_CASE("nonprofit: a recurring donation with and without initial payment", "[http][recurring]") {
  TestOrg t(fixture("nonprofit.yaml"));
  auto by_card = t.post("/PaymentIntent", IntentBody::recurring(card()));
  CHECK(code_of(by_card) == "010");
  json b = IntentBody::recurring(card())
               .initial_payment(10)
               .frequency("Quarterly")
               .recurring_fields({{"Gift_Designation__c", "Youth Meals"}})
               .campaign("7017Q00000GvTueQAF");
  auto r = t.post("/PaymentIntent", b);
  REQUIRE(r.status == 200);
  CHECK(r.json.contains("RedirectURL"));
  CHECK(r.json["Settings"]["SourceConnector"] == "npsp_RecurringDonations");
  std::string id = t.recurring_id(r);
  Record rd = t.record(id);
  CHECK(rd.object == "npe03__Recurring_Donation__c");
  CHECK(rd.text("npe03__Installment_Period__c") == "Quarterly");
  CHECK(rd.fields["npe03__Amount__c"] == 10);
  CHECK(rd.text("npsp__StartDate__c") == "2027-02-01");
  CHECK(rd.text("Gift_Designation__c") == "Youth Meals");
  CHECK(rd.text("npe03__Recurring_Donation_Campaign__c") == "7017Q00000GvTueQAF");
  CHECK_FALSE(rd.text("npe03__Contact__c").empty());
  auto insts = t.records_of(objects::kInstallment);
  REQUIRE(insts.size() == 1);
  CHECK(insts[0].text("cpm__Recurring_Donation__c") == id);
  CHECK(insts[0].text("cpm__Status__c") == "Pending");
  CHECK(t.record(rd.text("cpm__Mandate__c")).text("cpm__Recurring_Donation__c") == id);

  auto ach_without = t.post("/PaymentIntent", IntentBody::recurring(ach_debit()));
  REQUIRE(ach_without.status == 200);
  CHECK_FALSE(ach_without.json.contains("RedirectURL"));
  CHECK(t.post("/PaymentIntent", IntentBody::recurring(ach_debit()).initial_payment(10)).status ==
        200);
  CHECK(t.records_of(objects::kInstallment).size() == 2);

  auto get = t.get("/Recurring/" + id);
  REQUIRE(get.status == 200);
  CHECK(get.json["Type"] == "npe03__Recurring_Donation__c");
  CHECK(get.json["Frequency"] == "Quarterly");
  CHECK(get.json["CurrencyISOCode"] == "USD");
  CHECK(get.json["SourceConnector"] == "npsp_RecurringDonations");
  // nonprofit.yaml gives recurring donations record types: the default is stored and shown.
  CHECK(rd.text("RecordTypeName") == "Sustainer");
  CHECK(get.json["RecordTypeName"] == "Sustainer");
}

TEST_CASE("fundraising: commitment and schedule, GiftCommitment. prefix routing",
          "[http][recurring]") {
  TestOrg t(fixture("fundraising.yaml"));
  json b = IntentBody::recurring(bacs_debit())
               .frequency("Quarterly")
               .end_date("2029-01-31")
               .recurring_fields({{"GiftCommitment.Gift_Aid_Eligible__c", true},
                                  {"GiftCommitment.Appeal__c", "Wetlands"},
                                  {"GiftCommitment.Description", "Quarterly wetlands gift"},
                                  {"Collection_Reference__c", "NHWT-0001"},
                                  {"TransactionDay", "1"}})
               .campaign("7017Q00000RgvngQAB");
  auto r = t.post("/PaymentIntent", b);
  REQUIRE(r.status == 200);
  CHECK_FALSE(r.json.contains("RedirectURL"));
  std::string id = t.recurring_id(r);
  Record gc = t.record(id);
  CHECK(gc.object == "GiftCommitment");
  CHECK(gc.fields["Gift_Aid_Eligible__c"] == true);
  CHECK(gc.text("Appeal__c") == "Wetlands");
  CHECK(gc.text("Description") == "Quarterly wetlands gift");
  CHECK_FALSE(gc.has("Collection_Reference__c"));
  CHECK_FALSE(gc.has("TransactionDay"));
  CHECK(gc.text("CampaignId") == "7017Q00000RgvngQAB");
  Record gcs = t.record(gc.text("CurrentGiftCmtScheduleId"));
  CHECK(gcs.object == "GiftCommitmentSchedule");
  CHECK(gcs.text("GiftCommitmentId") == id);
  CHECK(gcs.text("Collection_Reference__c") == "NHWT-0001");
  CHECK(gcs.text("TransactionDay") == "1");
  CHECK_FALSE(gcs.has("Appeal__c"));
  CHECK_FALSE(gcs.has("Gift_Aid_Eligible__c"));
  CHECK(gcs.text("TransactionPeriod") == "Quarterly");
  CHECK(gcs.text("PaymentMethod") == "Direct Debit");
  CHECK(t.record(gc.text("cpm__Mandate__c")).text("cpm__Gift_Commitment__c") == id);

  auto get = t.get("/Recurring/" + id);
  REQUIRE(get.status == 200);
  CHECK(get.json["Id"] == id);
  CHECK(get.json["Type"] == "GiftCommitment");
  CHECK(get.json["Amount"] == 10);
  CHECK(get.json["Frequency"] == "Quarterly");
  CHECK(get.json["StartDate"] == "2027-02-01");
  CHECK(get.json["EndDate"] == "2029-01-31");
  CHECK(get.json["Description"] == "Quarterly wetlands gift");
  CHECK(get.json["CurrencyISOCode"] == "GBP");
  CHECK(get.json["SourceConnector"] == "sf_Fundraising");
  CHECK(get.json["RecordTypeName"] == "Master");  // the commitment's: it has no record types
  CHECK(t.get("/Recurring/" + gcs.id).json == get.json);

  // Fields go to the object the prefix names; an unknown one is refused naming it.
  for (const auto& [key, object] : std::vector<std::pair<std::string, std::string>>{
           {"GiftCommitment.Collection_Reference__c", "GiftCommitment"},
           {"Appeal__c", "GiftCommitmentSchedule"},
           {"GiftCommitment.Nope__c", "GiftCommitment"},
           {"Nope__c", "GiftCommitmentSchedule"}}) {
    CAPTURE(key);
    auto e = t.post("/PaymentIntent",
                    IntentBody::recurring(bacs_debit()).recurring_fields({{key, "x"}}));
    REQUIRE(e.status == 422);
    CHECK(code_of(e) == "200");
    CHECK(message_of(e).find("exists on " + object + " in this org") != std::string::npos);
  }

  // Card (Required) with an initial payment: the installment links both records.
  auto by_card = t.post("/PaymentIntent", IntentBody::recurring(card()).initial_payment(10));
  REQUIRE(by_card.status == 200);
  CHECK(by_card.json.contains("RedirectURL"));
  std::string card_id = t.recurring_id(by_card);
  auto insts = t.records_of(objects::kInstallment);
  REQUIRE(insts.size() == 1);
  CHECK(insts[0].text("cpm__Gift_Commitment__c") == card_id);
  CHECK(insts[0].text("cpm__Gift_Commitment_Schedule__c") ==
        t.record(card_id).text("CurrentGiftCmtScheduleId"));
  CHECK(code_of(t.post("/PaymentIntent", IntentBody::recurring(card()))) == "010");
  CHECK(code_of(t.post("/PaymentIntent",
                       IntentBody::recurring(bacs_debit()).initial_payment(10))) == "010");
}

TEST_CASE("a gift commitment without schedule cannot be read (spec 4.1 rule 5)",
          "[http][recurring][errors]") {
  TestOrg t(fixture_text(R"(extends: fundraising.yaml
seed:
  - object: GiftCommitment
    id: 6gc7Q00000NoSch
    fields: {Name: Pending commitment, Status: Active}
)"));
  auto r = t.get("/Recurring/6gc7Q00000NoSch");
  REQUIRE(r.status == 404);
  CHECK(code_of(r) == "999");
  CHECK(message_of(r).find("has no gift commitment schedule yet") != std::string::npos);
  CHECK(t.get("/Recurring/not-an-id").status == 422);
  CHECK(t.get("/Recurring/6gc7Q00000NoSci").status == 404);
}

TEST_CASE("dates in day-month-year form when the fixture says so", "[http][recurring]") {
  TestOrg t(fixture_text("extends: default.yaml\norg:\n  recurring_date_format: day-month-year\n"));
  json b = IntentBody::recurring(sepa_debit()).end_date("2028-01-31");
  auto get = t.get("/Recurring/" + t.recurring_id(t.post("/PaymentIntent", b)));
  CHECK(get.json["StartDate"] == "01-02-2027");
  CHECK(get.json["EndDate"] == "31-01-2028");
}

TEST_CASE("update from direct debit to card needs OneTime and answers with a RedirectURL",
          "[http][recurring]") {
  TestOrg t(fixture("default.yaml"));
  std::string id = t.recurring_id(t.post("/PaymentIntent", IntentBody::recurring(sepa_debit())));
  std::string old_mandate = t.record(id).text("cpm__Mandate__c");

  auto bad = t.post("/PaymentIntent", IntentBody::update_recurring(id, card("Stripe")));
  REQUIRE(bad.status == 400);
  CHECK(code_of(bad) == "010");
  CHECK(message_of(bad).find("InitialPaymentonRecurring = Required") != std::string::npos);
  CHECK(t.record(old_mandate).text("cpm__Status__c") == "Active");

  auto r =
      t.post("/PaymentIntent",
             IntentBody::update_recurring(t.record(id).guid, card("Stripe")).initial_payment(10));
  REQUIRE(r.status == 200);
  CHECK(r.json["RedirectURL"].get<std::string>().find("/psp/checkout/") != std::string::npos);
  CHECK(r.json["PaymentMethod"]["Name"] == "CreditCard");
  Record rec = t.record(id);
  CHECK(rec.text("cpm__Payment_Method__c") == "CreditCard");
  CHECK(rec.text("cpm__Payment_Processor__c") == "Stripe");
  CHECK(rec.text("cpm__Mandate__c") != old_mandate);
  Record old = t.record(old_mandate);
  CHECK(old.text("cpm__Status__c") == "Inactive");
  CHECK_FALSE(old.text("cpm__Deactivation_Date__c").empty());
  CHECK(t.record(rec.text("cpm__Mandate__c")).text("cpm__Status__c") == "Pending");
  auto insts = t.records_of(objects::kInstallment);
  REQUIRE(insts.size() == 1);
  CHECK(insts[0].text("cpm__Recurring_Payment__c") == id);
  auto pi = t.get("/PaymentIntent/" + r.json["Id"].get<std::string>());
  CHECK(pi.json["Recurring"]["Id"] == id);
  CHECK(pi.json["OneTime"]["Id"] == insts[0].id);
  CHECK(pi.json["Payer"]["Contact"]["Name"] == "Ada Lovelace");
}

TEST_CASE("update from card to direct debit: new mandate and profile, old mandate inactive",
          "[http][recurring]") {
  TestOrg t(fixture("default.yaml"));
  std::string id =
      t.recurring_id(t.post("/PaymentIntent", IntentBody::recurring(card()).initial_payment(10)));
  Record before = t.record(id);

  auto r = t.post("/PaymentIntent", IntentBody::update_recurring(id, kSepaGoCardless));
  REQUIRE(r.status == 200);
  CHECK_FALSE(r.json.contains("RedirectURL"));
  CHECK(r.json["PaymentMethod"]["Parameters"] == sepa_debit()["Parameters"]);
  Record rec = t.record(id);
  CHECK(rec.text("cpm__Payment_Method__c") == "SEPA Direct Debit");
  CHECK(rec.text("cpm__Status__c") == "Active");
  Record mandate = t.record(rec.text("cpm__Mandate__c"));
  CHECK(mandate.text("cpm__Status__c") == "Active");
  CHECK(mandate.text("cpm__Bank_Scheme__c") == "SEPA");
  CHECK(t.record(before.text("cpm__Mandate__c")).text("cpm__Status__c") == "Inactive");
  CHECK(rec.text("cpm__Payment_Profile__c") != before.text("cpm__Payment_Profile__c"));
  CHECK(t.record(rec.text("cpm__Payment_Profile__c")).text("cpm__IBAN__c") ==
        "DE89370400440532013000");
  CHECK(t.records_of(objects::kInstallment).size() == 1);  // no new installment

  // The same account again (as typed differently): a new mandate, the profile reused.
  REQUIRE(t.post("/PaymentIntent", IntentBody::update_recurring(id, kSepaGoCardless)
                                       .parameter("IBAN", "de89 3704 0044 0532 0130 00")
                                       .parameter("AccountHolderName", "A. Lovelace"))
              .status == 200);
  Record again = t.record(id);
  CHECK(again.text("cpm__Mandate__c") != mandate.id);
  CHECK(again.text("cpm__Payment_Profile__c") == rec.text("cpm__Payment_Profile__c"));
  CHECK(t.record(again.text("cpm__Payment_Profile__c")).text("cpm__Account_Holder_Name__c") ==
        "A. Lovelace");

  // A new bank account (decisions row 26): validated, a new mandate and profile;
  // the old mandate and profile end, the old profile keeps the old account.
  auto other =
      IntentBody::update_recurring(id, kSepaGoCardless).parameter("IBAN", "DE89370400440532013001");
  CHECK(code_of(t.post("/PaymentIntent", other)) == "202");
  other.parameter("IBAN", "NL91ABNA0417164300");
  REQUIRE(t.post("/PaymentIntent", other).status == 200);
  Record after = t.record(id);
  CHECK(after.text("cpm__Mandate__c") != again.text("cpm__Mandate__c"));
  CHECK(t.record(again.text("cpm__Mandate__c")).text("cpm__Status__c") == "Inactive");
  const std::string old_profile = rec.text("cpm__Payment_Profile__c");
  const std::string new_profile = after.text("cpm__Payment_Profile__c");
  CHECK(new_profile != old_profile);
  Record np = t.record(new_profile);
  CHECK(np.text("cpm__IBAN__c") == "NL91ABNA0417164300");
  CHECK(np.fields["cpm__Active__c"] == true);
  CHECK(np.text("cpm__Contact__c") == t.record(old_profile).text("cpm__Contact__c"));
  CHECK(t.record(after.text("cpm__Mandate__c")).text("cpm__Payment_Profile__c") == new_profile);
  Record op = t.record(old_profile);
  CHECK(op.text("cpm__IBAN__c") == "DE89370400440532013000");
  CHECK(op.fields["cpm__Active__c"] == false);
  CHECK(t.record(again.text("cpm__Mandate__c")).text("cpm__Payment_Profile__c") == old_profile);

  CHECK(code_of(t.post("/PaymentIntent",
                       IntentBody::update_recurring(id, with_processor(bacs_debit(), "SmartDebit"))
                           .initial_payment(10))) == "010");
  CHECK(t.post("/PaymentIntent", IntentBody::update_recurring("a0R7Q00000ZZZZZ", kSepaGoCardless))
            .status == 404);
}

TEST_CASE("updating a non-default connector's record needs Settings.SourceConnector",
          "[http][recurring][errors]") {
  TestOrg t(fixture("multi_connector.yaml"));
  json b = IntentBody::recurring(sepa_debit())
               .set("Settings", {{"SourceConnector", "npsp_RecurringDonations"}});
  std::string id = t.recurring_id(t.post("/PaymentIntent", b));
  CHECK(t.record(id).object == "npe03__Recurring_Donation__c");

  auto r = t.post("/PaymentIntent", IntentBody::update_recurring(id, kSepaGoCardless));
  REQUIRE(r.status == 400);
  CHECK(code_of(r) == "012");
  CHECK(message_of(r).find("npsp_RecurringDonations") != std::string::npos);

  r = t.post("/PaymentIntent",
             IntentBody::update_recurring(id, kSepaGoCardless).source_connector("sf_Fundraising"));
  REQUIRE(r.status == 422);
  CHECK(code_of(r) == "200");

  r = t.post("/PaymentIntent", IntentBody::update_recurring(id, kSepaGoCardless)
                                   .source_connector("npsp_RecurringDonations"));
  REQUIRE(r.status == 200);
  CHECK(r.json["Settings"]["SourceConnector"] == "npsp_RecurringDonations");

  // The default connector's records need no Settings.
  std::string native =
      t.recurring_id(t.post("/PaymentIntent", IntentBody::recurring(sepa_debit())));
  CHECK(t.post("/PaymentIntent", IntentBody::update_recurring(native, kSepaGoCardless)).status ==
        200);
}

TEST_CASE("bank codes 201 to 206 through the API, each with a failing and a passing account",
          "[http][recurring][bank]") {
  struct Case {
    const char* fixture;
    const char* method;
    json failing, passing;
    const char* code;
  };
  const json ch = {{"IBAN", "CH9300762011623852957"}, {"AccountHolderName", "Ada Lovelace"}};
  json ch_bic = ch;
  ch_bic["BIC"] = "UBSWCHZH80A";
  json ch_full = ch_bic;
  ch_full.update({{"Street", "Bahnhofstrasse"},
                  {"HouseNameOrNumber", "45"},
                  {"PostalCode", "8001"},
                  {"City", "Zürich"}});
  const std::vector<Case> cases = {
      {"default.yaml",
       "Bacs Direct Debit",
       {{"SortCode", "60-16-1"}, {"AccountNumber", "31926819"}, {"AccountHolderName", "A"}},
       bacs_debit()["Parameters"],
       "201"},
      {"default.yaml",
       "SEPA Direct Debit",
       {{"IBAN", "DE89370400440532013001"}, {"AccountHolderName", "A"}},
       sepa_debit()["Parameters"],
       "202"},
      {"default.yaml",
       "SEPA Direct Debit",
       {{"IBAN", "TR330006100519786457841326"}, {"AccountHolderName", "A"}},
       sepa_debit()["Parameters"],
       "203"},
      {"default.yaml", "SEPA Direct Debit", ch, ch_full, "204"},
      {"default.yaml", "SEPA Direct Debit", ch_bic, ch_full, "205"},
      {"multi_connector.yaml",
       "Autogiro",
       {{"ClearingNumber", "3300"}, {"AccountNumber", "3912319998"}, {"AccountHolderName", "A"}},
       {{"ClearingNumber", "3300"}, {"AccountNumber", "3912319997"}, {"AccountHolderName", "A"}},
       "206"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.code);
    TestOrg t(fixture(c.fixture));
    // Each scheme collects in its own currency (decisions 71).
    const std::string currency = c.method == std::string("Bacs Direct Debit") ? "GBP"
                                 : c.method == std::string("Autogiro")        ? "SEK"
                                                                              : "EUR";
    auto bad = t.post("/PaymentIntent", IntentBody::recurring(payment_method(c.method))
                                            .series_currency(currency)
                                            .parameters(c.failing));
    REQUIRE(bad.status == 422);
    CHECK(code_of(bad) == c.code);
    auto good = t.post("/PaymentIntent", IntentBody::recurring(payment_method(c.method))
                                             .series_currency(currency)
                                             .parameters(c.passing));
    CHECK(good.status == 200);
  }
}

TEST_CASE("a new one-time SEPA payment checks the account too", "[http][recurring][bank]") {
  TestOrg t(fixture("default.yaml"));
  auto r = t.post("/PaymentIntent",
                  IntentBody::one_time(sepa_debit("DE89370400440532013001")).amount(10));
  REQUIRE(r.status == 422);
  CHECK(code_of(r) == "202");
  CHECK(t.records_of(objects::kInstallment).empty());
}
