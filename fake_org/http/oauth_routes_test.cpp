#include "http/oauth_routes.h"

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <string>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "auth/crypto.h"
#include "events/contract_monitor.h"
#include "http/server.h"

using namespace fake_org;
using namespace fake_org::http;
using nlohmann::json;

namespace {

const char* kOrgId15 = "00D5J0000001234";
const std::string kCallback = "http://localhost:8081/callback";
const std::string kQueryCallback = "https://app.example.org/cb?tenant=7";

TimePoint start_time() {
  return *parse_iso8601("2027-01-31T09:00:00Z");
}

OrgConfig test_config(bool sandbox) {
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
  std::shared_ptr<ManualClock> clock = std::make_shared<ManualClock>(start_time());
  TokenStore tokens;
  httplib::Server server;
  std::thread thread;
  int port = 0;

  // Checked against the contracts like every other server of the tests.
  std::shared_ptr<ContractMonitor> monitor = std::make_shared<ContractMonitor>();

  explicit OAuthServer(bool sandbox = false)
      : config(test_config(sandbox)),
        tokens(config.auth, clock, std::make_shared<IdGenerator>(std::make_shared<SeededRandom>(7)),
               config.org.org_id) {
    server.set_tcp_nodelay(true);
    install_contract_check(server, monitor);
    register_oauth_routes(server, OAuthContext{&config, &tokens, [this](const httplib::Request&) {
                                                 return instance_url();
                                               }});
    server.Get("/protected", [this](const httplib::Request& req, httplib::Response& res) {
      if (auto info = authenticate_request(req, tokens)) {
        res.set_content(info->client_id, "text/plain");
      } else {
        res.status = 401;
        res.set_content(kInvalidSessionBody, "application/json");
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

std::string enc(const std::string& s) {
  return httplib::detail::encode_query_param(s);
}

std::map<std::string, std::string> query_of(const std::string& url) {
  httplib::Params params;
  size_t q = url.find('?');
  if (q != std::string::npos) httplib::detail::parse_query_text(url.substr(q + 1), params);
  return {params.begin(), params.end()};
}

std::string html_unescape(const std::string& s) {
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
httplib::Params form_of(const std::string& html, const std::string& decision) {
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

httplib::Params form(std::initializer_list<std::pair<const std::string, std::string>> fields) {
  return httplib::Params(fields);
}

void check_oauth_error(const httplib::Result& res, const std::string& error,
                       const std::string& description) {
  REQUIRE(res);
  CHECK(res->status == 400);
  CHECK(res->get_header_value("Content-Type") == "application/json");
  CHECK(res->get_header_value("Cache-Control") == "no-store");
  CHECK(res->get_header_value("Pragma") == "no-cache");
  CHECK(json::parse(res->body) == json{{"error", error}, {"error_description", description}});
}

std::string authorize_url(const std::string& client_id, const std::string& redirect_uri,
                          const std::string& state, const std::string& response_type = "code") {
  return "/services/oauth2/authorize?response_type=" + enc(response_type) +
         "&client_id=" + enc(client_id) + "&redirect_uri=" + enc(redirect_uri) +
         "&state=" + enc(state);
}

// Drives the approval page like a browser; returns the code.
std::string approve(httplib::Client& cli, const std::string& redirect_uri = kCallback) {
  auto page = cli.Get(authorize_url("local-client", redirect_uri, "s").c_str());
  REQUIRE(page);
  REQUIRE(page->status == 200);
  auto res = cli.Post("/services/oauth2/authorize", form_of(page->body, "allow"));
  REQUIRE(res);
  REQUIRE(res->status == 302);
  return query_of(res->get_header_value("Location"))["code"];
}

struct RawResponse {
  int status = 0;
  std::string location;
};

// Status and Location header exactly as sent: httplib 0.11's client
// URL-decodes every response header value, so it cannot show the encoding.
RawResponse raw_request(int port, const std::string& method, const std::string& target,
                        const std::string& body = std::string()) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  std::string request = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                        "Connection: close\r\n" +
                        "Content-Type: application/x-www-form-urlencoded\r\n" +
                        "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  REQUIRE(::send(fd, request.data(), request.size(), 0) == static_cast<ssize_t>(request.size()));
  std::string response;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;)
    response.append(buf, static_cast<size_t>(n));
  ::close(fd);
  RawResponse raw;
  REQUIRE(response.rfind("HTTP/1.1 ", 0) == 0);
  raw.status = std::stoi(response.substr(9, 3));
  const std::string key = "\r\nLocation: ";
  size_t at = response.find(key);
  if (at != std::string::npos) {
    at += key.size();
    raw.location = response.substr(at, response.find("\r\n", at) - at);
  }
  return raw;
}

int protected_status(httplib::Client& cli, const std::string& token) {
  auto res = cli.Get("/protected", {{"Authorization", "Bearer " + token}});
  REQUIRE(res);
  if (res->status == 401) CHECK(res->body == kInvalidSessionBody);
  return res->status;
}

}  // namespace

TEST_CASE("web server flow: approve, exchange, refresh, revoke", "[oauth]") {
  OAuthServer org;
  httplib::Client cli("127.0.0.1", org.port);
  const std::string state = "af0i <&\"'> jd";

  auto page = cli.Get(authorize_url("local-client", kCallback, state).c_str());
  REQUIRE(page);
  CHECK(page->status == 200);
  CHECK(page->get_header_value("Content-Type") == "text/html; charset=utf-8");
  CHECK(page->get_header_value("Cache-Control") == "no-store");
  CHECK(page->body.find("Helping Hands &lt;Test&gt;") != std::string::npos);
  CHECK(page->body.find("<strong>Donor Portal</strong>") != std::string::npos);
  CHECK(page->body.find("<code>full</code>") != std::string::npos);
  CHECK(page->body.find("(sandbox)") == std::string::npos);
  CHECK(page->body.find(R"(<form method="post" action="/services/oauth2/authorize">)") !=
        std::string::npos);
  CHECK(page->body.find(R"(name="decision" value="allow">Allow</button>)") != std::string::npos);
  CHECK(page->body.find(R"(name="decision" value="deny">Deny</button>)") != std::string::npos);

  httplib::Params submitted = form_of(page->body, "allow");
  CHECK(submitted.find("state")->second == state);
  RawResponse approved = raw_request(org.port, "POST", "/services/oauth2/authorize",
                                     httplib::detail::params_to_query_str(submitted));
  CHECK(approved.status == 302);
  std::string location = approved.location;
  CHECK(location.rfind(kCallback + "?code=", 0) == 0);
  auto redirect = query_of(location);
  CHECK(redirect.size() == 2);
  CHECK(redirect["state"] == state);
  std::string code = redirect["code"];
  CHECK(code.size() == 48);

  org.clock->advance(Millis(90 * 1000));
  auto exchanged = cli.Post("/services/oauth2/token", form({{"grant_type", "authorization_code"},
                                                            {"code", code},
                                                            {"redirect_uri", kCallback},
                                                            {"client_id", "local-client"},
                                                            {"client_secret", "local-secret"}}));
  REQUIRE(exchanged);
  CHECK(exchanged->status == 200);
  CHECK(exchanged->get_header_value("Content-Type") == "application/json");
  CHECK(exchanged->get_header_value("Cache-Control") == "no-store");
  CHECK(exchanged->get_header_value("Pragma") == "no-cache");
  json body = json::parse(exchanged->body);
  std::string issued_at =
      std::to_string((start_time() + Millis(90 * 1000)).time_since_epoch().count());
  std::string id =
      org.instance_url() + "/login/id/" + org.config.org.org_id + "/0055J0000000001QAA";
  CHECK(body.size() == 8);
  CHECK(body["access_token"].get<std::string>().rfind(std::string(kOrgId15) + "!", 0) == 0);
  CHECK(body["refresh_token"].get<std::string>().size() == 48);
  CHECK(body["instance_url"] == org.instance_url());
  CHECK(body["id"] == id);
  CHECK(body["token_type"] == "Bearer");
  CHECK(body["issued_at"] == issued_at);
  CHECK(body["scope"] == "full");
  CHECK(body["signature"] ==
        crypto::base64_encode(crypto::hmac_sha256("local-secret", id + issued_at)));
  std::string access = body["access_token"];
  std::string refresh_token = body["refresh_token"];
  CHECK(protected_status(cli, access) == 200);

  auto refreshed = cli.Post("/services/oauth2/token", form({{"grant_type", "refresh_token"},
                                                            {"refresh_token", refresh_token},
                                                            {"client_id", "local-client"},
                                                            {"client_secret", "local-secret"}}));
  REQUIRE(refreshed);
  CHECK(refreshed->status == 200);
  json refreshed_body = json::parse(refreshed->body);
  CHECK(refreshed_body.size() == 7);
  CHECK_FALSE(refreshed_body.contains("refresh_token"));
  std::string access2 = refreshed_body["access_token"];
  CHECK(access2 != access);
  CHECK(protected_status(cli, access2) == 200);

  auto revoked = cli.Post("/services/oauth2/revoke", form({{"token", refresh_token}}));
  REQUIRE(revoked);
  CHECK(revoked->status == 200);
  CHECK(revoked->body.empty());
  CHECK(revoked->get_header_value("Cache-Control") == "no-store");

  check_oauth_error(cli.Post("/services/oauth2/token", form({{"grant_type", "refresh_token"},
                                                             {"refresh_token", refresh_token},
                                                             {"client_id", "local-client"},
                                                             {"client_secret", "local-secret"}})),
                    "invalid_grant", "expired access/refresh token");
  CHECK(protected_status(cli, access2) == 401);
  CHECK(protected_status(cli, access) == 401);
}

TEST_CASE("approval keeps a redirect URI's own query and the sandbox shows", "[oauth]") {
  OAuthServer org(true);
  httplib::Client cli("127.0.0.1", org.port);
  auto page = cli.Get(authorize_url("local-client", kQueryCallback, "st").c_str());
  REQUIRE(page);
  CHECK(page->status == 200);
  CHECK(page->body.find("(sandbox)") != std::string::npos);
  auto res = cli.Post("/services/oauth2/authorize", form_of(page->body, "allow"));
  REQUIRE(res);
  CHECK(res->status == 302);
  std::string location = res->get_header_value("Location");
  CHECK(location.rfind(kQueryCallback + "&code=", 0) == 0);
  auto q = query_of(location);
  CHECK(q["tenant"] == "7");
  CHECK(q["state"] == "st");
  CHECK(org.tokens.exchange_code({"local-client", "local-secret"}, q["code"], kQueryCallback).ok());
}

TEST_CASE("authorize: deny and unsupported response_type redirect with errors", "[oauth]") {
  OAuthServer org;
  httplib::Client cli("127.0.0.1", org.port);

  SECTION("deny") {
    auto page = cli.Get(authorize_url("local-client", kCallback, "xyz").c_str());
    REQUIRE(page);
    RawResponse res =
        raw_request(org.port, "POST", "/services/oauth2/authorize",
                    httplib::detail::params_to_query_str(form_of(page->body, "deny")));
    CHECK(res.status == 302);
    CHECK(res.location ==
          kCallback +
              "?error=access_denied&error_description=end-user%20denied%20authorization&state=xyz");
  }
  SECTION("response_type=token on the page") {
    RawResponse res =
        raw_request(org.port, "GET", authorize_url("local-client", kCallback, "xyz", "token"));
    CHECK(res.status == 302);
    CHECK(res.location ==
          kCallback +
              "?error=unsupported_response_type&error_description=response%20type%20not%"
              "20supported&state=xyz");
  }
  SECTION("response_type missing on the form") {
    RawResponse res =
        raw_request(org.port, "POST", "/services/oauth2/authorize",
                    "client_id=local-client&redirect_uri=" + enc(kCallback) + "&decision=allow");
    CHECK(res.status == 302);
    CHECK(res.location ==
          kCallback +
              "?error=unsupported_response_type&error_description=response%20type%20not%"
              "20supported");
  }
  SECTION("a decision that is neither allow nor deny") {
    auto res = cli.Post("/services/oauth2/authorize", form({{"response_type", "code"},
                                                            {"client_id", "local-client"},
                                                            {"redirect_uri", kCallback},
                                                            {"decision", "maybe"}}));
    REQUIRE(res);
    CHECK(res->status == 400);
    CHECK(res->get_header_value("Location").empty());
    CHECK(res->body.find("invalid_request") != std::string::npos);
  }
}

TEST_CASE("authorize: untrusted client or redirect URI gets an error page, no redirect",
          "[oauth]") {
  OAuthServer org;
  httplib::Client cli("127.0.0.1", org.port);
  struct Case {
    std::string client_id, redirect_uri, error;
  };
  for (const Case& c :
       {Case{"nobody", kCallback, "invalid_client_id"}, Case{"", kCallback, "invalid_client_id"},
        Case{"local-client", kCallback + "/", "redirect_uri_mismatch"},
        Case{"local-client", "http://localhost:8081/CALLBACK", "redirect_uri_mismatch"},
        Case{"local-client", "https://evil.example.org/", "redirect_uri_mismatch"},
        Case{"local-client", "", "redirect_uri_mismatch"}}) {
    INFO(c.client_id << " " << c.redirect_uri);
    for (bool post : {false, true}) {
      auto res =
          post ? cli.Post("/services/oauth2/authorize", form({{"response_type", "code"},
                                                              {"client_id", c.client_id},
                                                              {"redirect_uri", c.redirect_uri},
                                                              {"decision", "allow"}}))
               : cli.Get(authorize_url(c.client_id, c.redirect_uri, "s").c_str());
      REQUIRE(res);
      CHECK(res->status == 400);
      CHECK(res->get_header_value("Location").empty());
      CHECK(res->get_header_value("Content-Type") == "text/html; charset=utf-8");
      CHECK(res->body.find("error=<code>" + c.error + "</code>") != std::string::npos);
    }
  }
}

TEST_CASE("token: client_credentials grant", "[oauth]") {
  OAuthServer org;
  httplib::Client cli("127.0.0.1", org.port);
  auto res = cli.Post("/services/oauth2/token", form({{"grant_type", "client_credentials"},
                                                      {"client_id", "local-client"},
                                                      {"client_secret", "local-secret"}}));
  REQUIRE(res);
  CHECK(res->status == 200);
  json body = json::parse(res->body);
  CHECK(body.size() == 7);
  CHECK_FALSE(body.contains("refresh_token"));
  CHECK(body["token_type"] == "Bearer");
  CHECK(body["issued_at"] == std::to_string(start_time().time_since_epoch().count()));
  std::string token = body["access_token"];
  CHECK(protected_status(cli, token) == 200);

  // Expiry is measured on the org clock.
  org.clock->advance(Millis(2 * 3600 * 1000 - 1));
  CHECK(protected_status(cli, token) == 200);
  org.clock->advance(Millis(1));
  CHECK(protected_status(cli, token) == 401);
}

TEST_CASE("token: client credentials by HTTP Basic", "[oauth]") {
  OAuthServer org;
  httplib::Client cli("127.0.0.1", org.port);
  auto basic = [](const std::string& id_and_secret) {
    return httplib::Headers{{"Authorization", "Basic " + crypto::base64_encode(id_and_secret)}};
  };
  SECTION("form-encoded id and secret") {
    // "s3cr:t+" form-encoded is "s3cr%3At%2B" (RFC 6749 2.3.1).
    auto res = cli.Post("/services/oauth2/token", basic("odd-client:s3cr%3At%2B"),
                        "grant_type=client_credentials", "application/x-www-form-urlencoded");
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK(protected_status(cli, json::parse(res->body)["access_token"]) == 200);
  }
  SECTION("code exchange with Basic and the same client_id in the body") {
    std::string code = approve(cli);
    auto res = cli.Post("/services/oauth2/token", basic("local-client:local-secret"),
                        "grant_type=authorization_code&client_id=local-client&code=" + code +
                            "&redirect_uri=" + enc(kCallback),
                        "application/x-www-form-urlencoded");
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK(json::parse(res->body).contains("refresh_token"));
  }
  SECTION("wrong secret") {
    check_oauth_error(
        cli.Post("/services/oauth2/token", basic("local-client:nope"),
                 "grant_type=client_credentials", "application/x-www-form-urlencoded"),
        "invalid_client", "invalid client credentials");
  }
  SECTION("not base64") {
    check_oauth_error(
        cli.Post("/services/oauth2/token", {{"Authorization", "Basic !!!"}},
                 "grant_type=client_credentials", "application/x-www-form-urlencoded"),
        "invalid_client", "invalid client credentials");
  }
  SECTION("another client_id in the body") {
    check_oauth_error(cli.Post("/services/oauth2/token", basic("local-client:local-secret"),
                               "grant_type=client_credentials&client_id=odd-client",
                               "application/x-www-form-urlencoded"),
                      "invalid_client", "invalid client credentials");
  }
  SECTION("a secret in the body as well") {
    check_oauth_error(cli.Post("/services/oauth2/token", basic("local-client:local-secret"),
                               "grant_type=client_credentials&client_secret=local-secret",
                               "application/x-www-form-urlencoded"),
                      "invalid_request", "use one client authentication method, not two");
  }
}

TEST_CASE("token: errors", "[oauth]") {
  OAuthServer org;
  httplib::Client cli("127.0.0.1", org.port);
  const std::string form_type = "application/x-www-form-urlencoded";

  SECTION("wrong secret") {
    check_oauth_error(cli.Post("/services/oauth2/token", form({{"grant_type", "client_credentials"},
                                                               {"client_id", "local-client"},
                                                               {"client_secret", "wrong"}})),
                      "invalid_client", "invalid client credentials");
  }
  SECTION("unknown client") {
    check_oauth_error(cli.Post("/services/oauth2/token", form({{"grant_type", "client_credentials"},
                                                               {"client_id", "nobody"},
                                                               {"client_secret", "x"}})),
                      "invalid_client", "invalid client credentials");
  }
  SECTION("client_credentials not enabled for the app") {
    check_oauth_error(cli.Post("/services/oauth2/token", form({{"grant_type", "client_credentials"},
                                                               {"client_id", "web-only"},
                                                               {"client_secret", "web-secret"}})),
                      "invalid_grant", "no client credentials user enabled");
  }
  SECTION("unsupported or missing grant type") {
    check_oauth_error(cli.Post("/services/oauth2/token", form({{"grant_type", "password"},
                                                               {"client_id", "local-client"},
                                                               {"client_secret", "local-secret"}})),
                      "unsupported_grant_type", "grant type not supported");
    check_oauth_error(cli.Post("/services/oauth2/token", form({{"client_id", "local-client"},
                                                               {"client_secret", "local-secret"}})),
                      "unsupported_grant_type", "grant type not supported");
  }
  SECTION("a JSON body") {
    check_oauth_error(cli.Post("/services/oauth2/token",
                               R"({"grant_type":"client_credentials","client_id":"local-client",)"
                               R"("client_secret":"local-secret"})",
                               "application/json"),
                      "invalid_request", "request body must be application/x-www-form-urlencoded");
  }
  SECTION("a parameter sent twice") {
    check_oauth_error(
        cli.Post("/services/oauth2/token",
                 "grant_type=client_credentials&client_id=local-client&client_secret=local-secret"
                 "&client_id=local-client",
                 form_type.c_str()),
        "invalid_request", "parameter sent more than once: client_id");
  }
  SECTION("parameters in the query string, as the platform accepts") {
    auto res = cli.Post(
        "/services/oauth2/token?grant_type=client_credentials&client_id=local-client"
        "&client_secret=local-secret",
        "", form_type.c_str());
    REQUIRE(res);
    CHECK(res->status == 200);
  }
  SECTION("code reuse") {
    std::string code = approve(cli);
    auto exchange = [&] {
      return cli.Post("/services/oauth2/token", form({{"grant_type", "authorization_code"},
                                                      {"code", code},
                                                      {"redirect_uri", kCallback},
                                                      {"client_id", "local-client"},
                                                      {"client_secret", "local-secret"}}));
    };
    auto first = exchange();
    REQUIRE(first);
    CHECK(first->status == 200);
    check_oauth_error(exchange(), "invalid_grant", "invalid authorization code");
  }
  SECTION("redirect_uri other than at authorize") {
    std::string code = approve(cli);
    check_oauth_error(cli.Post("/services/oauth2/token", form({{"grant_type", "authorization_code"},
                                                               {"code", code},
                                                               {"redirect_uri", kQueryCallback},
                                                               {"client_id", "local-client"},
                                                               {"client_secret", "local-secret"}})),
                      "invalid_grant", "redirect_uri must match configuration");
  }
  SECTION("an expired or missing code") {
    std::string code = approve(cli);
    org.clock->advance(TokenStore::kCodeLifetime);
    check_oauth_error(cli.Post("/services/oauth2/token", form({{"grant_type", "authorization_code"},
                                                               {"code", code},
                                                               {"redirect_uri", kCallback},
                                                               {"client_id", "local-client"},
                                                               {"client_secret", "local-secret"}})),
                      "invalid_grant", "invalid authorization code");
    check_oauth_error(cli.Post("/services/oauth2/token", form({{"grant_type", "authorization_code"},
                                                               {"redirect_uri", kCallback},
                                                               {"client_id", "local-client"},
                                                               {"client_secret", "local-secret"}})),
                      "invalid_grant", "invalid authorization code");
  }
  SECTION("an unknown refresh token") {
    check_oauth_error(cli.Post("/services/oauth2/token", form({{"grant_type", "refresh_token"},
                                                               {"refresh_token", "nope"},
                                                               {"client_id", "local-client"},
                                                               {"client_secret", "local-secret"}})),
                      "invalid_grant", "expired access/refresh token");
  }
}

TEST_CASE("revoke", "[oauth]") {
  OAuthServer org;
  httplib::Client cli("127.0.0.1", org.port);
  std::string token =
      org.tokens.client_credentials({"local-client", "local-secret"}).token->access_token;
  SECTION("an access token by POST") {
    auto res = cli.Post("/services/oauth2/revoke", form({{"token", token}}));
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK(res->body.empty());
    CHECK(protected_status(cli, token) == 401);
    check_oauth_error(cli.Post("/services/oauth2/revoke", form({{"token", token}})),
                      "unsupported_token_type", "this token type is not supported");
  }
  SECTION("an access token by GET") {
    auto res = cli.Get(("/services/oauth2/revoke?token=" + enc(token)).c_str());
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK(protected_status(cli, token) == 401);
  }
  SECTION("unknown or missing token") {
    check_oauth_error(cli.Post("/services/oauth2/revoke", form({{"token", "nope"}})),
                      "unsupported_token_type", "this token type is not supported");
    check_oauth_error(cli.Post("/services/oauth2/revoke", form({})), "unsupported_token_type",
                      "this token type is not supported");
    CHECK(protected_status(cli, token) == 200);
  }
  SECTION("a JSON body") {
    check_oauth_error(
        cli.Post("/services/oauth2/revoke", json{{"token", token}}.dump(), "application/json"),
        "invalid_request", "request body must be application/x-www-form-urlencoded");
    CHECK(protected_status(cli, token) == 200);
  }
}

TEST_CASE("authenticate_request reads the Authorization header", "[oauth]") {
  auto clock = std::make_shared<ManualClock>(start_time());
  OrgConfig config = test_config(false);
  TokenStore tokens(config.auth, clock,
                    std::make_shared<IdGenerator>(std::make_shared<SeededRandom>(3)),
                    config.org.org_id);
  std::string token =
      tokens.client_credentials({"local-client", "local-secret"}).token->access_token;
  auto with = [&](const std::string& value) {
    httplib::Request req;
    req.set_header("Authorization", value);
    return authenticate_request(req, tokens);
  };
  for (const std::string& good : {"Bearer " + token, "bearer " + token, "BEARER " + token,
                                  "OAuth " + token, "  Bearer   " + token + "  "}) {
    INFO(good);
    auto info = with(good);
    REQUIRE(info);
    CHECK(info->client_id == "local-client");
  }
  for (const std::string& bad :
       {"Basic " + token, token, std::string("Bearer"), std::string("Bearer "),
        "Bearer " + token + " extra", "Bearer " + token + "x", "Bearer x" + token}) {
    INFO(bad);
    CHECK_FALSE(with(bad));
  }
  CHECK_FALSE(authenticate_request(httplib::Request(), tokens));
}
