#include "events/webhook_signature.h"

#include <catch2/catch.hpp>

using namespace fake_org;

TEST_CASE("the signature is v1= and hex HMAC-SHA256 over timestamp.body", "[webhooks]") {
  // Known answer computed with Python's hmac module (the README's snippet).
  std::string body = R"({"data":{"Id":"pi_1"},"type":"paymentIntent.processed"})";
  CHECK(webhook_signature("whsec_test", "1767225600", body) ==
        "v1=2ea2b0099d1bdc2b019ca860385e01e60603a6b69fca2fbb70c7fdc50f096d28");
  CHECK(webhook_signature("whsec_test", "1767225601", body) !=
        webhook_signature("whsec_test", "1767225600", body));
}

TEST_CASE("unsigned deliveries carry the four fixed headers", "[webhooks]") {
  auto h = webhook_headers({"evt_1", 3, 1767225600}, "{}", "");
  CHECK(h == HeaderList{{"Content-Type", "application/json"},
                        {"User-Agent", "fake-org-webhooks/1"},
                        {"X-Webhook-Id", "evt_1"},
                        {"X-Webhook-Attempt", "3"}});
}

TEST_CASE("signed deliveries add timestamp and signature", "[webhooks]") {
  std::string body = R"({"data":{"Id":"pi_1"},"type":"paymentIntent.processed"})";
  auto h = webhook_headers({"evt_1", 1, 1767225600}, body, "whsec_test");
  REQUIRE(h.size() == 6);
  CHECK(h[4] == std::pair<std::string, std::string>{"X-Webhook-Timestamp", "1767225600"});
  CHECK(h[5] == std::pair<std::string, std::string>{
                    "X-Webhook-Signature",
                    "v1=2ea2b0099d1bdc2b019ca860385e01e60603a6b69fca2fbb70c7fdc50f096d28"});
}
