// Every webhook event type reaches a real receiver on
// loopback with the body of spec 6.3, for the payer flows and for collections
// on the org clock. The org runs with --check-contracts (TestOrg), so every
// body also satisfies the strict webhook schemas.
#include <catch2/catch.hpp>
#include <set>

#include "domain/payments/collections.h"
#include "testing/intent_body.h"
#include "testing/test_org.h"
#include "testing/webhook_fakes.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

std::string hook_url(int port) {
  return "http://127.0.0.1:" + std::to_string(port) + "/hooks";
}

json contact_fields(const std::string& last, const std::string& email) {
  return {{"FirstName", "Ada"}, {"LastName", last}, {"Email", email}};
}

IntentBody card_intent(const std::string& webhook, double amount = 25,
                       const std::string& processing = "") {
  IntentBody b = IntentBody::one_time().webhook(webhook).amount(amount);
  if (!processing.empty()) b.processing_type(processing);
  return b;
}

IntentBody sepa_intent(const std::string& webhook, const std::string& iban) {
  return IntentBody::one_time(sepa_debit(iban, "Max Weber"))
      .contact(contact_fields("Weber", "weber@example.de"))
      .webhook(webhook)
      .amount(10);
}

// The notifications of one payment intent, in arrival order.
std::vector<json> bodies_of(const Receiver& r, const std::string& pi) {
  std::vector<json> out;
  for (const auto& req : r.requests()) {
    auto b = json::parse(req.body, nullptr, false);
    if (!b.is_object() || !b.contains("data")) continue;
    const auto& d = b["data"];
    if (d.value("Id", "") == pi || d.value("PaymentIntentId", "") == pi) out.push_back(b);
  }
  return out;
}

std::vector<std::string> types_of(const std::vector<json>& bodies) {
  std::vector<std::string> out;
  for (const auto& b : bodies) out.push_back(b["type"]);
  return out;
}

// Waits until the intent's notifications number `n`.
std::vector<json> await(const Receiver& r, const std::string& pi, size_t n) {
  bool arrived = eventually([&] { return bodies_of(r, pi).size() >= n; }, 20s);
  auto got = bodies_of(r, pi);
  INFO("notifications so far: " << json(got).dump(2));
  REQUIRE(arrived);
  return got;
}

// Spec 6.3: paymentIntent.* data has Id, Status, Payer (Contact with Name), OneTime (installment
// reference with Status).
void check_intent_body(const json& b, const std::string& pi, const std::string& status) {
  INFO(b.dump(2));
  CHECK(b.size() == 2);  // type and data only
  CHECK(b["data"]["Id"] == pi);
  CHECK(b["data"]["Status"] == status);
  CHECK(b["data"]["Payer"]["Contact"]["Name"].is_string());
  CHECK(b["data"]["Payer"]["Contact"]["Type"] == "Contact");
  CHECK(b["data"]["OneTime"]["Type"] == "cpm__Installment__c");
  CHECK(b["data"]["OneTime"]["Status"].is_string());
}

// Spec 2.10: the installment fields of the installment notifications, and
// nothing else (Target and PayUrl only when set on the record).
void check_installment_body(const json& b, const std::string& pi, const std::string& status) {
  INFO(b.dump(2));
  CHECK(b.size() == 2);
  const auto& d = b["data"];
  for (const char* k :
       {"Url", "Type", "Id", "Status", "RecordTypeName", "Payments", "PaymentProcessor",
        "PaymentMethod", "PaymentIntentId", "AmountOpen", "Amount"})
    CHECK(d.contains(k));
  static const std::set<std::string> spec_2_10 = {"Url",
                                                  "Type",
                                                  "Id",
                                                  "Target",
                                                  "Status",
                                                  "RecordTypeName",
                                                  "PayUrl",
                                                  "Payments",
                                                  "PaymentProcessor",
                                                  "PaymentMethod",
                                                  "PaymentIntentId",
                                                  "AmountOpen",
                                                  "Amount"};
  for (const auto& [k, v] : d.items()) {
    INFO("field " << k);
    CHECK(spec_2_10.count(k) == 1);
  }
  CHECK(d["Type"] == "cpm__Installment__c");
  CHECK(d["PaymentIntentId"] == pi);
  CHECK(d["Status"] == status);
}

Response psp(TestOrg& t, const std::string& session, const std::string& outcome,
             const std::string& card = "") {
  json b = {{"outcome", outcome}};
  if (!card.empty()) b["card_number"] = card;
  return t.complete_session(session, b);
}

}  // namespace

