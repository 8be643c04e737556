// URLs of a payment intent as RFC 3986 reads them: scheme and host in any
// case; a WebhookURL with dot segments is refused (it would pass a permitted
// site's path prefix and go elsewhere once resolved).
#include <catch2/catch.hpp>

#include "testing/intent_body.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

IntentBody intent() {
  return IntentBody::one_time()
      .urls("HTTPS://Shop.Example/ok", "Http://shop.example/ko")
      .contact({{"LastName", "Case"}})
      .amount(10);
}

}  // namespace

TEST_CASE("URL schemes and hosts in any case are absolute http(s) URLs", "[http][webhooks]") {
  TestOrg t(fixture("default.yaml"));
  auto r = t.post("/PaymentIntent", intent().webhook("HTTP://127.0.0.1:9555/"));
  INFO(r.body);
  CHECK(r.status == 200);
}

TEST_CASE("a WebhookURL with a dot segment is refused naming it", "[http][webhooks]") {
  TestOrg t(fixture("default.yaml"));
  for (const char* url : {"http://127.0.0.1:9/only/../x", "http://127.0.0.1:9/only/%2E%2e/x",
                          "http://127.0.0.1:9/./x"}) {
    auto r = t.post("/PaymentIntent", intent().webhook(url));
    INFO(url << ": " << r.body);
    CHECK(r.status == 422);
    CHECK(code_of(r) == "200");
    CHECK(message_of(r) == "WebhookURL '" + std::string(url) +
                               "' has a '.' or '..' path segment; send the path it stands for");
  }
  CHECK(t.admin_records("cpm__Installment__c").empty());
}
