#include "auth/jwt_bearer.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "auth/token_store.h"
#include "fixture/fixture_loader.h"
#include "util/crypto.h"

using namespace fake_org;
using nlohmann::json;

namespace {

std::string test_private_key() {
  std::ifstream in(std::string(PROJECT_SOURCE_DIR) + "/fixtures/keys/jwt-test-client.key");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string b64(const std::string& s) {
  return crypto::base64url_encode(s);
}

// A compact JWS signed with the default fixture's test key.
std::string assertion(const json& claims, const std::string& alg = "RS256") {
  const std::string input = b64(json{{"alg", alg}}.dump()) + "." + b64(claims.dump());
  auto signature = crypto::sign_rs256(test_private_key(), input);
  REQUIRE(signature);
  return input + "." + b64(*signature);
}

TimePoint now() {
  return *parse_iso8601("2027-01-31T09:00:00Z");
}

double seconds(TimePoint t) {
  return static_cast<double>(
      std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count());
}

json claims(const std::string& sub = "ada@local-fake-org.example",
            const std::string& aud = "https://login.salesforce.com") {
  return {{"iss", "local-client"}, {"sub", sub}, {"aud", aud}, {"exp", seconds(now()) + 180}};
}

// The org clock and real time both at now(), each movable.
struct Org {
  OrgConfig config = *load_embedded_fixture("default.yaml").config;
  std::shared_ptr<ManualClock> clock = std::make_shared<ManualClock>(now());
  std::shared_ptr<ManualClock> wall = std::make_shared<ManualClock>(now());
  TokenStore tokens{config.auth,
                    clock,
                    std::make_shared<IdGenerator>(std::make_shared<SeededRandom>(7)),
                    *to_id18("00D5J0000001234"),
                    config.org.sandbox,
                    wall};
};

const char* kOrigin = "http://127.0.0.1:8080";

}  // namespace

TEST_CASE("a JWT bearer assertion signed by the app's key gets a token for its user",
          "[oauth][jwt]") {
  Org o;
  GrantResult r = o.tokens.jwt_bearer(assertion(claims()), kOrigin);
  REQUIRE(r.ok());
  CHECK(r.token->client_id == "local-client");
  CHECK(r.token->user_id == o.config.auth.user("ada@local-fake-org.example")->id);
  CHECK(r.token->user_id != o.tokens.user_id());
  CHECK(r.token->refresh_token.empty());  // the platform issues none for this flow
  auto info = o.tokens.authenticate(r.token->access_token);
  REQUIRE(info);
  CHECK(info->user_id == r.token->user_id);
}

TEST_CASE("JWT audiences: the platform's login host and the fake's own URLs", "[oauth][jwt]") {
  Org o;
  // The instance root is what `sf org login jwt --instance-url http://host:port` signs.
  for (const char* aud : {"https://login.salesforce.com", "https://login.salesforce.com/",
                          "http://127.0.0.1:8080/login", "http://127.0.0.1:8080/login/",
                          "http://127.0.0.1:8080", "http://127.0.0.1:8080/"}) {
    INFO(aud);
    CHECK(o.tokens.jwt_bearer(assertion(claims("ada@local-fake-org.example", aud)), kOrigin).ok());
  }
  // A production org refuses the sandbox host, and any other host.
  for (const char* aud :
       {"https://test.salesforce.com", "http://127.0.0.1:8080/test", "https://evil.example/login",
        "http://127.0.0.1:9999/login", "http://127.0.0.1:9999/", "http://127.0.0.1:8080/x"}) {
    INFO(aud);
    GrantResult r =
        o.tokens.jwt_bearer(assertion(claims("ada@local-fake-org.example", aud)), kOrigin);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.error == "invalid_grant");
    CHECK(r.error.description == "audience is invalid");
  }
  json list = claims();
  list["aud"] = json::array({"https://other.example", "https://login.salesforce.com"});
  CHECK(o.tokens.jwt_bearer(assertion(list), kOrigin).ok());
}

