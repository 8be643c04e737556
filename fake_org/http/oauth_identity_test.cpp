// OAuth and identity as the platform serves them: token and revoke at the
// login hosts (/login production, /test sandbox; the other kind's host
// refuses), the identity URL the token response names, and OpenID Connect
// UserInfo. Every body passes the contract (TestOrg's monitor).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "domain/core/ids.h"
#include "testing/oauth_server.h"
#include "testing/test_org.h"
#include "util/crypto.h"
#include "util/rsa.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

const char* const kJwtGrant = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const char* const kRedirect = "http://localhost:8080/callback";

struct Answer {
  int status = 0;
  json body;  // null unless JSON
  std::string text;
  std::string reason;  // X-Fake-Org-Reason
};

Answer answer(const httplib::Result& r) {
  REQUIRE(r);
  Answer a;
  a.status = r->status;
  a.text = r->body;
  a.body = json::parse(r->body, nullptr, false);
  if (a.body.is_discarded()) a.body = nullptr;
  a.reason = r->get_header_value("X-Fake-Org-Reason");
  return a;
}

Answer post_form(TestOrg& t, const std::string& path, const httplib::Params& form) {
  return answer(t.client().Post(path.c_str(), form));
}

Answer get_with(TestOrg& t, const std::string& path, const std::string& token) {
  httplib::Headers headers;
  if (!token.empty()) headers.emplace("Authorization", "Bearer " + token);
  return answer(t.client().Get(path.c_str(), headers));
}

httplib::Params client_credentials() {
  return {{"grant_type", "client_credentials"},
          {"client_id", "local-client"},
          {"client_secret", "local-secret"}};
}

// A token response from `host` ("" for the instance), which must succeed.
json token_at(TestOrg& t, const std::string& host, const httplib::Params& form) {
  Answer a = post_form(t, host + "/services/oauth2/token", form);
  INFO(a.text);
  REQUIRE(a.status == 200);
  return a.body;
}

// The web server flow through `host`'s approval page; returns the code.
std::string approve_at_host(TestOrg& t, const std::string& host) {
  auto cli = t.page_client();
  auto res = cli.Post((host + "/services/oauth2/authorize").c_str(),
                      httplib::Params{{"response_type", "code"},
                                      {"client_id", "local-client"},
                                      {"redirect_uri", kRedirect},
                                      {"decision", "allow"}});
  REQUIRE(res);
  REQUIRE(res->status == 302);
  const std::string location = res->get_header_value("Location");
  const size_t at = location.find("code=");
  REQUIRE(at != std::string::npos);
  return httplib::detail::decode_url(location.substr(at + 5), true);
}

std::string signed_assertion(TestOrg& t, const std::string& aud) {
  std::ifstream in(std::string(PROJECT_SOURCE_DIR) + "/fixtures/keys/jwt-test-client.key");
  std::stringstream key;
  key << in.rdbuf();
  const auto now =
      std::chrono::duration_cast<std::chrono::seconds>(t.org().clock().now().time_since_epoch())
          .count();
  const json claims = {{"iss", "local-client"},
                       {"sub", "ada@local-fake-org.example"},
                       {"aud", aud},
                       {"exp", now + 300}};
  const std::string input = crypto::base64url_encode(json{{"alg", "RS256"}}.dump()) + "." +
                            crypto::base64url_encode(claims.dump());
  auto signature = crypto::sign_rs256(key.str(), input);
  REQUIRE(signature);
  return input + "." + crypto::base64url_encode(*signature);
}

std::string instance(TestOrg& t) {
  return "http://127.0.0.1:" + std::to_string(t.embedded().port());
}

// The path of a token response's identity URL on this server.
std::string id_path(TestOrg& t, const json& token) {
  return token.at("id").get<std::string>().substr(instance(t).size());
}

void check_invalid_client_id(const Answer& a, const std::string& kind) {
  INFO(a.text);
  CHECK(a.status == 400);
  REQUIRE(a.body.is_object());
  CHECK(a.body.at("error") == "invalid_client_id");
  CHECK(a.body.at("error_description").get<std::string>().find("this org is a " + kind + " org") !=
        std::string::npos);
}

struct IdentityHost {
  const char* fixture;
  const char* kind;
  const char* own;    // login host path of the org's kind
  const char* other;  // the other kind's
};

const IdentityHost kIdentityHosts[] = {{"default.yaml", "production", "/login", "/test"},
                                       {"nonprofit.yaml", "sandbox", "/test", "/login"}};

}  // namespace

