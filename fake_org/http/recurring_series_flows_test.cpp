// A recurring series over its life on the org clock, over real HTTP: who the
// clock's installments belong to, from which date a series collects, paying a
// failed installment again, and a finished series that cannot be updated.
// The fixtures' tokens live a year here, so requests still pass after the
// clock has moved months ahead.
#include <catch2/catch.hpp>

#include "domain/core/fields.h"
#include "domain/payments/collections.h"
#include "testing/intent_body.h"
#include "testing/test_org.h"
#include "testing/webhook_fakes.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

OrgConfig long_tokens(const std::string& base, const std::string& more = "") {
  return fixture_text("extends: " + base + "\nauth:\n  token_lifetime: 8760h\n" + more);
}

const json kFour = {{"LastName", "Four"}};
const json kSepa = sepa_debit(kIban, "Max Four");
const json kBacs = bacs_debit("Max Four");
const json kAch = ach_debit("Max Four");

// Four's monthly series of 10 from `start`.
IntentBody series(const json& method, const std::string& start, const std::string& end = "") {
  IntentBody b = IntentBody::recurring(method).contact(kFour).start_date(start);
  if (!end.empty()) b.end_date(end);
  return b;
}

// The types and installment statuses of the webhook events of one intent, in order.
std::vector<std::string> events_of(TestOrg& t, const std::string& pi) {
  REQUIRE(t.embedded().webhooks().wait_idle(10s));
  std::vector<std::string> out;
  const Response log = t.get("/__admin/webhooks?payment_intent=" + pi, false);
  for (const auto& e : log.json["events"]) {
    std::string type = e["type"];
    const json& data = e["body"]["data"];
    if (type.rfind("installment.", 0) == 0) type += " " + data.value("Status", "");
    out.push_back(type);
  }
  return out;
}

}  // namespace

TEST_CASE("a finished series cannot be updated: 200 naming record and status, nothing written",
          "[http][recurring][collections]") {
  struct Case {
    const char* fixture;
    const char* object;
    json method;
    json one_time;
    const char* status_field;
    const char* finished;
  };
  const json first = {{"OneTime", {{"Amount", 10}}}};
  for (const Case& c : {Case{"default.yaml", "cpm__Recurring_Payment__c", kSepa, json::object(),
                             fields::recurring_payment::kStatus, "Completed"},
                        Case{"nonprofit.yaml", "npe03__Recurring_Donation__c", kAch, first,
                             fields::recurring_donation::kStatus, "Closed"},
                        Case{"fundraising.yaml", "GiftCommitment", kBacs, json::object(),
                             fields::gift_commitment::kStatus, "Closed"}}) {
    INFO(c.fixture);
    TestOrg t(long_tokens(c.fixture));
    t.set_clock("2027-01-30T09:00:00Z");
    json body = series(c.method, "2027-02-01", "2027-03-15");
    body.update(c.one_time);
    const std::string id = t.recurring_id(t.post("/PaymentIntent", body));
    t.set_clock("2027-04-01T09:00:00Z");
    const json before = t.admin_record(c.object, id);
    REQUIRE(before[c.status_field] == c.finished);
    const size_t mandates = t.admin_records("cpm__Mandate__c").size();

    json update = IntentBody::update_recurring(
        id, with_processor(c.method, before.value("cpm__Payment_Processor__c", "")));
    update.update(c.one_time);
    auto r = t.post("/PaymentIntent", update);
    INFO(r.body);
    CHECK(r.status == 422);
    CHECK(code_of(r) == "200");
    const std::string message = message_of(r);
    CHECK(message.find(id) != std::string::npos);
    CHECK(message.find(std::string("status ") + c.finished) != std::string::npos);
    CHECK(message.find("a finished series cannot be changed") != std::string::npos);
    CHECK(t.admin_record(c.object, id) == before);
    CHECK(t.admin_records("cpm__Mandate__c").size() == mandates);
  }
}

