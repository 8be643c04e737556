// The token endpoint (client credentials, HTTP Basic, errors), revoke and
// bearer authentication; the authorize page is in oauth_routes_test.cpp.
#include "http/oauth_routes.h"

#include <catch2/catch.hpp>

#include "testing/oauth_server.h"

using namespace fake_org;
using namespace fake_org::http;
using namespace fake_org::testing;
using nlohmann::json;

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
  CHECK(body["issued_at"] == std::to_string(oauth_start_time().time_since_epoch().count()));
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
    check_oauth_error(cli.Post("/services/oauth2/token", form({{"grant_type", "implicit"},
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
  SECTION("a parameter sent twice with the same value, in the query string too") {
    check_oauth_error(
        cli.Post("/services/oauth2/token?grant_type=client_credentials&client_id=local-client"
                 "&client_secret=local-secret&client_id=local-client",
                 "", form_type.c_str()),
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
  SECTION("an expired code; a missing one is invalid_request") {
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
                      "invalid_request", "missing required parameter: code");
  }
  SECTION("a grant's required parameter missing or empty is invalid_request (RFC 6749 5.2)") {
    struct Case {
      httplib::Params params;
      std::string missing;
    };
    for (const Case& c :
         {Case{form({{"grant_type", "refresh_token"}}), "refresh_token"},
          Case{form({{"grant_type", "refresh_token"}, {"refresh_token", ""}}), "refresh_token"},
          Case{form({{"grant_type", "authorization_code"}, {"redirect_uri", kCallback}}), "code"},
          Case{form({{"grant_type", "authorization_code"}, {"code", "x"}}), "redirect_uri"},
          Case{form({{"grant_type", "authorization_code"}}), "code"}}) {
      INFO(c.missing);
      httplib::Params params = c.params;
      params.emplace("client_id", "local-client");
      params.emplace("client_secret", "local-secret");
      check_oauth_error(cli.Post("/services/oauth2/token", params), "invalid_request",
                        "missing required parameter: " + c.missing);
    }
  }
  SECTION("scope: known values are accepted and the grant stays full; unknown is invalid_scope") {
    auto res = cli.Post("/services/oauth2/token", form({{"grant_type", "client_credentials"},
                                                        {"scope", "api refresh_token"},
                                                        {"client_id", "local-client"},
                                                        {"client_secret", "local-secret"}}));
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK(json::parse(res->body)["scope"] == "full");
    check_oauth_error(cli.Post("/services/oauth2/token", form({{"grant_type", "client_credentials"},
                                                               {"scope", "api everything"},
                                                               {"client_id", "local-client"},
                                                               {"client_secret", "local-secret"}})),
                      "invalid_scope", "unknown scope: everything");
  }
  SECTION("an unknown refresh token") {
    check_oauth_error(cli.Post("/services/oauth2/token", form({{"grant_type", "refresh_token"},
                                                               {"refresh_token", "nope"},
                                                               {"client_id", "local-client"},
                                                               {"client_secret", "local-secret"}})),
                      "invalid_grant", "expired access/refresh token");
  }
}

// Where the platform departs from the RFCs the fake follows the platform
// (decisions 23); these pin each such answer so it stays deliberate.
TEST_CASE("platform deviations from the RFCs", "[oauth]") {
  OAuthServer org;
  httplib::Client cli("127.0.0.1", org.port);
  SECTION("a missing grant_type is unsupported_grant_type (RFC 6749 5.2: invalid_request)") {
    check_oauth_error(cli.Post("/services/oauth2/token", form({{"client_id", "local-client"},
                                                               {"client_secret", "local-secret"}})),
                      "unsupported_grant_type", "grant type not supported");
  }
  SECTION("a wrong secret by HTTP Basic is 400 without WWW-Authenticate (RFC 6749 5.2: 401)") {
    auto res = cli.Post("/services/oauth2/token",
                        {{"Authorization", "Basic " + crypto::base64_encode("local-client:wrong")}},
                        "grant_type=client_credentials", "application/x-www-form-urlencoded");
    check_oauth_error(res, "invalid_client", "invalid client credentials");
    CHECK_FALSE(res->has_header("WWW-Authenticate"));
  }
  SECTION("revoke needs no client authentication (RFC 7009 2.1 requires it)") {
    std::string token =
        org.tokens.client_credentials({"local-client", "local-secret"}).token->access_token;
    auto res = cli.Post("/services/oauth2/revoke", form({{"token", token}}));
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK(protected_status(cli, token) == 401);
  }
  SECTION("revoking an unknown token is 400 unsupported_token_type (RFC 7009 2.2: 200)") {
    check_oauth_error(cli.Post("/services/oauth2/revoke", form({{"token", "never-issued"}})),
                      "unsupported_token_type", "this token type is not supported");
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
  auto clock = std::make_shared<ManualClock>(oauth_start_time());
  OrgConfig config = oauth_config(false);
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
