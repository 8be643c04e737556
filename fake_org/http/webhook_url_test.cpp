// URLs of a payment intent as RFC 3986 reads them: scheme and host in any
// case; a WebhookURL with dot segments is refused (it would pass a permitted
// site's path prefix and go elsewhere once resolved).
#include <catch2/catch.hpp>

#include "test_support.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

json intent() {
  return {{"SuccessURL", "HTTPS://Shop.Example/ok"},
          {"FailureURL", "Http://shop.example/ko"},
          {"Payer", {{"Contact", {{"CrmFields", {{"LastName", "Case"}}}}}}},
          {"OneTime", {{"Amount", 10}}},
          {"PaymentMethod", {{"Name", "CreditCard"}}}};
}

}  // namespace

TEST_CASE("URL schemes and hosts in any case are absolute http(s) URLs", "[http][webhooks]") {
  TestOrg t(fixture("default.yaml"));
  json b = intent();
  b["WebhookURL"] = "HTTP://127.0.0.1:9555/";
  auto r = t.post("/PaymentIntent", b);
  INFO(r.body);
  CHECK(r.status == 200);
}

TEST_CASE("a WebhookURL with a dot segment is refused naming it", "[http][webhooks]") {
  TestOrg t(fixture("default.yaml"));
  for (const char* url : {"http://127.0.0.1:9/only/../x", "http://127.0.0.1:9/only/%2E%2e/x",
                          "http://127.0.0.1:9/./x"}) {
    json b = intent();
    b["WebhookURL"] = url;
    auto r = t.post("/PaymentIntent", b);
    INFO(url << ": " << r.body);
    CHECK(r.status == 422);
    CHECK(r.json["Errors"][0]["error_code"] == "200");
    CHECK(r.json["Errors"][0]["error_message"] ==
          "WebhookURL '" + std::string(url) +
              "' has a '.' or '..' path segment; send the path it stands for");
  }
  CHECK(t.admin_records("cpm__Installment__c").empty());
}