TEST_CASE("a hosted session whose installment was paid elsewhere says so, not 'already completed'",
          "[http][psp]") {
  TestOrg t(fixture("default.yaml"));
  auto session_of = [](const Response& r) {
    INFO(r.body);
    REQUIRE(r.status == 200);
    const std::string url = r.json["RedirectURL"];
    return url.substr(url.rfind('/') + 1);
  };
  auto first = t.post("/PaymentIntent", IntentBody::one_time().contact(kFour).amount(10));
  const std::string abandoned = session_of(first);
  const std::string pi = first.json["Id"];
  const std::string installment = t.get("/PaymentIntent/" + pi).json["OneTime"]["Id"];
  // The payer pays the installment through another request's page.
  auto again = t.post("/PaymentIntent", IntentBody::pay_installment(installment, card()));
  const std::string paid_by = again.json["Id"];
  const std::string second = session_of(again);
  REQUIRE(t.complete_session(second).status == 200);

  // A payer still on the first page who clicks Pay is told so, not "already completed".
  auto page = t.client().Post(("/psp/checkout/" + abandoned).c_str(),
                              "action=pay&card_number=4242424242424242&holder=Ada",
                              "application/x-www-form-urlencoded");
  REQUIRE(page);
  CHECK(page->status == 409);
  CHECK(page->body.find("<h1>Nothing to pay</h1>") != std::string::npos);
  CHECK(page->body.find("was never completed: its installment " + installment +
                        " was paid elsewhere (by " + paid_by + ")") != std::string::npos);
  CHECK(page->body.find("already completed") == std::string::npos);

  auto late = t.complete_session(abandoned);
  INFO(late.body);
  CHECK(late.status == 409);
  const std::string message = message_of(late);
  CHECK(message == "Payment session " + abandoned + " of " + pi +
                       " was never completed: its installment " + installment +
                       " was paid elsewhere (by " + paid_by + "); nothing is charged twice");
  CHECK(t.admin_records("cpm__Payment__c").size() == 1);
  // The session that did pay still answers that it is completed.
  auto twice = t.complete_session(second);
  CHECK(twice.status == 409);
  CHECK(message_of(twice).find("is already completed") != std::string::npos);
}

TEST_CASE("a failed direct debit paid again inline is open again and collected by the clock",
          "[http][collections][webhooks]") {
  Receiver receiver;
  const int port = receiver.start();
  REQUIRE(port > 0);
  const std::string hooks = "http://127.0.0.1:" + std::to_string(port) + "/hooks";
  TestOrg t(long_tokens("default.yaml"));
  t.set_clock("2027-03-01T09:00:00Z");
  auto created =
      t.post("/PaymentIntent",
             IntentBody::one_time(sepa_debit(collection_magic::kIbanFailsAtCollection, "Max Four"))
                 .contact(kFour)
                 .amount(10)
                 .webhook(hooks));
  INFO(created.body);
  REQUIRE(created.status == 200);
  const std::string installment =
      t.get("/PaymentIntent/" + created.json["Id"].get<std::string>()).json["OneTime"]["Id"];
  t.advance_clock("3d");
  REQUIRE(t.admin_record("cpm__Installment__c", installment)["cpm__Status__c"] == "Failed");

  auto paid = t.post(
      "/PaymentIntent",
      IntentBody::pay_installment(installment, with_processor(kSepa, "GoCardless")).webhook(hooks));
  INFO(paid.body);
  REQUIRE(paid.status == 200);
  const std::string pi = paid.json["Id"];
  json inst = t.admin_record("cpm__Installment__c", installment);
  CHECK(inst["cpm__Status__c"] == "Outstanding");
  CHECK_FALSE(inst.contains("cpm__Failure_Reason__c"));
  CHECK(t.admin_record("cpm__Mandate__c", inst["cpm__Mandate__c"])["cpm__Status__c"] == "Active");
  CHECK(t.get("/Installment/" + installment).json["Status"] == "Outstanding");
  CHECK(events_of(t, pi) == std::vector<std::string>{"paymentIntent.created",
                                                     "installment.status_change Outstanding",
                                                     "paymentIntent.processed"});

  // Past its due date: the next clock move collects it, through the new mandate.
  t.advance_clock("1h");
  inst = t.admin_record("cpm__Installment__c", installment);
  CHECK(inst["cpm__Status__c"] == "Collected");
  CHECK(inst["cpm__Collection_Date__c"] == "2027-03-04");
  auto payments = t.admin_records("cpm__Payment__c");
  REQUIRE(payments.size() == 1);
  CHECK(payments[0]["cpm__Payment_Intent_Id__c"] == pi);
  CHECK(events_of(t, pi).back() == "installment.status_change Collected");
}

