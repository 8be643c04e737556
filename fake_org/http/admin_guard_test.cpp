// The admin guard (admin_guard.h, docs/security.md): a web page in the
// developer's browser cannot drive /__admin, whether it posts across sites,
// rebinds its DNS name to 127.0.0.1 or frames the dashboard; the org's own
// API stays open to any client.
#include <catch2/catch.hpp>

#include "http/admin_guard.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

struct GuardAnswer {
  int status = 0;
  std::string body;
  httplib::Headers headers;
  std::string header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
  }
};

// One request with exactly these headers (Host among them when given).
GuardAnswer guard_send(int port, const std::string& method, const std::string& path,
                       httplib::Headers headers, const std::string& body = "",
                       const char* type = nullptr) {
  httplib::Client c("127.0.0.1", port);
  httplib::Result r = method == "GET"      ? c.Get(path.c_str(), headers)
                      : method == "DELETE" ? c.Delete(path.c_str(), headers)
                      : type               ? c.Post(path.c_str(), headers, body, type)
                                           : c.Post(path.c_str(), headers, body, "");
  REQUIRE(r);
  return GuardAnswer{r->status, r->body, r->headers};
}

std::string guard_local_host(int port) {
  return "127.0.0.1:" + std::to_string(port);
}

// The token the dashboard's pages carry in <meta name="fake-org-token">.
std::string guard_page_token(int port) {
  auto page = guard_send(port, "GET", "/__admin/ui", {});
  REQUIRE(page.status == 200);
  const std::string marker = "<meta name=\"fake-org-token\" content=\"";
  const size_t at = page.body.find(marker);
  REQUIRE(at != std::string::npos);
  const size_t start = at + marker.size();
  return page.body.substr(start, page.body.find('"', start) - start);
}

std::string guard_clock(TestOrg& t) {
  return t.get("/__admin/clock", false).json.at("now").get<std::string>();
}

}  // namespace

TEST_CASE("the admin guard reads a Host header's name strictly", "[http][admin][security]") {
  CHECK(http::host_name_of("LocalHost:8080") == "localhost");
  CHECK(http::host_name_of("[::1]:8080") == "::1");
  CHECK(http::host_name_of("::1") == "::1");
  CHECK(http::host_name_of("fake-org.") == "fake-org");
  CHECK(http::host_name_of("127.0.0.1") == "127.0.0.1");
  CHECK(http::is_loopback_host_name("localhost"));
  CHECK(http::is_loopback_host_name("dashboard.localhost"));
  CHECK(http::is_loopback_host_name("127.0.0.1"));
  CHECK(http::is_loopback_host_name("127.255.3.4"));
  CHECK(http::is_loopback_host_name("::1"));
  // A rebinding attacker's names that merely start or end like loopback.
  CHECK_FALSE(http::is_loopback_host_name("127.0.0.1.evil.example"));
  CHECK_FALSE(http::is_loopback_host_name("localhost.evil.example"));
  CHECK_FALSE(http::is_loopback_host_name("evillocalhost"));
  CHECK_FALSE(http::is_loopback_host_name("127.0.0.256"));
  CHECK_FALSE(http::is_loopback_host_name("127.0.0"));
  CHECK_FALSE(http::is_loopback_host_name("128.0.0.1"));
  CHECK_FALSE(http::is_loopback_host_name(""));
}

TEST_CASE("the names this server answers as: loopback, --host, --admin-allow-host",
          "[http][admin][security]") {
  CHECK(http::names_this_server(nullptr, "localhost:8080"));
  CHECK(http::names_this_server(nullptr, "127.0.0.1"));
  CHECK_FALSE(http::names_this_server(nullptr, "fake-org:8080"));
  CHECK_FALSE(http::names_this_server(nullptr, ""));
  auto policy = http::AdminPolicy::make(false, "10.0.0.5", {"fake-org"});
  CHECK(http::names_this_server(policy.get(), "fake-org:8080"));
  CHECK(http::names_this_server(policy.get(), "10.0.0.5:8080"));
  CHECK(http::names_this_server(policy.get(), "[::1]:8080"));
  CHECK_FALSE(http::names_this_server(policy.get(), "evil.example:8080"));
  auto any_address = http::AdminPolicy::make(false, "0.0.0.0", {});
  CHECK_FALSE(http::names_this_server(any_address.get(), "0.0.0.0:8080"));
  auto open = http::AdminPolicy::make(true, "127.0.0.1", {});
  CHECK(http::names_this_server(open.get(), "evil.example:8080"));
}

