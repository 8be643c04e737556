#pragma once
// The org's OAuth endpoints alone on loopback, and what a browser or client
// does with them: for the tests of the authorize page, the flows, the token
// endpoint's grants and errors, revoke and bearer authentication.
#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "events/contract_monitor.h"
#include "http/oauth_routes.h"
#include "http/server.h"
#include "util/crypto.h"

namespace fake_org::testing {

inline constexpr const char* kOrgId15 = "00D5J0000001234";
inline const std::string kCallback = "http://localhost:8081/callback";
inline const std::string kQueryCallback = "https://app.example.org/cb?tenant=7";

inline TimePoint oauth_start_time() {
  return *parse_iso8601("2027-01-31T09:00:00Z");
}

inline OrgConfig oauth_config(bool sandbox) {
  OrgConfig config;
  config.source_name = "test";
  config.org.name = "Helping Hands <Test>";
  config.org.org_id = *to_id18(kOrgId15);
  config.org.sandbox = sandbox;
  config.auth.token_lifetime = Millis(2 * 3600 * 1000);
  config.auth.connected_apps.push_back(
      {"Donor Portal", "local-client", "local-secret", {kCallback, kQueryCallback}, true});
  config.auth.connected_apps.push_back(
      {"Web Only", "web-only", "web-secret", {"https://web.example.org/cb"}, false});
  config.auth.connected_apps.push_back(
      {"Odd Secret", "odd-client", "s3cr:t+", {"https://odd.example.org/cb"}, true});
  return config;
}

// The org's OAuth endpoints on 127.0.0.1, plus /protected, which answers as
// the API does: 200 for a valid bearer token, else 401.
struct OAuthServer {
  OrgConfig config;
  std::shared_ptr<ManualClock> clock = std::make_shared<ManualClock>(oauth_start_time());
  TokenStore tokens;
  httplib::Server server;
  std::thread thread;
  int port = 0;

  // Checked against the contracts like every other server of the tests.
  std::shared_ptr<ContractMonitor> monitor = std::make_shared<ContractMonitor>();

  explicit OAuthServer(bool sandbox = false)
      : config(oauth_config(sandbox)),
        tokens(config.auth, clock, std::make_shared<IdGenerator>(std::make_shared<SeededRandom>(7)),
               config.org.org_id) {
    server.set_tcp_nodelay(true);
    http::install_contract_check(server, monitor);
    http::register_oauth_routes(
        server,
        http::OAuthContext{&config, &tokens,
                           [this](const httplib::Request&) { return instance_url(); }, nullptr});
    server.Get("/protected", [this](const httplib::Request& req, httplib::Response& res) {
      if (auto info = http::authenticate_request(req, tokens)) {
        res.set_content(info->client_id, "text/plain");
      } else {
        res.status = 401;
        res.set_content(http::kInvalidSessionBody, "application/json");
      }
    });
    port = server.bind_to_any_port("127.0.0.1");
    REQUIRE(port > 0);
    thread = std::thread([this] { server.listen_after_bind(); });
    while (!server.is_running()) std::this_thread::yield();
  }
  ~OAuthServer() {
    server.stop();
    thread.join();
    INFO("contract violations:\n" << monitor->recent().dump(2));
    CHECK(monitor->violations() == 0);
  }

  std::string instance_url() const { return "http://127.0.0.1:" + std::to_string(port); }
};

inline std::string enc(const std::string& s) {
  return httplib::detail::encode_query_param(s);
}

inline std::map<std::string, std::string> query_of(const std::string& url) {
  httplib::Params params;
  size_t q = url.find('?');
  if (q != std::string::npos) httplib::detail::parse_query_text(url.substr(q + 1), params);
  return {params.begin(), params.end()};
}

inline std::string html_unescape(const std::string& s) {
  static const std::map<std::string, char> kEntities{
      {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}, {"&amp;", '&'}};
  std::string out;
  for (size_t i = 0; i < s.size();) {
    bool replaced = false;
    for (const auto& [entity, c] : kEntities) {
      if (s.compare(i, entity.size(), entity) == 0) {
        out += c;
        i += entity.size();
        replaced = true;
        break;
      }
    }
    if (!replaced) out += s[i++];
  }
  return out;
}

// What a browser submits: the page's hidden fields plus the chosen button.
inline httplib::Params form_of(const std::string& html, const std::string& decision) {
  httplib::Params params;
  const std::string open = R"(<input type="hidden" name=")";
  const std::string middle = R"(" value=")";
  for (size_t at = html.find(open); at != std::string::npos; at = html.find(open, at)) {
    at += open.size();
    size_t name_end = html.find(middle, at);
    size_t value_end = html.find(R"(">)", name_end);
    REQUIRE(value_end != std::string::npos);
    params.emplace(
        html_unescape(html.substr(at, name_end - at)),
        html_unescape(html.substr(name_end + middle.size(), value_end - name_end - middle.size())));
  }
  params.emplace("decision", decision);
  return params;
}

inline httplib::Params form(
    std::initializer_list<std::pair<const std::string, std::string>> fields) {
  return httplib::Params(fields);
}

inline void check_oauth_error(const httplib::Result& res, const std::string& error,
                              const std::string& description) {
  REQUIRE(res);
  CHECK(res->status == 400);
  CHECK(res->get_header_value("Content-Type") == "application/json");
  CHECK(res->get_header_value("Cache-Control") == "no-store");
  CHECK(res->get_header_value("Pragma") == "no-cache");
  CHECK(nlohmann::json::parse(res->body) ==
        nlohmann::json{{"error", error}, {"error_description", description}});
}

inline std::string authorize_url(const std::string& client_id, const std::string& redirect_uri,
                                 const std::string& state,
                                 const std::string& response_type = "code") {
  return "/services/oauth2/authorize?response_type=" + enc(response_type) +
         "&client_id=" + enc(client_id) + "&redirect_uri=" + enc(redirect_uri) +
         "&state=" + enc(state);
}

// Drives the approval page of an authorize URL like a browser (its hidden
// fields carry what the URL asked for); returns the code.
inline std::string approve_at(httplib::Client& cli, const std::string& url) {
  auto page = cli.Get(url.c_str());
  REQUIRE(page);
  REQUIRE(page->status == 200);
  auto res = cli.Post("/services/oauth2/authorize", form_of(page->body, "allow"));
  REQUIRE(res);
  REQUIRE(res->status == 302);
  return query_of(res->get_header_value("Location"))["code"];
}

inline std::string approve(httplib::Client& cli, const std::string& redirect_uri = kCallback) {
  return approve_at(cli, authorize_url("local-client", redirect_uri, "s"));
}

inline int protected_status(httplib::Client& cli, const std::string& token) {
  auto res = cli.Get("/protected", {{"Authorization", "Bearer " + token}});
  REQUIRE(res);
  if (res->status == 401) CHECK(res->body == http::kInvalidSessionBody);
  return res->status;
}

}  // namespace fake_org::testing