TEST_CASE("one-time card: created, processed, installment.created, then status_change",
          "[webhooks][collections]") {
  Receiver receiver;
  int port = receiver.start();
  REQUIRE(port > 0);
  TestOrg t(fixture("default.yaml"));
  auto c = t.create_intent(card_intent(hook_url(port)));
  auto before = await(receiver, c.id, 3);
  CHECK(types_of(before) == std::vector<std::string>{"paymentIntent.created", "installment.created",
                                                     "paymentIntent.processed"});
  check_intent_body(before[0], c.id, "New");
  check_installment_body(before[1], c.id, "Outstanding");
  CHECK(before[1]["data"]["Payments"].empty());
  check_intent_body(before[2], c.id, "Matched");

  REQUIRE(psp(t, c.session, "success").status == 200);
  auto all = await(receiver, c.id, 4);
  REQUIRE(all.size() == 4);
  CHECK(all[3]["type"] == "installment.status_change");
  check_installment_body(all[3], c.id, "Collected");
  CHECK(all[3]["data"]["AmountOpen"] == 0);
  REQUIRE(all[3]["data"]["Payments"].size() == 1);
  CHECK(all[3]["data"]["Payments"][0]["Amount"] == 25);
}

TEST_CASE("decline then success: one status_change, only after the payment",
          "[webhooks][collections]") {
  Receiver receiver;
  int port = receiver.start();
  REQUIRE(port > 0);
  TestOrg t(fixture("default.yaml"));
  auto c = t.create_intent(card_intent(hook_url(port)));
  await(receiver, c.id, 3);
  REQUIRE(psp(t, c.session, "success", "4000000000000002").json["status"] == "failed");
  REQUIRE(psp(t, c.session, "cancel").json["status"] == "cancelled");
  CHECK(t.get("/Installment/" + c.installment).json["Status"] == "Outstanding");
  REQUIRE(psp(t, c.session, "success").json["status"] == "completed");
  auto all = await(receiver, c.id, 4);
  REQUIRE(t.embedded().webhooks().wait_idle(10s));
  all = bodies_of(receiver, c.id);
  CHECK(types_of(all) == std::vector<std::string>{"paymentIntent.created", "installment.created",
                                                  "paymentIntent.processed",
                                                  "installment.status_change"});
  check_installment_body(all.back(), c.id, "Collected");
}

