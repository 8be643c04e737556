// The authorize endpoint and page (web server flow, approval, deny, untrusted
// clients and redirect URIs); the token endpoint is in oauth_token_test.cpp.
#include "http/oauth_routes.h"

#include <catch2/catch.hpp>

#include "testing/oauth_server.h"
#include "testing/raw_http.h"

using namespace fake_org;
using namespace fake_org::http;
using namespace fake_org::testing;
using nlohmann::json;

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
  std::string location = approved.header("Location");
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
      std::to_string((oauth_start_time() + Millis(90 * 1000)).time_since_epoch().count());
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
    CHECK(res.header("Location") ==
          kCallback +
              "?error=access_denied&error_description=end-user%20denied%20authorization&state=xyz");
  }
  SECTION("response_type=token on the page") {
    RawResponse res =
        raw_request(org.port, "GET", authorize_url("local-client", kCallback, "xyz", "token"));
    CHECK(res.status == 302);
    CHECK(res.header("Location") ==
          kCallback +
              "?error=unsupported_response_type&error_description=response%20type%20not%"
              "20supported&state=xyz");
  }
  SECTION("response_type missing on the form or the page is invalid_request (RFC 6749 4.1.2.1)") {
    RawResponse res =
        raw_request(org.port, "POST", "/services/oauth2/authorize",
                    "client_id=local-client&redirect_uri=" + enc(kCallback) + "&decision=allow");
    CHECK(res.status == 302);
    CHECK(res.header("Location") ==
          kCallback +
              "?error=invalid_request&error_description=missing%20required%20parameter%3A%20"
              "response_type");
    RawResponse page =
        raw_request(org.port, "GET", authorize_url("local-client", kCallback, "xyz", ""));
    CHECK(page.status == 302);
    CHECK(page.header("Location") ==
          kCallback +
              "?error=invalid_request&error_description=missing%20required%20parameter%3A%20"
              "response_type&state=xyz");
  }
  SECTION("a parameter sent twice is invalid_request; a repeated state is not echoed") {
    for (const std::string method : {"GET", "POST"}) {
      INFO(method);
      std::string query =
          "response_type=code&client_id=local-client&redirect_uri=" + enc(kCallback) +
          "&state=a&state=b&decision=allow";
      RawResponse res = method == "GET"
                            ? raw_request(org.port, method, "/services/oauth2/authorize?" + query)
                            : raw_request(org.port, method, "/services/oauth2/authorize", query);
      CHECK(res.status == 302);
      CHECK(res.header("Location") ==
            kCallback +
                "?error=invalid_request&error_description=parameter%20sent%20more%"
                "20than%20once%3A%20state");
      res = raw_request(org.port, "GET",
                        authorize_url("local-client", kCallback, "xyz") + "&response_type=code");
      CHECK(res.header("Location") ==
            kCallback +
                "?error=invalid_request&error_description=parameter%20sent%20more%"
                "20than%20once%3A%20response_type&state=xyz");
    }
  }
  SECTION("scope: an unknown value is invalid_scope; known ones get the page") {
    RawResponse res = raw_request(
        org.port, "GET",
        authorize_url("local-client", kCallback, "xyz") + "&scope=" + enc("api everything"));
    CHECK(res.status == 302);
    CHECK(res.header("Location") ==
          kCallback +
              "?error=invalid_scope&error_description=unknown%20scope%3A%20everything&state=xyz");
    auto page = cli.Get((authorize_url("local-client", kCallback, "xyz") +
                         "&scope=" + enc("api refresh_token offline_access"))
                            .c_str());
    REQUIRE(page);
    CHECK(page->status == 200);
    auto approved = cli.Post("/services/oauth2/authorize", form_of(page->body, "allow"));
    REQUIRE(approved);
    CHECK(approved->status == 302);
    CHECK(query_of(approved->get_header_value("Location")).count("code") == 1);
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
      if (c.error == "redirect_uri_mismatch")
        CHECK(res->body.find("the fixture registers (exact match): " + kCallback) !=
              std::string::npos);
    }
  }
}

TEST_CASE("authorize: client_id or redirect_uri sent twice gets the error page, no redirect",
          "[oauth]") {
  OAuthServer org;
  httplib::Client cli("127.0.0.1", org.port);
  for (const std::string& extra :
       {std::string("&client_id=local-client"), "&redirect_uri=" + enc(kQueryCallback)}) {
    INFO(extra);
    auto res = cli.Get((authorize_url("local-client", kCallback, "s") + extra).c_str());
    REQUIRE(res);
    CHECK(res->status == 400);
    CHECK(res->get_header_value("Location").empty());
    CHECK(res->body.find("error=<code>invalid_request</code>") != std::string::npos);
  }
}
