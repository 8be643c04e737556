// Orgs made at run time say who made them and when, go when their time to
// live runs out, and go quietly when deleted.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

#include "app/embedded.h"
#include "testing/fixtures.h"
#include "testing/stderr_capture.h"
#include "util/calendar.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

std::shared_ptr<EmbeddedOrg> start_lease_server(http::LogLevel level = http::LogLevel::kQuiet) {
  EmbeddedOptions options;
  options.max_orgs = 8;
  options.log_level = level;
  return EmbeddedOrg::start(fixture("default.yaml"), options);
}

json listed_org(httplib::Client& client, const std::string& name) {
  auto r = client.Get("/__admin/orgs");
  REQUIRE(r);
  const json all = json::parse(r->body);
  for (const auto& org : all["orgs"])
    if (org["name"] == name) return org;
  return nullptr;
}

}  // namespace

TEST_CASE("GET /__admin/orgs says who made each org, when, and until when", "[orgs][lease]") {
  auto server = start_lease_server();
  httplib::Client client("127.0.0.1", server->port());
  auto r =
      client.Post("/__admin/orgs",
                  R"({"fixture": "default.yaml", "name": "ci-7", "ttl": "2h", "login_paths": false,
                           "created_by": "pipeline 42 on runner-3"})",
                  "application/json");
  REQUIRE(r);
  INFO(r->body);
  REQUIRE(r->status == 201);
  const json made = json::parse(r->body);
  CHECK(made["created_by"] == "pipeline 42 on runner-3");
  CHECK(made["ttl_seconds"] == 7200);
  const json org = listed_org(client, "ci-7");
  CHECK(org["created_by"] == "pipeline 42 on runner-3");
  const auto created = parse_iso8601(org["created_at"].get<std::string>());
  const auto expires = parse_iso8601(org["expires_at"].get<std::string>());
  REQUIRE(created);
  REQUIRE(expires);
  CHECK(*expires - *created == std::chrono::hours(2));
  const auto now = std::chrono::system_clock::now();
  CHECK(std::chrono::abs(now - *created) < std::chrono::minutes(1));  // real time, not an org clock

  // A client that does not say is named by its User-Agent and address.
  r = client.Post("/__admin/orgs", R"({"name": "anon", "login_paths": false})", "application/json");
  REQUIRE(r->status == 201);
  const json anon = listed_org(client, "anon");
  CHECK(anon["created_by"].get<std::string>().find(" at 127.0.0.1") != std::string::npos);
  CHECK(anon["ttl_seconds"].is_null());
  CHECK(anon["expires_at"].is_null());
  CHECK(listed_org(client, server->sites().root()->name)["created_by"] == "the command line");

  for (const char* bad : {R"("0s")", R"("25h")", R"("soon")", "-5", "true"}) {
    INFO(bad);
    r = client.Post("/__admin/orgs", std::string(R"({"ttl": )") + bad + "}", "application/json");
    REQUIRE(r);
    CHECK(r->status == 400);
    CHECK(r->body.find("'ttl' must be a duration") != std::string::npos);
  }
  r = client.Post("/__admin/orgs", R"({"created_by": ""})", "application/json");
  CHECK(r->status == 400);
}

TEST_CASE("an org whose time to live runs out is deleted with no request to prompt it",
          "[orgs][lease]") {
  auto server = start_lease_server();
  httplib::Client client("127.0.0.1", server->port());
  auto keep = client.Post("/__admin/orgs", R"({"name": "kept", "ttl": "1h", "login_paths": false})",
                          "application/json");
  REQUIRE(keep->status == 201);
  // Long enough that a loaded sanitizer build still finds it right after.
  auto r = client.Post("/__admin/orgs", R"({"name": "brief", "ttl": "2s", "login_paths": false})",
                       "application/json");
  REQUIRE(r);
  REQUIRE(r->status == 201);
  CHECK(server->sites().find("brief"));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (server->sites().find("brief") && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK_FALSE(server->sites().find("brief"));
  CHECK(server->sites().find("kept"));
  // Deleted by hand first, an org is not deleted again when its time comes.
  REQUIRE(client.Delete("/__admin/orgs/kept")->status == 200);
  CHECK(client.Get("/orgs/brief/__admin/health")->status == 404);
}

TEST_CASE("deleting an org with webhooks still queued prints no shutdown notice", "[orgs][lease]") {
  // The notice is for a server shutting down; an org deleted while the
  // server runs drops its queue by design, once per throwaway org.
  auto server = start_lease_server(http::LogLevel::kError);
  httplib::Client client("127.0.0.1", server->port());
  REQUIRE(
      client
          .Post("/__admin/orgs", R"({"name": "hooks", "login_paths": false})", "application/json")
          ->status == 201);
  StderrCapture err;
  server->sites().find("hooks")->services.webhooks->enqueue(
      {"paymentIntent.created",
       "pi_1",
       "http://127.0.0.1:9/hook",
       {{"type", "paymentIntent.created"}, {"data", {{"Id", "pi_1"}}}}});
  REQUIRE(client.Delete("/__admin/orgs/hooks")->status == 200);
  CHECK_FALSE(server->sites().find("hooks"));
  CHECK(err.text().find("abandoned") == std::string::npos);
}