TEST_CASE("fundraising: the donor account is set and the clock's installments carry the payer",
          "[http][recurring][collections]") {
  TestOrg t(long_tokens("fundraising.yaml"));
  t.set_clock("2027-01-01T09:00:00Z");
  const IntentBody weekly =
      IntentBody::recurring(kBacs).series(5, "Weekly", "2027-01-04", "2027-01-12");
  const std::string by_contact =
      t.recurring_id(t.post("/PaymentIntent", IntentBody(weekly).contact(kFour)));
  const std::string by_person = t.recurring_id(
      t.post("/PaymentIntent",
             IntentBody(weekly).person_account({{"FirstName", "Hattie"}, {"LastName", "Hedge"}})));

  // A contact-only payer: the contact gets a household account, the donor.
  const json commitment = t.admin_record("GiftCommitment", by_contact);
  REQUIRE(commitment.contains("DonorId"));
  const json household = t.admin_record("Account", commitment["DonorId"]);
  CHECK(household["Name"] == "Four Household");
  CHECK(household["IsPersonAccount"] == false);
  CHECK(household["RecordTypeName"] == "Organization");
  const json donor = t.admin_record("GiftCommitment", by_person);
  const std::string person_contact =
      t.admin_record("Account", donor["DonorId"]).value("PersonContactId", "");
  REQUIRE_FALSE(person_contact.empty());

  t.set_clock("2027-02-01T09:00:00Z");  // 4 and 11 January of each series
  std::map<std::string, std::pair<std::string, std::string>>
      payer_of;  // series -> contact, account
  const json contact = t.admin_records("Contact");
  for (const auto& c : contact)
    if (c["LastName"] == "Four") payer_of[by_contact] = {c["Id"], c.value("AccountId", "")};
  payer_of[by_person] = {person_contact, donor["DonorId"]};
  CHECK(payer_of[by_contact].second == commitment["DonorId"]);
  const json installments = t.admin_records("cpm__Installment__c");
  REQUIRE(installments.size() == 4);
  for (const auto& i : installments) {
    INFO(i.dump());
    const auto& who = payer_of.at(i.value("cpm__Gift_Commitment__c", ""));
    CHECK(i.value("cpm__Contact__c", "") == who.first);
    CHECK(i.value("cpm__Account__c", "") == who.second);
    CHECK(i["cpm__Status__c"] == "Collected");
  }
  const json payments = t.admin_records("cpm__Payment__c");
  REQUIRE(payments.size() == 4);
  for (const auto& p : payments) {
    INFO(p.dump());
    CHECK_FALSE(p.value("cpm__Contact__c", "").empty());
    CHECK_FALSE(p.value("cpm__Account__c", "").empty());
  }
}

TEST_CASE("a series whose StartDate has passed bills nothing before the day it was set up",
          "[http][recurring][collections]") {
  SECTION("skip (the default): the first schedule date on or after that day") {
    TestOrg t(long_tokens("default.yaml"));
    t.set_clock("2027-01-30T09:00:00Z");
    const std::string id = t.recurring_id(t.post("/PaymentIntent", series(kSepa, "2020-01-01")));
    const json rec = t.admin_record("cpm__Recurring_Payment__c", id);
    CHECK(rec["cpm__Start_Date__c"] == "2020-01-01");
    CHECK(rec["cpm__Next_Collection_Date__c"] == "2027-02-01");
    t.set_clock("2027-03-02T09:00:00Z");
    const json installments = t.admin_records("cpm__Installment__c");
    REQUIRE(installments.size() == 2);
    CHECK(installments[0]["cpm__Due_Date__c"] == "2027-02-01");
    CHECK(installments[1]["cpm__Due_Date__c"] == "2027-03-01");
    CHECK(t.admin_record("cpm__Recurring_Payment__c", id)["cpm__Next_Collection_Date__c"] ==
          "2027-04-01");
  }
  SECTION("catch_up: every date since StartDate at the next clock move") {
    TestOrg t(long_tokens("default.yaml", "org:\n  recurring_backfill: catch_up\n"));
    t.set_clock("2027-01-30T09:00:00Z");
    const std::string id = t.recurring_id(t.post("/PaymentIntent", series(kSepa, "2020-01-01")));
    CHECK(t.admin_record("cpm__Recurring_Payment__c", id)["cpm__Next_Collection_Date__c"] ==
          "2020-01-01");
    t.set_clock("2027-02-02T09:00:00Z");
    // 2020 to 2026: 84 months, then January and February 2027.
    CHECK(t.get("/__admin/records/cpm__Installment__c?limit=1", false).json["totalSize"] == 86);
  }
}

TEST_CASE("a donation that waited for its hosted page bills nothing for the dates it waited",
          "[http][recurring][collections]") {
  // The page stays open for a quarter (a PSP's sessions live a day by default).
  TestOrg t(long_tokens("nonprofit.yaml", "org:\n  psp_session_expiry: 100d\n"));
  t.set_clock("2027-01-01T09:00:00Z");
  auto created = t.post("/PaymentIntent", series(card(), "2027-01-05").initial_payment(10));
  INFO(created.body);
  REQUIRE(created.status == 200);
  const std::string id = t.recurring_id(created);
  const std::string url = created.json["RedirectURL"];
  // The payer completes the page three months later.
  t.set_clock("2027-04-02T09:00:00Z");
  REQUIRE(t.complete_session(url.substr(url.rfind('/') + 1)).status == 200);
  CHECK(t.admin_record("npe03__Recurring_Donation__c", id)["npe03__Next_Payment_Date__c"] ==
        "2027-04-05");
  t.set_clock("2027-05-06T09:00:00Z");
  std::vector<std::string> due;
  for (const auto& i : t.admin_records("cpm__Installment__c"))
    due.push_back(i.value("cpm__Due_Date__c", ""));
  // The initial payment (due the day it was asked for), then 5 April and 5 May only.
  REQUIRE(due.size() == 3);
  CHECK(due[1] == "2027-04-05");
  CHECK(due[2] == "2027-05-05");
}
