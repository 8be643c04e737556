// A JSON number no double holds (1e400): nlohmann's parser throws
// out_of_range 406 for it, not parse_error, and the API answered 500 / 999
// "Internal error". It is a malformed body like any other (decision 3; on
// POST /Payment decision 31).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

// The body as a client would write it: the number is text, never a double.
std::string intent_with_amount(const std::string& amount) {
  return R"({"SuccessURL":"https://shop.example/thanks","FailureURL":"https://shop.example/sorry",)"
         R"("Payer":{"Contact":{"CrmFields":{"FirstName":"Ada","LastName":"Lovelace"}}},)"
         R"("PaymentMethod":{"Name":"CreditCard"},"OneTime":{"Amount":)" +
         amount + "}}";
}

}  // namespace

TEST_CASE("a number too large to read is 400 / 010 on POST /PaymentIntent", "[number_overflow]") {
  TestOrg t(fixture("default.yaml"));
  for (const std::string& amount :
       std::vector<std::string>{"1e400", "-1e400", "1" + std::string(400, '0')}) {
    INFO(amount);
    auto r = t.post_raw("/PaymentIntent", intent_with_amount(amount));
    INFO(r.body);
    CHECK(r.status == 400);
    REQUIRE(r.json.contains("Errors"));
    CHECK(code_of(r) == "010");
    const std::string message = message_of(r);
    CHECK(message.find("number too large") != std::string::npos);
    CHECK(message.find("Internal error") == std::string::npos);
  }
  // The journal still shows the request (not as JSON: it cannot be read as such).
  auto journal = t.get("/__admin/requests?path=/PaymentIntent", false);
  INFO(journal.body);
  CHECK(journal.status == 200);
  CHECK(journal.json["requests"].size() == 3);
}

TEST_CASE("a number too large to read is a 010 failure body on POST /Payment (decision 31)",
          "[number_overflow]") {
  TestOrg t(fixture("default.yaml"));
  auto r = t.post_raw("/Payment", R"({"Payment":{"Amount":1e400}})");
  INFO(r.body);
  CHECK(r.status == 200);
  CHECK(r.json["ResponseCode"] == "010");
  CHECK(r.json["IsSuccess"] == false);
  CHECK(r.json["Message"].get<std::string>().find("number too large") != std::string::npos);
}

TEST_CASE("a number too large to read is 400 on the admin's POST endpoints", "[number_overflow]") {
  TestOrg t(fixture("default.yaml"));
  for (const std::string path : {"/__admin/records/Contact", "/__admin/faults", "/__admin/clock"}) {
    INFO(path);
    auto r = t.post_raw(path, R"({"advance":1e400})", false);
    INFO(r.body);
    CHECK(r.status == 400);
    CHECK(code_of(r) == "010");
  }
}