TEST_CASE("a sandbox org takes only the sandbox login host as audience", "[oauth][jwt]") {
  Org o;
  o.config.org.sandbox = true;
  TokenStore sandbox(o.config.auth, o.clock,
                     std::make_shared<IdGenerator>(std::make_shared<SeededRandom>(7)),
                     *to_id18("00D5J0000001234"), true);
  CHECK(sandbox
            .jwt_bearer(
                assertion(claims("ada@local-fake-org.example", "https://test.salesforce.com")),
                kOrigin)
            .ok());
  CHECK(
      sandbox
          .jwt_bearer(assertion(claims("ada@local-fake-org.example", "http://127.0.0.1:8080/test")),
                      kOrigin)
          .ok());
  CHECK(sandbox.jwt_bearer(assertion(claims()), kOrigin).error.description ==
        "audience is invalid");
}

TEST_CASE("JWT refusals carry the platform's error and description", "[oauth][jwt]") {
  Org o;
  auto refused = [&](const std::string& a) {
    GrantResult r = o.tokens.jwt_bearer(a, kOrigin);
    REQUIRE_FALSE(r.ok());
    return r.error.error + ": " + r.error.description;
  };
  json expired = claims();
  expired["exp"] = seconds(now()) - 1;
  CHECK(refused(assertion(expired)) == "invalid_grant: expired authorization code");
  json no_exp = claims();
  no_exp.erase("exp");
  CHECK(refused(assertion(no_exp)) == "invalid_grant: expired authorization code");
  CHECK(refused(assertion(claims("nobody@local-fake-org.example"))) ==
        "invalid_grant: user hasn't approved this consumer");
  json other_app = claims();
  other_app["iss"] = "no-such-client";
  CHECK(refused(assertion(other_app)) == "invalid_client: client identifier invalid");
  CHECK(refused(assertion(claims(), "HS256")) == "invalid_grant: invalid assertion");
  CHECK(refused("not.a.jwt") == "invalid_grant: invalid assertion");
  CHECK(refused("") == "invalid_grant: invalid assertion");
  CHECK(refused("a.b") == "invalid_grant: invalid assertion");
  // A signature over other claims: the user was swapped after signing.
  std::string good = assertion(claims());
  std::string tampered = b64(json{{"alg", "RS256"}}.dump()) + "." +
                         b64(claims("integration@local-fake-org.example").dump()) +
                         good.substr(good.rfind('.'));
  CHECK(refused(tampered) == "invalid_grant: invalid assertion");
  // Past exp on both clocks, the same assertion is refused.
  std::string a = assertion(claims());
  o.clock->advance(std::chrono::minutes(4));
  o.wall->advance(std::chrono::minutes(4));
  CHECK(refused(a) == "invalid_grant: expired authorization code");
}

TEST_CASE("JWT exp counts from real time too: an org clock moved ahead takes a fresh assertion",
          "[oauth][jwt]") {
  Org o;
  // Signed with real time (now + 180 s) after the org clock moved 3 hours on.
  const std::string fresh = assertion(claims());
  o.clock->advance(std::chrono::hours(3));
  CHECK(o.tokens.jwt_bearer(fresh, kOrigin).ok());
  // Signed with org time, real time behind it: live too.
  json org_signed = claims();
  org_signed["exp"] = seconds(now()) + 3 * 3600 + 180;
  CHECK(o.tokens.jwt_bearer(assertion(org_signed), kOrigin).ok());
  // sf 2.86.1's exp: Date.now() + 300, milliseconds; far ahead on either clock.
  json millis = claims();
  millis["exp"] = seconds(now()) * 1000 + 300;
  CHECK(o.tokens.jwt_bearer(assertion(millis), kOrigin).ok());
  // Past on both: refused.
  o.wall->advance(std::chrono::minutes(4));
  CHECK(o.tokens.jwt_bearer(fresh, kOrigin).error.description == "expired authorization code");

  JwtClaims c;
  c.exp = seconds(now()) + 10;
  CHECK(assertion_live(c, now() + std::chrono::hours(1), now()));
  CHECK(assertion_live(c, now(), now() + std::chrono::hours(1)));
  CHECK_FALSE(assertion_live(c, now() + std::chrono::hours(1), now() + std::chrono::minutes(1)));
  c.exp.reset();
  CHECK_FALSE(assertion_live(c, now(), now()));
}