TEST_CASE("token and revoke at the org's login host, the other kind's host refuses",
          "[oauth][identity]") {
  for (const IdentityHost& e : kIdentityHosts) {
    INFO(e.fixture);
    TestOrg t(fixture(e.fixture));
    const std::string own = e.own;

    // client_credentials, then the code and refresh_token grants (jsforce
    // posts to {loginUrl}/services/oauth2/token).
    json cc = token_at(t, own, client_credentials());
    CHECK(cc.at("id").get<std::string>().rfind(instance(t) + own + "/id/", 0) == 0);
    json code = token_at(t, own,
                         {{"grant_type", "authorization_code"},
                          {"code", approve_at_host(t, own)},
                          {"redirect_uri", kRedirect},
                          {"client_id", "local-client"},
                          {"client_secret", "local-secret"}});
    REQUIRE(code.contains("refresh_token"));
    json refreshed = token_at(t, own,
                              {{"grant_type", "refresh_token"},
                               {"refresh_token", code.at("refresh_token").get<std::string>()},
                               {"client_id", "local-client"},
                               {"client_secret", "local-secret"}});
    CHECK(refreshed.at("access_token") != code.at("access_token"));

    // Revoke at the login host: the token no longer reads the identity.
    const std::string access = refreshed.at("access_token");
    CHECK(get_with(t, id_path(t, refreshed), access).status == 200);
    Answer revoked = post_form(t, own + "/services/oauth2/revoke", {{"token", access}});
    CHECK(revoked.status == 200);
    CHECK(get_with(t, id_path(t, refreshed), access).text == "Bad_OAuth_Token");
    auto by_get = t.client().Get(
        (own + "/services/oauth2/revoke?token=" + cc.at("access_token").get<std::string>())
            .c_str());
    REQUIRE(by_get);
    CHECK(by_get->status == 200);

    // The other kind of org's login host knows none of it.
    const std::string other = e.other;
    check_invalid_client_id(post_form(t, other + "/services/oauth2/token", client_credentials()),
                            e.kind);
    check_invalid_client_id(post_form(t, other + "/services/oauth2/revoke",
                                      {{"token", code.at("refresh_token").get<std::string>()}}),
                            e.kind);
    Answer wrong = post_form(t, other + "/services/oauth2/token", client_credentials());
    CHECK(wrong.body.at("error_description")
              .get<std::string>()
              .find(instance(t) + own + "/services/oauth2/token") != std::string::npos);
    // The refresh token survived the refused revocation.
    token_at(t, own,
             {{"grant_type", "refresh_token"},
              {"refresh_token", code.at("refresh_token").get<std::string>()},
              {"client_id", "local-client"},
              {"client_secret", "local-secret"}});
  }
}

TEST_CASE("JWT bearer and password grants at the production login host", "[oauth][identity]") {
  TestOrg t(fixture_text("extends: default.yaml\nauth:\n  password_flow: true\n"));
  json jwt = token_at(
      t, "/login",
      {{"grant_type", kJwtGrant}, {"assertion", signed_assertion(t, instance(t) + "/login")}});
  const std::string ada = t.org().config().auth.user("ada@local-fake-org.example")->id;
  CHECK(jwt.at("id") == instance(t) + "/login/id/" + t.org().config().org.org_id + "/" + ada);
  json password = token_at(t, "/login",
                           {{"grant_type", "password"},
                            {"client_id", "local-client"},
                            {"client_secret", "local-secret"},
                            {"username", "ada@local-fake-org.example"},
                            {"password", "ada-passwordADATOKEN123"}});
  // Both act as Ada, whose identity they read.
  for (const json& token : {jwt, password}) {
    Answer a = get_with(t, id_path(t, token), token.at("access_token").get<std::string>());
    INFO(a.text);
    REQUIRE(a.status == 200);
    CHECK(a.body.at("username") == "ada@local-fake-org.example");
    CHECK(a.body.at("display_name") == "Ada Lovelace");
  }
  check_invalid_client_id(post_form(t, "/test/services/oauth2/token",
                                    {{"grant_type", kJwtGrant},
                                     {"assertion", signed_assertion(t, instance(t) + "/login")}}),
                          "production");
}

