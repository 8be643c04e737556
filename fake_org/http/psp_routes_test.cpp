// The simulated PSP: hosted page, payer actions with the PSP's HTTP callback,
// the headless admin driver, and the state changes of spec 3 (installment
// collected, payment record, payment profile, installment.status_change).
#include <catch2/catch.hpp>

#include "domain/payments/collections.h"
#include "events/psp_simulator.h"
#include "testing/intent_body.h"
#include "testing/test_org.h"
#include "testing/webhook_fakes.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

CreatedIntent create(TestOrg& t, const std::string& webhook = "") {
  return t.create_intent(hosted_card_intent(webhook));
}

httplib::Result press(TestOrg& t, const std::string& session, const std::string& action,
                      const std::string& card = "") {
  httplib::Params form{{"action", action}};
  if (!card.empty()) form.emplace("card_number", card);
  return t.submit_checkout(session, form);
}

}  // namespace

TEST_CASE("the hosted page shows merchant, amount, method and the three buttons", "[psp]") {
  TestOrg t(fixture("default.yaml"));
  auto i = create(t);
  auto c = t.page_client();
  auto r = c.Get(("/psp/checkout/" + i.session).c_str());
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->get_header_value("Content-Type").find("text/html") == 0);
  CHECK(r->body.find("25.00 EUR") != std::string::npos);
  CHECK(r->body.find("CreditCard") != std::string::npos);
  CHECK(r->body.find("Stripe") != std::string::npos);
  CHECK(r->body.find(t.org().config().org.name) != std::string::npos);
  for (const char* b : {">Pay<", ">Decline<", ">Cancel<", "card_number"})
    CHECK(r->body.find(b) != std::string::npos);
  CHECK(r->body.find("http") == std::string::npos);  // no external assets

  auto missing = c.Get("/psp/checkout/cs_nope");
  REQUIRE(missing);
  CHECK(missing->status == 404);
  CHECK(missing->body.find("<html") != std::string::npos);
}

TEST_CASE("Pay on the page collects the installment and lands on the SuccessURL", "[psp]") {
  TestOrg t(fixture("default.yaml"));
  auto i = create(t);
  auto r = press(t, i.session, "pay", "4242 4242 4242 4242");
  REQUIRE(r);
  CHECK(r->status == 303);
  CHECK(r->get_header_value("Location") == "https://shop.example/thanks?payment_intent=" + i.id);

  auto inst = t.get("/Installment/" + i.installment);
  REQUIRE(inst.status == 200);
  CHECK(inst.json["Status"] == "Collected");
  CHECK(inst.json["AmountOpen"] == 0);
  REQUIRE(inst.json["Payments"].size() == 1);
  std::string today = format_date(date_of(t.org().clock().now()));
  CHECK(inst.json["Payments"][0]["CollectionDate"] == today);
  CHECK(inst.json["Payments"][0]["Amount"] == 25);
  CHECK(inst.json["Payments"][0]["PaymentProcessor"] == "Stripe");

  auto profiles = t.get("/__admin/records/cpm__Payment_Profile__c", false);
  REQUIRE(profiles.json["totalSize"] == 1);
  auto profile = profiles.json["records"][0];
  CHECK(profile["cpm__Card_Last_Four__c"] == "4242");
  CHECK(profile["cpm__Card_Brand__c"] == "Visa");
  CHECK(t.org().psp_sessions().get(i.session)->status == "completed");

  // The page of a completed session, and a second Pay, charge nothing again.
  auto c = t.page_client();
  auto again = c.Get(("/psp/checkout/" + i.session).c_str());
  REQUIRE(again);
  CHECK(again->body.find("already completed") != std::string::npos);
  auto second = press(t, i.session, "pay");
  REQUIRE(second);
  CHECK(second->body.find("already completed") != std::string::npos);
  CHECK(t.get("/Installment/" + i.installment).json["Payments"].size() == 1);
}

TEST_CASE("Pay on the page works with one request running at a time", "[psp][request_gate]") {
  // The page's request waits for the PSP's callback to this same server: it
  // steps out of the request gate meanwhile, or the callback never runs.
  EmbeddedOptions options;
  options.max_running_requests = 1;
  TestOrg t(fixture("default.yaml"), options);
  auto i = create(t);
  auto r = press(t, i.session, "pay", "4242 4242 4242 4242");
  REQUIRE(r);
  CHECK(r->status == 303);
  CHECK(t.get("/Installment/" + i.installment).json["Status"] == "Collected");
}

