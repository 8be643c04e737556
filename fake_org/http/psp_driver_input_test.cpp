// What the headless PSP driver (POST /__admin/psp/{session}/complete) and the
// hosted page accept from the payer: wrongly typed or invalid fields are the
// caller's mistake (400, 010 naming the field; the page re-renders with an
// error), never a 500 and never a payment.
#include <catch2/catch.hpp>

#include "events/psp_simulator.h"
#include "test_support.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

json card_intent() {
  return {{"SuccessURL", "https://shop.example/thanks"},
          {"FailureURL", "https://shop.example/sorry"},
          {"Payer",
           {{"Contact",
             {{"CrmFields",
               {{"FirstName", "Ada"}, {"LastName", "Lovelace"}, {"Email", "ada@example.org"}}}}}}},
          {"OneTime", {{"Amount", 25}}},
          {"PaymentMethod", {{"Name", "CreditCard"}}}};
}

struct Intent {
  std::string id, session, installment;
};

Intent create(TestOrg& t, json body = card_intent()) {
  auto r = t.post("/PaymentIntent", body);
  INFO(r.body);
  REQUIRE(r.status == 200);
  Intent i;
  i.id = r.json["Id"];
  std::string redirect = r.json["RedirectURL"];
  i.session = redirect.substr(redirect.rfind('/') + 1);
  i.installment = t.get("/PaymentIntent/" + i.id).json["OneTime"]["Id"];
  return i;
}

void check_refused(const Response& r, const std::string& field) {
  INFO(r.body);
  CHECK(r.status == 400);
  REQUIRE(r.json.contains("Errors"));
  CHECK(r.json["Errors"][0]["error_code"] == "010");
  CHECK(r.json["Errors"][0]["error_message"].get<std::string>().find("'" + field + "'") !=
        std::string::npos);
}

}  // namespace

TEST_CASE("the PSP driver answers 400 naming a wrongly typed field, never 500", "[psp][driver]") {
  TestOrg t(fixture("default.yaml"));
  auto i = create(t);
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