TEST_CASE("the identity URL answers for the token's own user", "[oauth][identity]") {
  TestOrg t(fixture("default.yaml"));
  json token = token_at(t, "", client_credentials());
  const std::string access = token.at("access_token");
  const OrgConfig& config = t.org().config();
  const std::string org18 = config.org.org_id;
  const UserDef& user = config.auth.integration_user();
  const std::string path = id_path(t, token);
  REQUIRE(path == "/login/id/" + org18 + "/" + user.id);

  SECTION("by bearer token, with the platform's fields") {
    Answer a = get_with(t, path, access);
    INFO(a.text);
    REQUIRE(a.status == 200);
    const json& b = a.body;
    CHECK(b.at("id") == token.at("id"));
    CHECK(b.at("user_id") == user.id);
    CHECK(b.at("organization_id") == org18);
    CHECK(b.at("username") == user.username);
    CHECK(b.at("display_name") == user.display_name());
    CHECK(b.at("timezone") == "Europe/Amsterdam");
    CHECK(b.at("utcOffset") == 3600000);
    CHECK(b.at("user_type") == "STANDARD");
    CHECK(b.at("urls").at("rest") == instance(t) + "/services/data/v{version}/");
    CHECK(b.at("urls").at("enterprise") ==
          instance(t) + "/services/Soap/c/{version}/" + org18.substr(0, 15));
    CHECK(b.at("urls").at("profile") == instance(t) + "/" + user.id);
  }
  SECTION("at the instance root, by oauth_token, with 15-character ids") {
    Answer a = answer(t.client().Get(
        ("/id/" + org18.substr(0, 15) + "/" + user.id.substr(0, 15) + "?oauth_token=" + access)
            .c_str()));
    INFO(a.text);
    REQUIRE(a.status == 200);
    CHECK(a.body.at("user_id") == user.id);
  }
  SECTION("by POST with the token in the form, format=json and a version") {
    Answer a = post_form(t, path, {{"oauth_token", access}, {"format", "json"}, {"version", "62"}});
    INFO(a.text);
    REQUIRE(a.status == 200);
    CHECK(a.body.at("urls").at("sobjects") == instance(t) + "/services/data/v62.0/sobjects/");
  }
  SECTION("version=latest names the org's newest version") {
    Answer a = post_form(t, path, {{"oauth_token", access}, {"version", "latest"}});
    INFO(a.text);
    REQUIRE(a.status == 200);
    CHECK(a.body.at("urls").at("sobjects") == instance(t) + "/services/data/v68.0/sobjects/");
  }
  SECTION("another format or a version that is not one: 406") {
    Answer xml = get_with(t, path + "?format=xml", access);
    CHECK(xml.status == 406);
    CHECK(xml.text.rfind("Unsupported_Format", 0) == 0);
    Answer version = get_with(t, path + "?version=v1", access);
    CHECK(version.status == 406);
    CHECK(version.text.rfind("Invalid_Version", 0) == 0);
  }
  SECTION("without a token, or with one the org does not know") {
    Answer none = get_with(t, path, "");
    CHECK(none.status == 403);
    CHECK(none.text == "Missing_OAuth_Token");
    CHECK(none.reason.find("oauth_token") != std::string::npos);
    Answer bad = get_with(t, path, "00D!nonsense");
    CHECK(bad.status == 403);
    CHECK(bad.text == "Bad_OAuth_Token");
    Answer bad_param = answer(t.client().Get((path + "?oauth_token=nonsense").c_str()));
    CHECK(bad_param.text == "Bad_OAuth_Token");
  }
  SECTION("another user of the org, an unknown user, an id that is none") {
    const std::string ada = config.auth.user("ada@local-fake-org.example")->id;
    Answer other = get_with(t, "/id/" + org18 + "/" + ada, access);
    CHECK(other.status == 404);
    CHECK(other.text == "No_Access");
    CHECK(other.reason.find(user.id) != std::string::npos);
    Answer unknown = get_with(t, "/id/" + org18 + "/" + *to_id18("005000000000099"), access);
    CHECK(unknown.status == 404);
    CHECK(unknown.text == "Bad_Id");
    Answer malformed = get_with(t, "/id/" + org18 + "/not-an-id", access);
    CHECK(malformed.status == 404);
    CHECK(malformed.text == "Bad_Id");
  }
  SECTION("another org") {
    Answer a = get_with(t, "/id/" + *to_id18("00D000000000001") + "/" + user.id, access);
    CHECK(a.status == 403);
    CHECK(a.text == "Wrong_Org");
  }
  SECTION("an expired token") {
    t.advance_clock("3h");
    Answer a = get_with(t, path, access);
    CHECK(a.status == 403);
    CHECK(a.text == "Bad_OAuth_Token");
    CHECK(a.reason.find("expired") != std::string::npos);
  }
  SECTION("a revoked token") {
    REQUIRE(post_form(t, "/services/oauth2/revoke", {{"token", access}}).status == 200);
    CHECK(get_with(t, path, access).text == "Bad_OAuth_Token");
  }
  SECTION("the sandbox login host of a production org") {
    Answer a = get_with(t, "/test/id/" + org18 + "/" + user.id, access);
    CHECK(a.status == 403);
    CHECK(a.text == "Bad_OAuth_Token");
    CHECK(a.reason.find("this org is a production org") != std::string::npos);
    CHECK(a.reason.find(instance(t) + "/login/id/") != std::string::npos);
  }
}