TEST_CASE("a page pressed on a kept-alive connection gets its callback answered", "[psp]") {
  // The press is the connection's second request, so a keep-alive watch
  // worker serves it (decision 135) while it waits for the callback, which
  // comes on a new connection; with the fewest threads and one request
  // running at a time.
  EmbeddedOptions options;
  options.threads = 2;
  options.max_running_requests = 1;
  TestOrg t(fixture("default.yaml"), options);
  auto i = create(t);
  auto browser = t.page_client();
  browser.set_keep_alive(true);
  REQUIRE(browser.Get(("/psp/checkout/" + i.session).c_str())->status == 200);
  auto r = browser.Post(("/psp/checkout/" + i.session).c_str(),
                        httplib::Params{{"action", "pay"}, {"card_number", "4242 4242 4242 4242"}});
  REQUIRE(r);
  CHECK(r->status == 303);
  CHECK(t.get("/Installment/" + i.installment).json["Status"] == "Collected");
}

TEST_CASE("a declined card keeps the installment open, the payer retries and pays", "[psp]") {
  TestOrg t(fixture("default.yaml"));
  auto i = create(t);
  auto declined = press(t, i.session, "pay", psp_magic::kCardDecline);
  REQUIRE(declined);
  CHECK(declined->status == 303);
  CHECK(declined->get_header_value("Location") ==
        "https://shop.example/sorry?step=2&payment_intent=" + i.id);
  auto inst = t.get("/Installment/" + i.installment);
  CHECK(inst.json["Status"] == "Outstanding");
  CHECK(inst.json["Payments"].empty());

  auto paid = press(t, i.session, "pay", "5555 5555 5555 4444");
  REQUIRE(paid);
  CHECK(paid->status == 303);
  CHECK(paid->get_header_value("Location").rfind("https://shop.example/thanks", 0) == 0);
  inst = t.get("/Installment/" + i.installment);
  CHECK(inst.json["Status"] == "Collected");
  CHECK(inst.json["Payments"].size() == 1);
  auto s = t.org().psp_sessions().get(i.session);
  CHECK(s->attempts == 2);
  auto profile = t.get("/__admin/records/cpm__Payment_Profile__c", false).json["records"][0];
  CHECK(profile["cpm__Card_Last_Four__c"] == "4444");
  CHECK(profile["cpm__Card_Brand__c"] == "Mastercard");
}

TEST_CASE("Cancel on the page goes to the FailureURL and leaves the installment open", "[psp]") {
  TestOrg t(fixture("default.yaml"));
  auto i = create(t);
  auto r = press(t, i.session, "cancel");
  REQUIRE(r);
  CHECK(r->status == 303);
  CHECK(r->get_header_value("Location").rfind("https://shop.example/sorry", 0) == 0);
  CHECK(t.get("/Installment/" + i.installment).json["Status"] == "Outstanding");
  CHECK(t.org().psp_sessions().get(i.session)->status == "cancelled");
}

TEST_CASE("a challenge card shows the 3-D Secure page, failing declines, passing pays", "[psp]") {
  TestOrg t(fixture("default.yaml"));
  auto i = create(t);
  auto asked = press(t, i.session, "pay", "4000 0000 0000 3220");
  REQUIRE(asked);
  CHECK(asked->status == 200);
  for (const char* b : {"id=\"challenge\"", "id=\"challenge-pass\"", "id=\"challenge-fail\"",
                        "/psp/checkout/", "3220"})
    CHECK(asked->body.find(b) != std::string::npos);
  CHECK(asked->body.find("http") == std::string::npos);
  // Nothing reaches the org before the payer answers.
  CHECK(t.get("/Installment/" + i.installment).json["Status"] == "Outstanding");
  CHECK(t.org().psp_sessions().get(i.session)->attempts == 0);

  auto c = t.page_client();
  auto answer = [&](const std::string& challenge) {
    httplib::Params form{{"card_number", psp_magic::kCardChallenge}, {"challenge", challenge}};
    return c.Post(("/psp/checkout/" + i.session + "/challenge").c_str(), form);
  };
  auto bad = answer("maybe");
  REQUIRE(bad);
  CHECK(bad->status == 400);
  CHECK(bad->body.find("challenge-pass") != std::string::npos);
  CHECK(t.org().psp_sessions().get(i.session)->attempts == 0);

  auto failed = answer("fail");
  REQUIRE(failed);
  CHECK(failed->status == 303);
  CHECK(failed->get_header_value("Location") ==
        "https://shop.example/sorry?step=2&payment_intent=" + i.id);
  CHECK(t.get("/Installment/" + i.installment).json["Status"] == "Outstanding");
  CHECK(t.org().psp_sessions().get(i.session)->status == "failed");

  auto passed = answer("pass");
  REQUIRE(passed);
  CHECK(passed->status == 303);
  CHECK(passed->get_header_value("Location") ==
        "https://shop.example/thanks?payment_intent=" + i.id);
  CHECK(t.get("/Installment/" + i.installment).json["Status"] == "Collected");
  auto profile = t.get("/__admin/records/cpm__Payment_Profile__c", false).json["records"][0];
  CHECK(profile["cpm__Card_Last_Four__c"] == "3220");

  auto late = answer("pass");  // a paid session is never charged twice
  REQUIRE(late);
  CHECK(late->body.find("already completed") != std::string::npos);
  CHECK(t.get("/Installment/" + i.installment).json["Payments"].size() == 1);
}