TEST_CASE("JWT nbf and iat: a future one past the clock skew is refused", "[oauth][jwt]") {
  Org o;
  for (const char* key : {"nbf", "iat"}) {
    json c = claims();
    c[key] = seconds(now()) + 170;  // within the skew: a client clock slightly ahead
    CHECK(o.tokens.jwt_bearer(assertion(c), kOrigin).ok());
    c[key] = seconds(now()) - 3600;
    CHECK(o.tokens.jwt_bearer(assertion(c), kOrigin).ok());
    c[key] = seconds(now()) + 600;
    CHECK(o.tokens.jwt_bearer(assertion(c), kOrigin).error.description ==
          "assertion not yet valid (nbf or iat is in the future)");
  }
  // Against the org clock moved ahead, a client signing with it is started.
  json c = claims();
  c["nbf"] = seconds(now()) + 2 * 3600;
  c["exp"] = seconds(now()) + 3 * 3600;
  o.clock->advance(std::chrono::hours(2));
  CHECK(o.tokens.jwt_bearer(assertion(c), kOrigin).ok());

  JwtClaims bare;
  CHECK(assertion_started(bare, now(), now()));
}

TEST_CASE("the password grant is off unless the fixture allows it", "[oauth][password]") {
  Org o;
  const ClientCredentials app{"local-client", "local-secret"};
  GrantResult off = o.tokens.password(app, "ada@local-fake-org.example", "ada-passwordADATOKEN123");
  REQUIRE_FALSE(off.ok());
  CHECK(off.error.error == "invalid_grant");
  CHECK(off.error.description == "authentication failure");

  o.config.auth.password_flow = true;
  TokenStore on(o.config.auth, o.clock,
                std::make_shared<IdGenerator>(std::make_shared<SeededRandom>(7)),
                *to_id18("00D5J0000001234"));
  GrantResult r = on.password(app, "ADA@local-fake-org.example", "ada-passwordADATOKEN123");
  REQUIRE(r.ok());
  CHECK(r.token->user_id == o.config.auth.user("ada@local-fake-org.example")->id);
  CHECK(r.token->refresh_token.empty());
  // Without the security token, with a wrong one, or for a user without a password.
  CHECK(on.password(app, "ada@local-fake-org.example", "ada-password").error.description ==
        "authentication failure");
  CHECK(on.password(app, "ada@local-fake-org.example", "ada-passwordWRONG").error.description ==
        "authentication failure");
  CHECK(on.password(app, "integration@local-fake-org.example", "").error.description ==
        "authentication failure");
  CHECK(on.password({"local-client", "wrong"}, "ada@local-fake-org.example",
                    "ada-passwordADATOKEN123")
            .error.error == "invalid_client");
}

TEST_CASE("users: the first is the integration user, ids are 005 record ids", "[oauth][users]") {
  Org o;
  REQUIRE(o.config.auth.users.size() == 2);
  CHECK(o.config.auth.integration_user().id == "0055J0000000001QAA");
  CHECK(o.tokens.user_id() == "0055J0000000001QAA");
  CHECK(o.config.auth.users[1].id.substr(0, 15) == "0055J0000000002");
  CHECK(o.config.auth.user_by_id(o.config.auth.users[1].id)->username ==
        "ada@local-fake-org.example");
  CHECK(o.config.auth.users[1].display_name() == "Ada Lovelace");
  // client credentials act as the integration user.
  GrantResult r = o.tokens.client_credentials({"local-client", "local-secret"});
  REQUIRE(r.ok());
  CHECK(r.token->user_id == "0055J0000000001QAA");
}