TEST_CASE("a sandbox org's identity URL is on /test", "[oauth][identity]") {
  TestOrg t(fixture("nonprofit.yaml"));
  json token = token_at(t, "/test", client_credentials());
  const std::string path = id_path(t, token);
  REQUIRE(path.rfind("/test/id/", 0) == 0);
  Answer a = get_with(t, path, token.at("access_token").get<std::string>());
  INFO(a.text);
  REQUIRE(a.status == 200);
  CHECK(a.body.at("id") == token.at("id"));
  CHECK(
      get_with(t, "/login" + path.substr(5), token.at("access_token").get<std::string>()).status ==
      403);
}

TEST_CASE("UserInfo answers the token's user", "[oauth][identity]") {
  TestOrg t(fixture("default.yaml"));
  json token = token_at(t, "", client_credentials());
  const std::string access = token.at("access_token");
  const UserDef& user = t.org().config().auth.integration_user();

  for (const char* host : {"", "/login"}) {
    INFO(host);
    Answer a = get_with(t, std::string(host) + "/services/oauth2/userinfo", access);
    INFO(a.text);
    REQUIRE(a.status == 200);
    CHECK(a.body.at("sub") == token.at("id"));
    CHECK(a.body.at("user_id") == user.id);
    CHECK(a.body.at("preferred_username") == user.username);
    CHECK(a.body.at("name") == user.display_name());
    CHECK(a.body.at("given_name") == user.first_name);
    CHECK(a.body.at("family_name") == user.last_name);
    CHECK(a.body.at("zoneinfo") == user.time_zone);
    CHECK(a.body.at("utcOffset") == 3600000);
  }
  Answer posted = post_form(t, "/services/oauth2/userinfo", {{"oauth_token", access}});
  CHECK(posted.status == 200);
  Answer none = get_with(t, "/services/oauth2/userinfo", "");
  CHECK(none.status == 403);
  CHECK(none.text == "Missing_OAuth_Token");
  Answer bad = get_with(t, "/services/oauth2/userinfo", "nonsense");
  CHECK(bad.status == 403);
  CHECK(bad.text == "Bad_OAuth_Token");
  Answer wrong_host = get_with(t, "/test/services/oauth2/userinfo", access);
  CHECK(wrong_host.status == 403);
  CHECK(wrong_host.reason.find("/login/services/oauth2/userinfo") != std::string::npos);
  // HEAD answers as GET without the body (the contract monitor checks it
  // as the GET).
  auto head = t.client().Head("/services/oauth2/userinfo");
  REQUIRE(head);
  CHECK(head->status == 403);
  auto head_ok =
      t.client().Head(id_path(t, token).c_str(), {{"Authorization", "Bearer " + access}});
  REQUIRE(head_ok);
  CHECK(head_ok->status == 200);
  t.advance_clock("3h");
  CHECK(get_with(t, "/services/oauth2/userinfo", access).text == "Bad_OAuth_Token");
}

TEST_CASE("an org configured without users answers for its integration user", "[oauth][identity]") {
  OAuthServer org;  // the OAuth kit's org: no auth.users
  httplib::Client cli("127.0.0.1", org.port);
  auto token =
      cli.Post("/login/services/oauth2/token", httplib::Params{{"grant_type", "client_credentials"},
                                                               {"client_id", "local-client"},
                                                               {"client_secret", "local-secret"}});
  REQUIRE(token);
  REQUIRE(token->status == 200);
  const json body = json::parse(token->body);
  const std::string id = body.at("id");
  const std::string path = id.substr(org.instance_url().size());
  auto a = cli.Get(path.c_str(),
                   {{"Authorization", "Bearer " + body.at("access_token").get<std::string>()}});
  REQUIRE(a);
  INFO(a->body);
  REQUIRE(a->status == 200);
  const json identity = json::parse(a->body);
  CHECK(identity.at("username") == default_integration_user().username);
  CHECK(identity.at("id") == id);
}
