// The JWT bearer and password grants at the token endpoint, and the token's
// user in its identity URL.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "testing/test_org.h"
#include "util/crypto.h"
#include "util/rsa.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

std::string signed_assertion(const json& claims) {
  std::ifstream in(std::string(PROJECT_SOURCE_DIR) + "/fixtures/keys/jwt-test-client.key");
  std::stringstream key;
  key << in.rdbuf();
  const std::string input = crypto::base64url_encode(json{{"alg", "RS256"}}.dump()) + "." +
                            crypto::base64url_encode(claims.dump());
  auto signature = crypto::sign_rs256(key.str(), input);
  REQUIRE(signature);
  return input + "." + crypto::base64url_encode(*signature);
}

json claims(TestOrg& t, const std::string& aud) {
  const auto now =
      std::chrono::duration_cast<std::chrono::seconds>(t.org().clock().now().time_since_epoch())
          .count();
  return {{"iss", "local-client"},
          {"sub", "ada@local-fake-org.example"},
          {"aud", aud},
          {"exp", now + 300}};
}

Response token_request(TestOrg& t, const httplib::Params& params) {
  auto r = t.client().Post("/services/oauth2/token", params);
  REQUIRE(r);
  Response out;
  out.status = r->status;
  out.body = r->body;
  out.json = json::parse(r->body, nullptr, false);
  return out;
}

}  // namespace

TEST_CASE("JWT bearer grant over HTTP: a token acting as the assertion's user", "[oauth][jwt]") {
  TestOrg t(fixture("default.yaml"));
  const std::string login = "http://127.0.0.1:" + std::to_string(t.embedded().port()) + "/login";
  Response r = token_request(t, {{"grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"},
                                 {"assertion", signed_assertion(claims(t, login))}});
  INFO(r.body);
  REQUIRE(r.status == 200);
  CHECK_FALSE(r.json.contains("refresh_token"));
  const std::string ada = t.org().config().auth.user("ada@local-fake-org.example")->id;
  const std::string id = r.json.at("id").get<std::string>();
  CHECK(id.substr(id.size() - 18) == ada);
  // The token works on the API.
  auto methods =
      t.client().Get((t.org().config().base_path() + "/PaymentMethods").c_str(),
                     httplib::Headers{{"Authorization",
                                       "Bearer " + r.json.at("access_token").get<std::string>()}});
  REQUIRE(methods);
  CHECK(methods->status == 200);

  Response refused =
      token_request(t, {{"grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"},
                        {"assertion", signed_assertion(claims(t, "https://x.example"))}});
  CHECK(refused.status == 400);
  CHECK(refused.json ==
        json{{"error", "invalid_grant"}, {"error_description", "audience is invalid"}});
  Response missing =
      token_request(t, {{"grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"}});
  CHECK(missing.status == 400);
  CHECK(missing.json.at("error_description") == "missing required parameter: assertion");
}

TEST_CASE("JWT over HTTP as the platform CLI signs it: the instance root, real time",
          "[oauth][jwt]") {
  TestOrg t(fixture("default.yaml"));
  const std::string root = "http://127.0.0.1:" + std::to_string(t.embedded().port());
  // Tokens live 2 hours: the org clock moves past them, as a test suite does.
  t.advance_clock("3h");
  const auto wall = std::chrono::duration_cast<std::chrono::seconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
  for (const std::string& aud : {root + "/", root, root + "/login"}) {
    INFO(aud);
    json c = claims(t, aud);
    c["exp"] = wall + 300;  // real time, not the org clock
    Response r = token_request(t, {{"grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"},
                                   {"assertion", signed_assertion(c)}});
    INFO(r.body);
    CHECK(r.status == 200);
  }
  // sf 2.86.1's exp is in milliseconds (Date.now() + 300): far ahead, taken.
  json millis = claims(t, root + "/");
  millis["exp"] = wall * 1000 + 300;
  CHECK(token_request(t, {{"grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"},
                          {"assertion", signed_assertion(millis)}})
            .status == 200);
  // Past on both clocks: refused.
  json stale = claims(t, root);
  stale["exp"] = wall - 60;
  Response refused =
      token_request(t, {{"grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"},
                        {"assertion", signed_assertion(stale)}});
  CHECK(refused.json.value("error_description", "") == "expired authorization code");
}

TEST_CASE("a JWT audience names this server only by a name it answers as, not any Host",
          "[oauth][jwt]") {
  // A request may bring any Host (DNS rebinding, a forged header): an
  // assertion made for https://evil.example is not for this server.
  TestOrg t(fixture("default.yaml"));
  const std::string port = std::to_string(t.embedded().port());
  auto with_host = [&](const std::string& host, const std::string& aud) {
    httplib::Params form{{"grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"},
                         {"assertion", signed_assertion(claims(t, aud))}};
    auto r = t.client().Post("/services/oauth2/token", httplib::Headers{{"Host", host}}, form);
    REQUIRE(r);
    return std::make_pair(r->status, json::parse(r->body, nullptr, false));
  };
  auto evil = with_host("evil.example:" + port, "http://evil.example:" + port);
  CHECK(evil.first == 400);
  CHECK(evil.second ==
        json{{"error", "invalid_grant"}, {"error_description", "audience is invalid"}});
  CHECK(with_host("evil.example:" + port, "http://evil.example:" + port + "/login").first == 400);
  // The platform's login host is an audience whatever the Host.
  CHECK(with_host("evil.example:" + port, "https://login.salesforce.com").first == 200);
  // Loopback names are this server's own.
  CHECK(with_host("localhost:" + port, "http://localhost:" + port).first == 200);
}

TEST_CASE("the password grant is refused in the default org", "[oauth][password]") {
  TestOrg t(fixture("default.yaml"));
  Response r = token_request(t, {{"grant_type", "password"},
                                 {"client_id", "local-client"},
                                 {"client_secret", "local-secret"},
                                 {"username", "ada@local-fake-org.example"},
                                 {"password", "ada-passwordADATOKEN123"}});
  CHECK(r.status == 400);
  CHECK(r.json ==
        json{{"error", "invalid_grant"}, {"error_description", "authentication failure"}});
}

TEST_CASE("the password grant where the fixture allows it", "[oauth][password]") {
  TestOrg t(fixture_text("extends: default.yaml\nauth:\n  password_flow: true\n"));
  Response r = token_request(t, {{"grant_type", "password"},
                                 {"client_id", "local-client"},
                                 {"client_secret", "local-secret"},
                                 {"username", "ada@local-fake-org.example"},
                                 {"password", "ada-passwordADATOKEN123"}});
  INFO(r.body);
  REQUIRE(r.status == 200);
  CHECK_FALSE(r.json.contains("refresh_token"));
  Response no_user = token_request(t, {{"grant_type", "password"},
                                       {"client_id", "local-client"},
                                       {"client_secret", "local-secret"},
                                       {"password", "x"}});
  CHECK(no_user.json.at("error_description") == "missing required parameter: username");
}