TEST_CASE("the admin API refuses a Host it was not told to serve (DNS rebinding)",
          "[http][admin][security]") {
  TestOrg t(fixture("default.yaml"));
  const int port = t.embedded().port();
  const std::string port_text = std::to_string(port);
  auto rebound =
      guard_send(port, "GET", "/__admin/health", {{"Host", "evil.example:" + port_text}});
  INFO(rebound.body);
  CHECK(rebound.status == 403);
  CHECK(rebound.body.find("--admin-allow-host evil.example") != std::string::npos);
  auto ui = guard_send(port, "GET", "/__admin/ui", {{"Host", "127.0.0.1.evil.example"}});
  CHECK(ui.status == 403);
  for (const std::string& host : {"localhost:" + port_text, "127.0.0.1:" + port_text,
                                  "[::1]:" + port_text, std::string("app.localhost")}) {
    INFO(host);
    CHECK(guard_send(port, "GET", "/__admin/health", {{"Host", host}}).status == 200);
  }
  // The org's own API answers any name: it is meant for any client.
  auto token = guard_send(port, "POST", "/services/oauth2/token", {{"Host", "evil.example"}},
                          "grant_type=client_credentials&client_id=local-client&client_secret="
                          "local-secret",
                          "application/x-www-form-urlencoded");
  CHECK(token.status == 200);
}

TEST_CASE("a CI network's name gets in with --admin-allow-host or --admin-open",
          "[http][admin][security]") {
  EmbeddedOptions named;
  named.admin_allow_hosts = {"Fake-Org"};
  TestOrg t(fixture("default.yaml"), named);
  const int port = t.embedded().port();
  CHECK(guard_send(port, "GET", "/__admin/health", {{"Host", "fake-org:8080"}}).status == 200);
  CHECK(guard_send(port, "GET", "/__admin/health", {{"Host", "other:8080"}}).status == 403);
  EmbeddedOptions open;
  open.admin_open = true;
  TestOrg o(fixture("default.yaml"), open);
  const int open_port = o.embedded().port();
  CHECK(guard_send(open_port, "GET", "/__admin/health", {{"Host", "other:8080"}}).status == 200);
  // Open or not, a page of another site is refused.
  auto cross = guard_send(open_port, "GET", "/__admin/health",
                          {{"Host", "other:8080"}, {"Origin", "http://evil.example"}});
  CHECK(cross.status == 403);
}

TEST_CASE("the admin API refuses a cross-site request from a browser", "[http][admin][security]") {
  TestOrg t(fixture("default.yaml"));
  const int port = t.embedded().port();
  const std::string before = guard_clock(t);
  const std::string advance = R"({"advance": "30d"})";
  // What a hostile page's fetch(..., {mode: 'no-cors'}) or form sends.
  for (const httplib::Headers& headers :
       {httplib::Headers{{"Origin", "http://evil.example"}}, httplib::Headers{{"Origin", "null"}},
        httplib::Headers{{"Sec-Fetch-Site", "cross-site"}},
        httplib::Headers{{"Sec-Fetch-Site", "same-site"}},
        httplib::Headers{{"Origin", "http://localhost:1"}, {"Sec-Fetch-Site", "same-site"}}}) {
    auto r = guard_send(port, "POST", "/__admin/clock", headers, advance, "application/json");
    INFO(r.body);
    CHECK(r.status == 403);
    CHECK(r.body.find("own address") != std::string::npos);
  }
  CHECK(guard_send(port, "GET", "/__admin/ui", {{"Sec-Fetch-Site", "cross-site"}}).status == 403);
  CHECK(guard_clock(t).substr(0, 10) == before.substr(0, 10));  // nothing moved
  // Typed into the address bar, or the dashboard's own pages.
  CHECK(guard_send(port, "GET", "/__admin/ui", {{"Sec-Fetch-Site", "none"}}).status == 200);
  CHECK(guard_send(
            port, "GET", "/__admin/health",
            {{"Sec-Fetch-Site", "same-origin"}, {"Origin", "http://" + guard_local_host(port)}})
            .status == 200);
}