TEST_CASE("paymentIntent.in_review and paymentIntent.failed carry the report's status",
          "[webhooks][collections]") {
  Receiver receiver;
  int port = receiver.start();
  REQUIRE(port > 0);
  TestOrg t(fixture_text(R"j(
extends: default.yaml
processing_types:
  - name: Default
  - name: HighValue
    rules:
      - {name: Large, path: OneTime.Amount, condition: greater_than, value: 10000,
         outcome: Guided Review, reason: Large gift}
  - name: Strict
    rules:
      - {name: No origin, path: Origin, condition: missing, outcome: Failed, reason: Origin missing}
)j"));
  auto review = t.create_intent(card_intent(hook_url(port), 20000, "HighValue"));
  auto r = await(receiver, review.id, 3);
  CHECK(r[2]["type"] == "paymentIntent.in_review");
  check_intent_body(r[2], review.id, "Guided Review");

  auto failed = t.create_intent(card_intent(hook_url(port), 5, "Strict"));
  auto f = await(receiver, failed.id, 3);
  CHECK(f[2]["type"] == "paymentIntent.failed");
  check_intent_body(f[2], failed.id, "Failed");
  // Spec 6.2: the payer can still complete the payment flow.
  REQUIRE(psp(t, failed.session, "success").status == 200);
  auto after = await(receiver, failed.id, 4);
  check_installment_body(after[3], failed.id, "Collected");
}

TEST_CASE("emit_created false and the sample's installment type are honoured",
          "[webhooks][collections]") {
  Receiver receiver;
  int port = receiver.start();
  REQUIRE(port > 0);
  TestOrg t(fixture_text(R"j(
extends: default.yaml
webhooks:
  emit_created: false
  installment_type_style: sample
)j"));
  auto c = t.create_intent(card_intent(hook_url(port)));
  REQUIRE(psp(t, c.session, "success").status == 200);
  auto all = await(receiver, c.id, 3);
  REQUIRE(t.embedded().webhooks().wait_idle(10s));
  CHECK(types_of(bodies_of(receiver, c.id)) ==
        std::vector<std::string>{"installment", "paymentIntent.processed", "installment"});
}

TEST_CASE("inline direct debit is collected when the org clock reaches its due date",
          "[webhooks][collections]") {
  Receiver receiver;
  int port = receiver.start();
  REQUIRE(port > 0);
  TestOrg t(fixture("default.yaml"));
  t.set_clock("2027-03-01T09:00:00Z");
  auto c = t.create_intent(sepa_intent(hook_url(port), "DE89370400440532013000"));
  CHECK(c.session.empty());
  await(receiver, c.id, 3);
  auto inst = t.get("/Installment/" + c.installment).json;
  CHECK(inst["Status"] == "Outstanding");

  t.advance_clock("1d");
  auto all = await(receiver, c.id, 4);
  CHECK(all[3]["type"] == "installment.status_change");
  check_installment_body(all[3], c.id, "Collected");
  REQUIRE(all[3]["data"]["Payments"].size() == 1);
  CHECK(all[3]["data"]["Payments"][0]["CollectionDate"] == "2027-03-02");
  CHECK(all[3]["data"]["Payments"][0]["PaymentMethod"] == "SEPA Direct Debit");
  // A day on the org clock outlives the 2h access token: read through admin.
  auto stored = t.get("/__admin/records/cpm__Installment__c/" + c.installment, false).json;
  CHECK(stored["cpm__Status__c"] == "Collected");
  CHECK(stored["cpm__Amount_Open__c"] == 0);
  CHECK(stored["cpm__Collection_Date__c"] == "2027-03-02");
  // The profile keeps the account the payer gave; collected once only.
  auto profiles = t.get("/__admin/records/cpm__Payment_Profile__c", false).json;
  REQUIRE(profiles["totalSize"] == 1);
  CHECK(profiles["records"][0]["cpm__IBAN__c"] == "DE89370400440532013000");
  t.advance_clock("7d");
  CHECK(t.get("/__admin/records/cpm__Payment__c", false).json["totalSize"] == 1);
}

TEST_CASE("an IBAN that fails at collection sends the installment to the failed status",
          "[webhooks][collections]") {
  Receiver receiver;
  int port = receiver.start();
  REQUIRE(port > 0);
  TestOrg t(fixture("default.yaml"));
  auto c = t.create_intent(sepa_intent(hook_url(port), collection_magic::kIbanFailsAtCollection));
  await(receiver, c.id, 3);
  t.advance_clock("1d");
  auto all = await(receiver, c.id, 4);
  check_installment_body(all[3], c.id, "Failed");
  CHECK(all[3]["data"]["Payments"].empty());
  CHECK(all[3]["data"]["AmountOpen"] == 10);
  auto rec = t.get("/__admin/records/cpm__Installment__c/" + c.installment, false).json;
  CHECK(rec.value("cpm__Failure_Reason__c", "").find("AC04") == 0);
  // A rejected collection is not retried on every clock move.
  t.advance_clock("30d");
  REQUIRE(t.embedded().webhooks().wait_idle(10s));
  CHECK(bodies_of(receiver, c.id).size() == 4);
}

TEST_CASE("a monthly series from 31 January: 12 installments over a year, month ends kept",
          "[webhooks][collections]") {
  Receiver receiver;
  int port = receiver.start();
  REQUIRE(port > 0);
  TestOrg t(fixture("default.yaml"));
  t.set_clock("2027-01-30T09:00:00Z");
  json body = IntentBody::recurring(sepa_debit(kIban, "Max Weber"))
                  .contact(contact_fields("Weber", "weber@example.de"))
                  .webhook(hook_url(port))
                  .series(15, "Monthly", "2027-01-31", "2027-12-31");
  auto r = t.post("/PaymentIntent", body);
  INFO(r.body);
  REQUIRE(r.status == 200);
  const std::string pi = r.json["Id"];
  CHECK_FALSE(r.json.contains("RedirectURL"));
  const auto pi_events = await(receiver, pi, 2);  // created, processed
  CHECK(pi_events[1]["data"]["Recurring"]["Id"].is_string());

  // Month by month (31 days a step), as a scheduler would see it.
  for (int i = 0; i < 13; ++i) t.advance_clock("31d");
  auto all = await(receiver, pi, 2 + 24);
  REQUIRE(t.embedded().webhooks().wait_idle(20s));
  all = bodies_of(receiver, pi);
  REQUIRE(all.size() == 26);
  for (size_t i = 2; i < all.size(); i += 2) {
    CHECK(all[i]["type"] == "installment.created");
    check_installment_body(all[i], pi, "Outstanding");
    CHECK(all[i + 1]["type"] == "installment.status_change");
    check_installment_body(all[i + 1], pi, "Collected");
    CHECK(all[i]["data"]["Id"] == all[i + 1]["data"]["Id"]);
  }
  auto installments = t.get("/__admin/records/cpm__Installment__c?limit=100", false).json;
  std::vector<std::string> due;
  for (const auto& x : installments["records"]) due.push_back(x.value("cpm__Due_Date__c", ""));
  std::sort(due.begin(), due.end());
  CHECK(due == std::vector<std::string>{"2027-01-31", "2027-02-28", "2027-03-31", "2027-04-30",
                                        "2027-05-31", "2027-06-30", "2027-07-31", "2027-08-31",
                                        "2027-09-30", "2027-10-31", "2027-11-30", "2027-12-31"});
  auto recurring = t.get("/__admin/records/cpm__Recurring_Payment__c", false).json["records"][0];
  CHECK(recurring["cpm__Status__c"] == "Completed");
  CHECK_FALSE(recurring.contains("cpm__Next_Collection_Date__c"));
  CHECK(t.get("/__admin/records/cpm__Payment__c", false).json["totalSize"] == 12);
}

TEST_CASE("a recurring card series waits for its hosted page, then collects through the mandate",
          "[webhooks][collections]") {
  OrgConfig config = fixture("default.yaml");
  config.org.psp_session_expiry = Millis(7 * 86'400'000);  // the payer comes back after a day
  TestOrg t(config);
  t.set_clock("2028-01-31T09:00:00Z");
  json body = IntentBody::recurring(card())
                  .contact(contact_fields("Turing", "alan@example.org"))
                  .initial_payment(5)
                  .series(20, "Monthly", "2028-01-31");
  auto r = t.post("/PaymentIntent", body);
  INFO(r.body);
  REQUIRE(r.status == 200);
  std::string redirect = r.json["RedirectURL"];
  std::string session = redirect.substr(redirect.rfind('/') + 1);
  auto mandates = [&] { return t.get("/__admin/records/cpm__Mandate__c", false).json; };
  CHECK(mandates()["records"][0]["cpm__Status__c"] == "Pending");
  // Nothing is collected while the payer has not authorised the card.
  t.advance_clock("1d");
  CHECK(t.get("/__admin/records/cpm__Installment__c", false).json["totalSize"] == 1);

  REQUIRE(psp(t, session, "success", "4000000000000341").status == 200);
  CHECK(mandates()["records"][0]["cpm__Status__c"] == "Active");
  auto rec = t.get("/__admin/records/cpm__Recurring_Payment__c", false).json["records"][0];
  CHECK(rec["cpm__Status__c"] == "Active");
  // Collectable from 1 February, the day the page was paid (decisions row
  // 50): 31 January, which it waited through, is never billed; 29 February
  // is due by 1 March, and the card fails at collection.
  CHECK(rec["cpm__Next_Collection_Date__c"] == "2028-02-29");
  t.set_clock("2028-03-01T09:00:00Z");
  auto inst = t.get("/__admin/records/cpm__Installment__c?limit=10", false).json;
  REQUIRE(inst["totalSize"] == 2);
  std::vector<std::string> statuses, due;
  for (const auto& x : inst["records"]) {
    statuses.push_back(x["cpm__Status__c"]);
    due.push_back(x.value("cpm__Due_Date__c", ""));
  }
  CHECK(statuses == std::vector<std::string>{"Collected", "Failed"});
  CHECK(due[1] == "2028-02-29");
  rec = t.get("/__admin/records/cpm__Recurring_Payment__c", false).json["records"][0];
  CHECK(rec["cpm__Next_Collection_Date__c"] == "2028-03-31");
}

TEST_CASE("a WebhookURL outside the remote sites is logged blocked with the reason, never sent",
          "[webhooks][collections]") {
  Receiver receiver;
  int port = receiver.start();
  REQUIRE(port > 0);
  TestOrg t(fixture("default.yaml"));
  auto c =
      t.create_intent(card_intent("http://hooks.example.net:" + std::to_string(port) + "/hooks"));
  REQUIRE(psp(t, c.session, "success").status == 200);
  REQUIRE(t.embedded().webhooks().wait_idle(10s));
  auto log = t.get("/__admin/webhooks?payment_intent=" + c.id, false).json["events"];
  REQUIRE(log.size() == 4);
  for (const auto& e : log) {
    INFO(e.dump(2));
    CHECK(e["state"] == "blocked");
    CHECK(e["reason"].get<std::string>().find("hooks.example.net") != std::string::npos);
    CHECK(e["attempts"].empty());
  }
  CHECK(receiver.requests().empty());
}

TEST_CASE("a receiver down for the first attempts gets each event once, in order",
          "[webhooks][collections]") {
  // Fast backoff so the retries come while the test waits.
  TestOrg t(fixture_text(R"j(
extends: default.yaml
webhooks:
  max_attempts: 50
  backoff_initial: 10ms
  backoff_max: 200ms
)j"));
  Receiver receiver;
  int port = receiver.start();
  REQUIRE(port > 0);
  receiver.stop();  // the port is known, nobody listens yet
  auto c = t.create_intent(card_intent(hook_url(port)));
  REQUIRE(psp(t, c.session, "success").status == 200);
  auto failed_attempts = [&] {
    auto log = t.get("/__admin/webhooks?payment_intent=" + c.id, false).json["events"];
    return log.empty() ? size_t(0) : log[0]["attempts"].size();
  };
  REQUIRE(eventually([&] { return failed_attempts() >= 3; }, 20s));
  REQUIRE(receiver.start(port) == port);
  auto all = await(receiver, c.id, 4);
  REQUIRE(t.embedded().webhooks().wait_idle(20s));
  all = bodies_of(receiver, c.id);
  CHECK(types_of(all) == std::vector<std::string>{"paymentIntent.created", "installment.created",
                                                  "paymentIntent.processed",
                                                  "installment.status_change"});
  auto log = t.get("/__admin/webhooks?payment_intent=" + c.id, false).json["events"];
  REQUIRE(log.size() == 4);
  for (const auto& e : log) CHECK(e["state"] == "delivered");
  const auto& first = log[0]["attempts"];
  REQUIRE(first.size() >= 4);
  for (size_t i = 0; i + 1 < first.size(); ++i) {
    CHECK(first[i]["status"] == 0);
    CHECK_FALSE(first[i]["error"].get<std::string>().empty());
  }
  CHECK(first.back()["status"] == 200);
}

TEST_CASE("the default retry policy outlasts a receiver down for ten minutes",
          "[webhooks][collections]") {
  // The default fixture's own policy, unchanged. Its real-time waits (up to a
  // minute) are brought forward by the org clock: moving it past a retry's
  // due instant makes the retry due at once (decisions row 21).
  TestOrg t(fixture("default.yaml"));
  const WebhookSettings& policy = t.org().config().webhooks;
  // Full jitter waits half the ceilings on average: those must add up to at
  // least 20 minutes for the average retry series to last ten.
  Millis ceilings{0};
  for (int n = 1; n < policy.max_attempts; ++n) ceilings += backoff_ceiling(policy, n);
  CHECK(ceilings >= Millis(20 * 60 * 1000));
  CHECK(backoff_ceiling(policy, policy.max_attempts) <= Millis(60 * 1000));

  Receiver receiver;
  int port = receiver.start();
  REQUIRE(port > 0);
  receiver.stop();  // the port is known, nobody listens yet
  auto c = t.create_intent(card_intent(hook_url(port)));
  REQUIRE(psp(t, c.session, "success").status == 200);
  auto failed_attempts = [&] {
    auto log = t.get("/__admin/webhooks?payment_intent=" + c.id, false).json["events"];
    return log.empty() ? size_t(0) : log[0]["attempts"].size();
  };
  // Twelve failed attempts, two org minutes apart: 22 minutes down.
  const size_t down_for = 12;
  REQUIRE(eventually([&] { return failed_attempts() >= 1; }, 20s));
  for (size_t n = 1; n < down_for; ++n) {
    t.advance_clock("2m");
    INFO("attempts so far: " << failed_attempts());
    REQUIRE(eventually([&] { return failed_attempts() >= n + 1; }, 20s));
  }
  // At least: a short real-time backoff may fire between two clock moves
  // (full jitter can pick a few milliseconds), which only adds attempts.
  CHECK(failed_attempts() >= down_for);
  auto log = t.get("/__admin/webhooks?payment_intent=" + c.id, false).json["events"];
  CHECK(log[0]["state"] == "pending");  // not given up

  REQUIRE(receiver.start(port) == port);
  t.advance_clock("2m");
  auto all = await(receiver, c.id, 4);
  REQUIRE(t.embedded().webhooks().wait_idle(20s));
  CHECK(types_of(bodies_of(receiver, c.id)) ==
        std::vector<std::string>{"paymentIntent.created", "installment.created",
                                 "paymentIntent.processed", "installment.status_change"});
  log = t.get("/__admin/webhooks?payment_intent=" + c.id, false).json["events"];
  REQUIRE(log.size() == 4);
  for (const auto& e : log) CHECK(e["state"] == "delivered");
  const auto& first = log[0]["attempts"];
  REQUIRE(first.size() >= down_for + 1);
  for (size_t i = 0; i + 1 < first.size(); ++i) CHECK(first[i]["status"] == 0);
  CHECK(first.back()["status"] == 200);
}
