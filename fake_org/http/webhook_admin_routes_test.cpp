// The admin routes through the Router, without a server: handler in, response out.
#include <catch2/catch.hpp>

#include "http/webhook_admin_routes.h"
#include "testing/webhook_fakes.h"

using namespace fake_org;
using namespace fake_org::testing;

namespace {

struct Answer {
  int status = 0;
  nlohmann::json json;
};

// The webhook handlers alone, mounted as the server mounts them under /__admin.
http::Router webhook_router(WebhookEngine& engine) {
  http::Handlers handlers;
  http::add_webhook_admin_handlers(handlers, engine);
  return http::Router(contracts::route_table(), std::move(handlers), {"", {"admin"}, true});
}

Answer call(const http::Router& router, const std::string& method, const std::string& path,
            const httplib::Params& query = {}) {
  auto m = router.match(method, "/__admin" + path);
  REQUIRE(m.outcome == http::Router::Outcome::kHandled);
  httplib::Request req;
  req.method = method;
  req.path = path;
  req.params = query;
  httplib::Response res;
  http::Call c{req, res, m.params, ""};
  (*m.handler)(c);
  return {res.status, nlohmann::json::parse(res.body)};
}

const std::string kUrl = "http://127.0.0.1:9/hook";

}  // namespace

TEST_CASE("admin routes list, show and resend webhook events", "[webhooks][admin]") {
  auto sender = fake_sender(always(200));
  WebhookEngine engine(fast_settings(), loopback_sites(),
                       std::make_shared<ManualClock>(*parse_iso8601("2027-01-31T09:00:00Z")),
                       std::move(sender.owned), std::make_shared<SeededRandom>(21));
  http::Router router = webhook_router(engine);
  std::string a = engine.enqueue(make_event("pi_a", kUrl));
  std::string b = engine.enqueue(make_event("pi_b", "https://example.com/x"));
  REQUIRE(engine.wait_idle(10s));

  auto list = call(router, "GET", "/webhooks");
  CHECK(list.status == 200);
  REQUIRE(list.json["events"].size() == 2);
  CHECK(list.json["events"][0]["id"] == a);
  CHECK(list.json["events"][0]["state"] == "delivered");
  CHECK(list.json["events"][1]["id"] == b);
  CHECK(list.json["events"][1]["state"] == "blocked");

  auto filtered = call(router, "GET", "/webhooks", {{"payment_intent", "pi_b"}});
  REQUIRE(filtered.json["events"].size() == 1);
  CHECK(filtered.json["events"][0]["id"] == b);

  auto one = call(router, "GET", "/webhooks/" + a);
  CHECK(one.status == 200);
  CHECK(one.json["id"] == a);
  CHECK(one.json["attempts"].size() == 1);

  auto missing = call(router, "GET", "/webhooks/evt_nope");
  CHECK(missing.status == 404);
  CHECK(missing.json == nlohmann::json::parse(R"({"Errors":[{"error_code":"200","error_message":
          "No webhook event has id 'evt_nope'; GET /__admin/webhooks lists them"}]})"));

  auto resent = call(router, "POST", "/webhooks/" + a + "/resend");
  CHECK(resent.status == 202);
  CHECK(resent.json["id"] == a);
  CHECK(resent.json["series"] == 2);
  REQUIRE(engine.wait_idle(10s));
  CHECK(sender.fake->calls().size() == 2);

  CHECK(call(router, "POST", "/webhooks/evt_nope/resend").status == 404);
  auto blocked = call(router, "POST", "/webhooks/" + b + "/resend");
  CHECK(blocked.status == 409);
  CHECK(blocked.json["Errors"][0]["error_message"] ==
        "Webhook event " + b +
            " was blocked: its URL is not a permitted remote site, so sending it again would be "
            "blocked too");
}

TEST_CASE("the webhook log comes in pages with its total", "[webhooks][admin]") {
  auto sender = fake_sender(always(200));
  WebhookEngine engine(fast_settings(), loopback_sites(),
                       std::make_shared<ManualClock>(*parse_iso8601("2027-01-31T09:00:00Z")),
                       std::move(sender.owned), std::make_shared<SeededRandom>(21));
  http::Router router = webhook_router(engine);
  std::vector<std::string> ids;
  for (int i = 0; i < 130; ++i)
    ids.push_back(engine.enqueue(make_event("pi_" + std::to_string(i % 2), kUrl)));
  REQUIRE(engine.wait_idle(10s));
  // A 6,000-event log was one 21 MB answer; now 100 by default.
  auto first = call(router, "GET", "/webhooks");
  CHECK(first.json["total"] == 130);
  CHECK(first.json["events"].size() == 100);
  CHECK(first.json["events"][0]["id"] == ids[0]);
  auto rest = call(router, "GET", "/webhooks", {{"offset", "100"}, {"limit", "50"}});
  CHECK(rest.json["events"].size() == 30);
  CHECK(rest.json["events"][0]["id"] == ids[100]);
  auto odd = call(router, "GET", "/webhooks",
                  {{"payment_intent", "pi_1"}, {"offset", "60"}, {"limit", "10"}});
  CHECK(odd.json["total"] == 65);
  REQUIRE(odd.json["events"].size() == 5);
  CHECK(odd.json["events"][0]["id"] == ids[121]);
  for (const auto& bad : {"0", "1001", "x", "-1"}) {
    auto r = call(router, "GET", "/webhooks", {{"limit", bad}});
    INFO(bad);
    CHECK(r.status == 400);
  }
}