TEST_CASE("the admin driver needs the challenge answer for a challenge card", "[psp]") {
  TestOrg t(fixture("default.yaml"));
  auto i = create(t);
  auto path = "/__admin/psp/" + i.session + "/complete";
  json card = {{"outcome", "success"}, {"card_number", psp_magic::kCardChallenge}};

  auto missing = t.post(path, card, false);
  CHECK(missing.status == 400);
  CHECK(message_of(missing).find("\"challenge\"") != std::string::npos);
  json maybe = card;
  maybe["challenge"] = "maybe";
  auto refused = t.post(path, maybe, false);
  CHECK(refused.status == 422);  // invalid data (200), as the org answers it
  CHECK(code_of(refused) == "200");
  CHECK(t.get("/Installment/" + i.installment).json["Status"] == "Outstanding");
  CHECK(t.org().psp_sessions().get(i.session)->attempts == 0);

  // Decline and Cancel never ask for the challenge.
  auto declined =
      t.post(path, {{"outcome", "failure"}, {"card_number", psp_magic::kCardChallenge}}, false);
  CHECK(declined.status == 200);
  CHECK(declined.json["status"] == "failed");

  json fail = card;
  fail["challenge"] = "fail";
  auto failed = t.post(path, fail, false);
  CHECK(failed.status == 200);
  CHECK(failed.json["status"] == "failed");
  CHECK(failed.json["redirect"] == "https://shop.example/sorry?step=2&payment_intent=" + i.id);

  json pass = card;
  pass["challenge"] = "pass";
  auto paid = t.post(path, pass, false);
  CHECK(paid.status == 200);
  CHECK(paid.json["status"] == "completed");
  CHECK(t.get("/Installment/" + i.installment).json["Status"] == "Collected");
  // A challenge answer on a frictionless card is ignored, as a PSP would.
  auto other = create(t);
  auto frictionless = t.post("/__admin/psp/" + other.session + "/complete",
                             {{"outcome", "success"}, {"challenge", "fail"}}, false);
  CHECK(frictionless.json["status"] == "completed");
}

TEST_CASE("the admin driver completes a session through the callback", "[psp]") {
  TestOrg t(fixture("default.yaml"));
  auto i = create(t);
  auto bad = t.post("/__admin/psp/" + i.session + "/complete", {{"outcome", "maybe"}}, false);
  CHECK(bad.status == 400);
  CHECK(bad.json["Errors"][0]["error_code"].is_string());
  auto unknown = t.post("/__admin/psp/cs_unknown/complete", {{"outcome", "success"}}, false);
  CHECK(unknown.status == 404);
  CHECK(unknown.json["Errors"][0]["error_message"].is_string());

  auto fail = t.post("/__admin/psp/" + i.session + "/complete", {{"outcome", "failure"}}, false);
  CHECK(fail.status == 200);
  CHECK(fail.json["status"] == "failed");
  CHECK(fail.json["redirect"] == "https://shop.example/sorry?step=2&payment_intent=" + i.id);

  auto ok = t.post("/__admin/psp/" + i.session + "/complete",
                   {{"outcome", "success"}, {"card_number", "4242424242424242"}}, false);
  REQUIRE(ok.status == 200);
  CHECK(ok.json["session"] == i.session);
  CHECK(ok.json["status"] == "completed");
  CHECK(ok.json["redirect"] == "https://shop.example/thanks?payment_intent=" + i.id);
  CHECK(t.get("/Installment/" + i.installment).json["Status"] == "Collected");

  auto twice = t.post("/__admin/psp/" + i.session + "/complete", {{"outcome", "success"}}, false);
  CHECK(twice.status == 409);
  CHECK(twice.json["Errors"][0]["error_code"].is_string());
}

