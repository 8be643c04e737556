// What the headless PSP driver (POST /__admin/psp/{session}/complete) and the
// hosted page accept from the payer: wrongly typed or invalid fields are the
// caller's mistake (400, 010 naming the field; the page re-renders with an
// error), never a 500 and never a payment.
#include <catch2/catch.hpp>

#include "events/psp_simulator.h"
#include "testing/intent_body.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

void check_refused(const Response& r, const std::string& field) {
  INFO(r.body);
  CHECK(r.status == 400);
  REQUIRE(r.json.contains("Errors"));
  CHECK(code_of(r) == "010");
  CHECK(message_of(r).find("'" + field + "'") != std::string::npos);
}

}  // namespace

TEST_CASE("the PSP driver answers 400 naming a wrongly typed field, never 500", "[psp][driver]") {
  TestOrg t(fixture("default.yaml"));
  auto i = t.create_intent(hosted_card_intent());
  const std::string path = "/__admin/psp/" + i.session + "/complete";
  const json wrong[] = {json::array({"success"}), json(5), json::object(), json(true),
                        json(nullptr)};
  for (const char* field : {"outcome", "card_number", "iban", "holder", "email", "challenge",
                            "exp_month", "exp_year"}) {
    for (const json& v : wrong) {
      json b = {{"outcome", "success"}};
      b[field] = v;
      if (std::string(field).rfind("exp_", 0) == 0 && v.is_number_integer()) continue;
      INFO(field << " = " << v.dump());
      check_refused(t.post(path, b, false), field);
    }
  }
  for (const char* field : {"exp_month", "exp_year"}) {
    for (const json& v : {json("12"), json(12.5), json(4294967308ULL)}) {
      INFO(field << " = " << v.dump());
      check_refused(t.post(path, {{"outcome", "success"}, {field, v}}, false), field);
    }
  }
  auto not_object = t.post_raw(path, "[\"success\"]", false);
  CHECK(not_object.status == 400);
  CHECK(t.get("/Installment/" + i.installment).json["Status"] == "Outstanding");
  CHECK(t.org().psp_sessions().get(i.session)->attempts == 0);
}

TEST_CASE("the PSP driver refuses invalid payer data as a PSP would, naming the field",
          "[psp][driver]") {
  TestOrg t(fixture("default.yaml"));
  t.set_clock("2027-06-15T09:00:00Z");
  auto i = t.create_intent(hosted_card_intent());
  const std::string path = "/__admin/psp/" + i.session + "/complete";
  auto pay = [&](json extra) {
    json b = {{"outcome", "success"}};
    b.update(extra);
    return t.post(path, b, false);
  };
  check_refused(pay({{"card_number", "abc"}}), "card_number");
  check_refused(pay({{"card_number", "4242424242424241"}}), "card_number");  // Luhn
  check_refused(pay({{"card_number", "42424242424"}}), "card_number");       // 11 digits
  check_refused(pay({{"card_number", "4242-4242-4242-4242"}}), "card_number");
  check_refused(pay({{"exp_month", 13}}), "exp_month");
  check_refused(pay({{"exp_month", 0}}), "exp_month");
  check_refused(pay({{"exp_year", 1999}}), "exp_year");
  check_refused(pay({{"exp_year", 2027}, {"exp_month", 5}}), "exp_year");  // May 2027: expired
  check_refused(pay({{"exp_year", 3000}}), "exp_year");
  check_refused(t.post(path, {{"outcome", "failure"}, {"exp_month", 13}}, false), "exp_month");
  CHECK(t.get("/Installment/" + i.installment).json["Status"] == "Outstanding");
  CHECK(t.org().psp_sessions().get(i.session)->attempts == 0);

  // June 2027 is still valid in June 2027; spaces are allowed.
  auto ok = pay({{"card_number", "4242 4242 4242 4242"}, {"exp_month", 6}, {"exp_year", 2027}});
  INFO(ok.body);
  CHECK(ok.status == 200);
  CHECK(ok.json["status"] == "completed");
}

