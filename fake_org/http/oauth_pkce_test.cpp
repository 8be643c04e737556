// PKCE (RFC 7636) in the web server flow: the authorize request's
// code_challenge binds the code, the token request's code_verifier must match.
#include "http/oauth_routes.h"

#include <catch2/catch.hpp>

#include "testing/oauth_server.h"
#include "testing/raw_http.h"

using namespace fake_org;
using namespace fake_org::http;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

// RFC 7636 appendix B.
const std::string kVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const std::string kS256Challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

std::string pkce_url(const std::string& challenge, const std::string& method) {
  std::string url = authorize_url("local-client", kCallback, "s");
  if (!challenge.empty()) url += "&code_challenge=" + enc(challenge);
  if (!method.empty()) url += "&code_challenge_method=" + enc(method);
  return url;
}

// Approves through the page like a browser, so the hidden fields carry the
// challenge; returns the code.
std::string approve_pkce(httplib::Client& cli, const std::string& challenge,
                         const std::string& method) {
  return approve_at(cli, pkce_url(challenge, method));
}

httplib::Result exchange(httplib::Client& cli, const std::string& code,
                         const std::string& verifier) {
  httplib::Params params = form({{"grant_type", "authorization_code"},
                                 {"code", code},
                                 {"redirect_uri", kCallback},
                                 {"client_id", "local-client"},
                                 {"client_secret", "local-secret"}});
  if (!verifier.empty()) params.emplace("code_verifier", verifier);
  return cli.Post("/services/oauth2/token", params);
}

}  // namespace

TEST_CASE("PKCE: base64url of SHA-256, RFC 7636 appendix B", "[oauth]") {
  CHECK(crypto::base64url_encode(crypto::sha256(kVerifier)) == kS256Challenge);
}

TEST_CASE("PKCE S256: only the matching verifier exchanges the code", "[oauth]") {
  OAuthServer org;
  httplib::Client cli("127.0.0.1", org.port);
  std::string code = approve_pkce(cli, kS256Challenge, "S256");

  SECTION("the verifier") {
    auto res = exchange(cli, code, kVerifier);
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK(protected_status(cli, json::parse(res->body)["access_token"]) == 200);
  }
  SECTION("a wrong verifier, and the code is used up (RFC 6749 10.5)") {
    check_oauth_error(exchange(cli, code, kVerifier.substr(1) + "x"), "invalid_grant",
                      "invalid code verifier");
    check_oauth_error(exchange(cli, code, kVerifier), "invalid_grant",
                      "invalid authorization code");
  }
  SECTION("the challenge itself as verifier (S256 is not plain)") {
    check_oauth_error(exchange(cli, code, kS256Challenge), "invalid_grant",
                      "invalid code verifier");
  }
  SECTION("no verifier") {
    check_oauth_error(exchange(cli, code, ""), "invalid_grant", "invalid code verifier");
  }
}

TEST_CASE("PKCE plain when named", "[oauth]") {
  OAuthServer org;
  httplib::Client cli("127.0.0.1", org.port);
  std::string code = approve_pkce(cli, kVerifier, "plain");
  check_oauth_error(exchange(cli, code, kS256Challenge), "invalid_grant", "invalid code verifier");
  std::string again = approve_pkce(cli, kVerifier, "plain");
  auto res = exchange(cli, again, kVerifier);
  REQUIRE(res);
  CHECK(res->status == 200);
}

TEST_CASE("PKCE: an omitted method is S256, as on the platform", "[oauth]") {
  OAuthServer org;
  httplib::Client cli("127.0.0.1", org.port);
  // The verifier itself as challenge, read as plain, no longer passes.
  std::string code = approve_pkce(cli, kVerifier, "");
  check_oauth_error(exchange(cli, code, kVerifier), "invalid_grant", "invalid code verifier");
  std::string again = approve_pkce(cli, kS256Challenge, "");
  auto res = exchange(cli, again, kVerifier);
  REQUIRE(res);
  CHECK(res->status == 200);
}

TEST_CASE("PKCE: a verifier for a code issued without a challenge is refused", "[oauth]") {
  OAuthServer org;
  httplib::Client cli("127.0.0.1", org.port);
  check_oauth_error(exchange(cli, approve(cli), kVerifier), "invalid_grant",
                    "invalid code verifier");
}

TEST_CASE("PKCE: a challenge the org cannot use is invalid_request at authorize", "[oauth]") {
  OAuthServer org;
  struct Case {
    std::string challenge, method, description;
  };
  for (const Case& c :
       {Case{kS256Challenge, "S512", "unsupported code_challenge_method: S512"},
        Case{kS256Challenge, "s256", "unsupported code_challenge_method: s256"},
        Case{"", "S256", "code_challenge_method without code_challenge"},
        Case{"short", "S256", "code_challenge must be 43 to 128 unreserved characters"},
        Case{kS256Challenge + "+", "S256",
             "code_challenge must be 43 to 128 unreserved characters"}}) {
    INFO(c.challenge << " " << c.method);
    for (bool post : {false, true}) {
      std::string url = pkce_url(c.challenge, c.method);
      RawResponse res = post ? raw_request(org.port, "POST", "/services/oauth2/authorize",
                                           url.substr(url.find('?') + 1) + "&decision=allow")
                             : raw_request(org.port, "GET", url);
      CHECK(res.status == 302);
      auto q = query_of(res.header("Location"));
      CHECK(res.header("Location").rfind(kCallback + "?error=invalid_request&", 0) == 0);
      CHECK(q["error_description"] == c.description);
      CHECK(q["state"] == "s");
      CHECK(q.count("code") == 0);
    }
  }
}