TEST_CASE("collecting publishes installment.status_change to the WebhookURL", "[psp]") {
  Receiver receiver;
  int port = receiver.start();
  REQUIRE(port > 0);
  TestOrg t(fixture("default.yaml"));
  std::string hook = "http://127.0.0.1:" + std::to_string(port) + "/hooks";
  auto i = create(t, hook);
  auto ok = t.post("/__admin/psp/" + i.session + "/complete", {{"outcome", "success"}}, false);
  REQUIRE(ok.status == 200);
  bool arrived = eventually([&] {
    for (const auto& r : receiver.requests()) {
      auto b = json::parse(r.body, nullptr, false);
      if (b.is_object() && b.value("type", "") == "installment.status_change") return true;
    }
    return false;
  });
  REQUIRE(arrived);
  for (const auto& r : receiver.requests()) {
    auto b = json::parse(r.body);
    if (b["type"] != "installment.status_change") continue;
    CHECK(b["data"]["Id"] == i.installment);
    CHECK(b["data"]["Status"] == "Collected");
    CHECK(b["data"]["AmountOpen"] == 0);
    CHECK(b["data"]["PaymentIntentId"] == i.id);
    CHECK(b["data"]["Payments"].size() == 1);
  }
  auto log = t.get("/__admin/webhooks?payment_intent=" + i.id, false);
  bool logged = false;
  for (const auto& e : log.json["events"])
    if (e.dump().find("installment.status_change") != std::string::npos) logged = true;
  CHECK(logged);
}

TEST_CASE("the domain completes by installment id and dedups the profile per contact", "[psp]") {
  TestOrg t(fixture("default.yaml"));
  auto a = create(t);
  auto b = create(t);  // same contact (deduplicated by email)
  PspOutcome o;
  o.card_brand = "Visa";
  o.last_four = "1111";
  REQUIRE(complete_payment(t.org(), a.installment, o).ok());
  o.last_four = "2222";
  REQUIRE(complete_payment(t.org(), b.session, o).ok());
  // One profile per contact + method + processor.
  auto contact_of = [&](const std::string& inst) {
    return t.get("/__admin/records/cpm__Installment__c/" + inst, false)
        .json.value("cpm__Contact__c", "");
  };
  bool same_contact = contact_of(a.installment) == contact_of(b.installment);
  auto profiles = t.get("/__admin/records/cpm__Payment_Profile__c", false);
  CHECK(profiles.json["totalSize"] == (same_contact ? 1 : 2));
  CHECK(profiles.json["records"].back()["cpm__Card_Last_Four__c"] == "2222");
  auto again = complete_payment(t.org(), a.session, o);
  REQUIRE_FALSE(again.ok());
  CHECK(again.errors()[0].kind == ErrorKind::kConflict);
  CHECK(decline_payment(t.org(), "cs_nothing").errors()[0].kind == ErrorKind::kNotFound);
  CHECK(append_payment_intent("https://x/y?a=1", "pi_1") == "https://x/y?a=1&payment_intent=pi_1");
}

TEST_CASE("a hosted page expires 24 hours after its intent opened it, on the org clock", "[psp]") {
  TestOrg t(fixture("default.yaml"));
  auto i = create(t);
  auto c = t.page_client();
  t.advance_clock("1439m");
  auto open = c.Get(("/psp/checkout/" + i.session).c_str());
  REQUIRE(open);
  CHECK(open->status == 200);

  t.advance_clock("1m");
  auto gone = c.Get(("/psp/checkout/" + i.session).c_str());
  REQUIRE(gone);
  CHECK(gone->status == 404);
  CHECK(gone->body.find("expires 24 hours after the payment intent opened it") !=
        std::string::npos);
  auto pay = press(t, i.session, "pay", "4242 4242 4242 4242");
  REQUIRE(pay);
  CHECK(pay->status == 404);
  auto driver = t.post("/__admin/psp/" + i.session + "/complete", {{"outcome", "success"}}, false);
  CHECK(driver.status == 404);
  CHECK(driver.json["Errors"][0]["error_message"] ==
        "No open hosted payment session '" + i.session +
            "': use the last path segment of a RedirectURL; a session expires 24 hours after "
            "its payment intent opened it (org clock)");
  // Nothing was collected: the installment waits for a new intent to pay it.
  CHECK(t.admin_record("cpm__Installment__c", i.installment)["cpm__Status__c"] == "Outstanding");
}

TEST_CASE("org.psp_session_expiry sets how long a hosted page stays open", "[psp]") {
  OrgConfig config = fixture("default.yaml");
  config.org.psp_session_expiry = Millis(90 * 60'000);
  TestOrg t(config);
  auto i = create(t);
  t.advance_clock("89m");
  CHECK(t.post("/__admin/psp/" + i.session + "/complete", {{"outcome", "failure"}}, false).status ==
        200);
  t.advance_clock("1m");
  auto late = t.post("/__admin/psp/" + i.session + "/complete", {{"outcome", "success"}}, false);
  CHECK(late.status == 404);
  CHECK(late.json["Errors"][0]["error_message"].get<std::string>().find("expires 90 minutes") !=
        std::string::npos);
}