TEST_CASE("the PSP driver refuses a wallet login that is not an email address", "[psp][driver]") {
  TestOrg t(fixture("default.yaml"));
  auto i = t.create_intent(hosted_card_intent().method(payment_method("PayPal")));
  const std::string path = "/__admin/psp/" + i.session + "/complete";
  for (const char* bad : {"notanemail", "a@b", "@example.org", "a b@example.org", "a@@example.org"})
    check_refused(t.post(path, {{"outcome", "success"}, {"email", bad}}, false), "email");
  auto ok = t.post(path, {{"outcome", "success"}, {"email", "payer@example.org"}}, false);
  CHECK(ok.status == 200);
  CHECK(ok.json["status"] == "completed");
}

TEST_CASE("the hosted page re-renders with an error for invalid input and sends nothing",
          "[psp][page]") {
  TestOrg t(fixture("default.yaml"));
  auto i = t.create_intent(hosted_card_intent());
  auto refused = [&](httplib::Params form, int status, const std::string& says) {
    auto r = t.submit_checkout(i.session, form);
    REQUIRE(r);
    INFO(r->body);
    CHECK(r->status == status);
    CHECK(r->get_header_value("Location").empty());
    CHECK(r->body.find("id=\"input-error\"") != std::string::npos);
    CHECK(r->body.find(says) != std::string::npos);
    CHECK(r->body.find("id=\"pay\"") != std::string::npos);  // the form again
  };
  refused({{"action", "pay"}, {"card_number", "abc"}}, 422, "card number is invalid");
  refused({{"action", "pay"}, {"card_number", "4242 4242 4242 4241"}}, 422,
          "card number is invalid");
  refused({{"action", "foo"}, {"card_number", "4242 4242 4242 4242"}}, 400,
          "Choose Pay, Decline or Cancel");
  refused({{"card_number", "4242 4242 4242 4242"}}, 400, "Choose Pay, Decline or Cancel");
  // The challenge page's hidden card number is checked again.
  httplib::Client c("127.0.0.1", t.embedded().port());
  auto tampered = c.Post(("/psp/checkout/" + i.session + "/challenge").c_str(),
                         httplib::Params{{"card_number", "123"}, {"challenge", "pass"}});
  REQUIRE(tampered);
  CHECK(tampered->status == 422);
  CHECK(t.get("/Installment/" + i.installment).json["Status"] == "Outstanding");
  CHECK(t.org().psp_sessions().get(i.session)->attempts == 0);

  // The magic cards keep working: a decline, then a pay.
  auto declined =
      t.submit_checkout(i.session, {{"action", "pay"}, {"card_number", "4000 0000 0000 0002"}});
  REQUIRE(declined);
  CHECK(declined->status == 303);
  auto paid =
      t.submit_checkout(i.session, {{"action", "pay"}, {"card_number", "4242 4242 4242 4242"}});
  REQUIRE(paid);
  CHECK(paid->status == 303);
  CHECK(t.get("/Installment/" + i.installment).json["Status"] == "Collected");
}

TEST_CASE("the wallet page refuses a login that is not an email address", "[psp][page]") {
  TestOrg t(fixture("default.yaml"));
  auto i = t.create_intent(hosted_card_intent().method(payment_method("PayPal")));
  auto r = t.submit_checkout(i.session, {{"action", "pay"}, {"email", "notanemail"}});
  REQUIRE(r);
  CHECK(r->status == 422);
  CHECK(r->body.find("email address of your wallet login") != std::string::npos);
  CHECK(t.get("/Installment/" + i.installment).json["Status"] == "Outstanding");
  auto ok = t.submit_checkout(i.session, {{"action", "pay"}, {"email", "payer@example.org"}});
  REQUIRE(ok);
  CHECK(ok->status == 303);
}