TEST_CASE("an admin write takes JSON only, and a browser's write the dashboard's token",
          "[http][admin][security]") {
  TestOrg t(fixture("default.yaml"));
  const int port = t.embedded().port();
  const std::string before = guard_clock(t);
  const std::string advance = R"({"advance": "30d"})";
  for (const char* type : {"text/plain", "application/x-www-form-urlencoded", ""}) {
    INFO(type);
    auto r = guard_send(port, "POST", "/__admin/clock", {}, advance, type);
    CHECK(r.status == 415);
    CHECK(r.body.find("-H 'Content-Type: application/json'") != std::string::npos);
  }
  CHECK(guard_send(port, "POST", "/__admin/reset", {}, "", "").status == 415);
  CHECK(guard_clock(t).substr(0, 10) == before.substr(0, 10));
  // Outside a browser JSON is enough, an empty body too.
  CHECK(guard_send(port, "POST", "/__admin/reset", {}, "", "application/json").status == 200);
  CHECK(guard_send(port, "POST", "/__admin/clock", {}, advance, "Application/JSON; charset=utf-8")
            .status == 200);
  // A same-origin page without the token, or with another, is refused.
  const httplib::Headers same = {{"Origin", "http://" + guard_local_host(port)},
                                 {"Sec-Fetch-Site", "same-origin"}};
  auto no_token = guard_send(port, "POST", "/__admin/reset", same, "", "application/json");
  CHECK(no_token.status == 403);
  CHECK(no_token.body.find("X-Fake-Org-Token") != std::string::npos);
  httplib::Headers wrong = same;
  wrong.emplace("X-Fake-Org-Token", "0123456789abcdef0123456789abcdef");
  CHECK(guard_send(port, "DELETE", "/__admin/faults", wrong).status == 403);
  httplib::Headers right = same;
  right.emplace("X-Fake-Org-Token", guard_page_token(port));
  CHECK(guard_send(port, "POST", "/__admin/reset", right, "", "application/json").status == 200);
  CHECK(guard_send(port, "DELETE", "/__admin/faults", right).status == 200);
}

TEST_CASE("the dashboard cannot be framed and runs only its own script",
          "[http][admin][dashboard][security]") {
  TestOrg t(fixture("default.yaml"));
  const int port = t.embedded().port();
  auto page = guard_send(port, "GET", "/__admin/ui", {});
  REQUIRE(page.status == 200);
  const std::string csp = page.header("Content-Security-Policy");
  INFO(csp);
  CHECK(csp.find("frame-ancestors 'none'") != std::string::npos);
  CHECK(csp.find("default-src 'none'") != std::string::npos);
  const std::string marker = "script-src 'nonce-";
  const size_t at = csp.find(marker);
  REQUIRE(at != std::string::npos);
  const std::string nonce = csp.substr(at + marker.size(), 32);
  CHECK(page.body.find("<script nonce=\"" + nonce + "\">") != std::string::npos);
  CHECK(page.header("X-Content-Type-Options") == "nosniff");
  CHECK(page.header("Referrer-Policy") == "no-referrer");
  CHECK(page.header("X-Frame-Options") == "DENY");
  // A new nonce for every page.
  auto again = guard_send(port, "GET", "/__admin/ui", {});
  CHECK(again.header("Content-Security-Policy") != csp);
  // The JSON answers are not sniffed either.
  CHECK(guard_send(port, "GET", "/__admin/health", {}).header("X-Content-Type-Options") ==
        "nosniff");
}
