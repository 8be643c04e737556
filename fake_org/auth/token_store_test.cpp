#include "auth/token_store.h"

#include <catch2/catch.hpp>

#include <memory>
#include <stdexcept>
#include <string>

#include "util/crypto.h"

using namespace fake_org;

namespace {

const char* kOrgId15 = "00D5J0000001234";

AuthSettings test_auth() {
  AuthSettings auth;
  auth.token_lifetime = Millis(2 * 3600 * 1000);
  auth.connected_apps.push_back(
      {"Local App", "local-client", "local-secret", {"http://localhost:8081/callback"}, true});
  auth.connected_apps.push_back(
      {"Web Only", "web-only", "web-secret", {"https://app.example.org/cb"}, false});
  return auth;
}

TimePoint start_time() {
  return *parse_iso8601("2027-01-31T09:00:00Z");
}

struct Store {
  std::shared_ptr<ManualClock> clock = std::make_shared<ManualClock>(start_time());
  std::shared_ptr<IdGenerator> ids =
      std::make_shared<IdGenerator>(std::make_shared<SeededRandom>(42));
  TokenStore tokens;

  explicit Store(const AuthSettings& auth = test_auth())
      : tokens(auth, clock, ids, *to_id18(kOrgId15)) {}
};

const ClientCredentials kLocal{"local-client", "local-secret"};
const ClientCredentials kWebOnly{"web-only", "web-secret"};
const std::string kCallback = "http://localhost:8081/callback";

}  // namespace

TEST_CASE("client_credentials issues an org-prefixed access token that authenticates", "[oauth]") {
  Store s;
  GrantResult r = s.tokens.client_credentials(kLocal);
  REQUIRE(r.ok());
  const IssuedToken& t = *r.token;
  CHECK(t.access_token.substr(0, 16) == std::string(kOrgId15) + "!");
  CHECK(t.access_token.size() == 16 + 48);
  CHECK(t.refresh_token.empty());
  CHECK(t.client_id == "local-client");
  CHECK(t.issued_at == start_time());
  CHECK(t.expires_at == start_time() + Millis(2 * 3600 * 1000));
  CHECK(t.scope == "full");

  std::optional<TokenInfo> info = s.tokens.authenticate(t.access_token);
  REQUIRE(info);
  CHECK(info->client_id == "local-client");
  CHECK(info->issued_at == start_time());
  CHECK(info->expires_at == start_time() + Millis(2 * 3600 * 1000));
  CHECK(info->scope == "full");

  CHECK_FALSE(s.tokens.authenticate("00D5J0000001234!unknown"));
  CHECK_FALSE(s.tokens.authenticate(""));
}

TEST_CASE("every grant gives a different token", "[oauth]") {
  Store s;
  std::string a = s.tokens.client_credentials(kLocal).token->access_token;
  std::string b = s.tokens.client_credentials(kLocal).token->access_token;
  CHECK(a != b);
  CHECK(a.find("local-secret") == std::string::npos);
}

TEST_CASE("access tokens expire after the configured lifetime on the org clock", "[oauth]") {
  AuthSettings auth = test_auth();
  auth.token_lifetime = Millis(30 * 60 * 1000);
  Store s(auth);
  std::string token = s.tokens.client_credentials(kLocal).token->access_token;
  s.clock->advance(Millis(30 * 60 * 1000 - 1));
  CHECK(s.tokens.authenticate(token));
  s.clock->advance(Millis(1));
  CHECK_FALSE(s.tokens.authenticate(token));
}

TEST_CASE("client authentication failures are invalid_client", "[oauth]") {
  Store s;
  for (const ClientCredentials& bad :
       {ClientCredentials{"local-client", "wrong"}, ClientCredentials{"local-client", ""},
        ClientCredentials{"local-client", "local-secre"},
        ClientCredentials{"local-client", "local-secret "}, ClientCredentials{"nobody", "x"},
        ClientCredentials{"", ""}, ClientCredentials{"web-only", "local-secret"}}) {
    GrantResult r = s.tokens.client_credentials(bad);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.error == "invalid_client");
    CHECK(r.error.description == "invalid client credentials");
    CHECK(s.tokens.authenticate_client(bad) == nullptr);
  }
  const ConnectedAppDef* app = s.tokens.authenticate_client(kLocal);
  REQUIRE(app != nullptr);
  CHECK(app->name == "Local App");
}

TEST_CASE("client_credentials needs an app that allows it", "[oauth]") {
  Store s;
  GrantResult r = s.tokens.client_credentials(kWebOnly);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error.error == "invalid_grant");
  CHECK(r.error.description == "no client credentials user enabled");
}

TEST_CASE("an authorization code gives an access and a refresh token, once", "[oauth]") {
  Store s;
  std::string code = s.tokens.issue_code("local-client", kCallback);
  GrantResult r = s.tokens.exchange_code(kLocal, code, kCallback);
  REQUIRE(r.ok());
  CHECK(r.token->refresh_token.size() == 48);
  CHECK(r.token->access_token.substr(0, 16) == std::string(kOrgId15) + "!");
  CHECK(s.tokens.authenticate(r.token->access_token));

  GrantResult again = s.tokens.exchange_code(kLocal, code, kCallback);
  REQUIRE_FALSE(again.ok());
  CHECK(again.error.error == "invalid_grant");
  CHECK(again.error.description == "invalid authorization code");
}

TEST_CASE("authorization codes expire after 10 minutes", "[oauth]") {
  Store s;
  std::string fresh = s.tokens.issue_code("local-client", kCallback);
  std::string stale = s.tokens.issue_code("local-client", kCallback);
  s.clock->advance(Millis(10 * 60 * 1000 - 1));
  CHECK(s.tokens.exchange_code(kLocal, fresh, kCallback).ok());
  s.clock->advance(Millis(1));
  GrantResult r = s.tokens.exchange_code(kLocal, stale, kCallback);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error.error == "invalid_grant");
  CHECK(r.error.description == "invalid authorization code");
}

TEST_CASE("an authorization code is bound to its redirect URI and client", "[oauth]") {
  Store s;
  SECTION("another redirect URI uses the code up") {
    std::string code = s.tokens.issue_code("local-client", kCallback);
    GrantResult r = s.tokens.exchange_code(kLocal, code, kCallback + "/");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.error == "invalid_grant");
    CHECK(r.error.description == "redirect_uri must match configuration");
    CHECK(s.tokens.exchange_code(kLocal, code, kCallback).error.description ==
          "invalid authorization code");
  }
  SECTION("another client cannot use it, and the owner still can") {
    std::string code = s.tokens.issue_code("local-client", kCallback);
    GrantResult r = s.tokens.exchange_code(kWebOnly, code, kCallback);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.error == "invalid_grant");
    CHECK(r.error.description == "invalid authorization code");
    CHECK(s.tokens.exchange_code(kLocal, code, kCallback).ok());
  }
  SECTION("a wrong secret does not use it up") {
    std::string code = s.tokens.issue_code("local-client", kCallback);
    GrantResult r = s.tokens.exchange_code({"local-client", "nope"}, code, kCallback);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.error == "invalid_client");
    CHECK(s.tokens.exchange_code(kLocal, code, kCallback).ok());
  }
}

TEST_CASE("a refresh token gives new access tokens and stays", "[oauth]") {
  Store s;
  std::string code = s.tokens.issue_code("local-client", kCallback);
  IssuedToken first = *s.tokens.exchange_code(kLocal, code, kCallback).token;
  s.clock->advance(Millis(3 * 3600 * 1000));
  CHECK_FALSE(s.tokens.authenticate(first.access_token));

  GrantResult r = s.tokens.refresh(kLocal, first.refresh_token);
  REQUIRE(r.ok());
  CHECK(r.token->access_token != first.access_token);
  CHECK(r.token->refresh_token.empty());
  CHECK(r.token->issued_at == start_time() + Millis(3 * 3600 * 1000));
  CHECK(s.tokens.authenticate(r.token->access_token));
  CHECK(s.tokens.refresh(kLocal, first.refresh_token).ok());

  GrantResult other = s.tokens.refresh(kWebOnly, first.refresh_token);
  REQUIRE_FALSE(other.ok());
  CHECK(other.error.error == "invalid_grant");
  CHECK(other.error.description == "expired access/refresh token");

  GrantResult unknown = s.tokens.refresh(kLocal, "not-a-token");
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.error.error == "invalid_grant");
  CHECK(unknown.error.description == "expired access/refresh token");
}

TEST_CASE("refresh tokens expire when the fixture gives them a lifetime", "[oauth]") {
  AuthSettings auth = test_auth();
  auth.refresh_token_lifetime = Millis(24 * 3600 * 1000);
  Store s(auth);
  std::string code = s.tokens.issue_code("local-client", kCallback);
  std::string refresh = s.tokens.exchange_code(kLocal, code, kCallback).token->refresh_token;
  s.clock->advance(Millis(24 * 3600 * 1000 - 1));
  CHECK(s.tokens.refresh(kLocal, refresh).ok());
  s.clock->advance(Millis(1));
  CHECK(s.tokens.refresh(kLocal, refresh).error.description == "expired access/refresh token");
}

TEST_CASE("revoking a refresh token revokes the access tokens issued from it", "[oauth]") {
  Store s;
  std::string code = s.tokens.issue_code("local-client", kCallback);
  IssuedToken granted = *s.tokens.exchange_code(kLocal, code, kCallback).token;
  std::string refreshed = s.tokens.refresh(kLocal, granted.refresh_token).token->access_token;
  std::string unrelated = s.tokens.client_credentials(kLocal).token->access_token;

  CHECK(s.tokens.revoke(granted.refresh_token));
  CHECK_FALSE(s.tokens.authenticate(granted.access_token));
  CHECK_FALSE(s.tokens.authenticate(refreshed));
  CHECK(s.tokens.authenticate(unrelated));
  CHECK(s.tokens.refresh(kLocal, granted.refresh_token).error.description ==
        "expired access/refresh token");
  CHECK_FALSE(s.tokens.revoke(granted.refresh_token));
}

TEST_CASE("revoking an access token leaves its refresh token", "[oauth]") {
  Store s;
  std::string code = s.tokens.issue_code("local-client", kCallback);
  IssuedToken granted = *s.tokens.exchange_code(kLocal, code, kCallback).token;
  CHECK(s.tokens.revoke(granted.access_token));
  CHECK_FALSE(s.tokens.authenticate(granted.access_token));
  CHECK_FALSE(s.tokens.revoke(granted.access_token));
  CHECK(s.tokens.refresh(kLocal, granted.refresh_token).ok());
  CHECK_FALSE(s.tokens.revoke("unknown"));
}

TEST_CASE("reset forgets every code and token", "[oauth]") {
  Store s;
  std::string code = s.tokens.issue_code("local-client", kCallback);
  IssuedToken granted =
      *s.tokens.exchange_code(kLocal, s.tokens.issue_code("local-client", kCallback), kCallback)
           .token;
  s.tokens.reset();
  CHECK_FALSE(s.tokens.authenticate(granted.access_token));
  CHECK_FALSE(s.tokens.refresh(kLocal, granted.refresh_token).ok());
  CHECK_FALSE(s.tokens.exchange_code(kLocal, code, kCallback).ok());
  CHECK(s.tokens.client_credentials(kLocal).ok());
}

TEST_CASE("many grants over a long time keep working across sweeps", "[oauth]") {
  Store s;
  std::string code = s.tokens.issue_code("local-client", kCallback);
  IssuedToken granted = *s.tokens.exchange_code(kLocal, code, kCallback).token;
  std::string last;
  for (int i = 0; i < 2100; ++i) {
    s.clock->advance(Millis(3600 * 1000));
    last = s.tokens.refresh(kLocal, granted.refresh_token).token->access_token;
  }
  CHECK(s.tokens.authenticate(last));
  CHECK(s.tokens.revoke(granted.refresh_token));
  CHECK_FALSE(s.tokens.authenticate(last));
}

TEST_CASE("expired codes and tokens are purged by the next issue, not kept until a sweep",
          "[oauth]") {
  Store s;
  for (int i = 0; i < 5; ++i) {
    s.tokens.issue_code("local-client", kCallback);
    REQUIRE(s.tokens.client_credentials(kLocal).ok());
  }
  IssuedToken granted =
      *s.tokens.exchange_code(kLocal, s.tokens.issue_code("local-client", kCallback), kCallback)
           .token;
  CHECK(s.tokens.stored() == 5 + 5 + 2);
  // Past every access token's expiry plus the day of grace; the refresh token lives on.
  s.clock->advance(Millis(2 * 3600 * 1000) + Millis(24 * 3600 * 1000));
  IssuedToken fresh = *s.tokens.refresh(kLocal, granted.refresh_token).token;
  CHECK(s.tokens.stored() == 2);  // the refresh token and the new access token
  CHECK(s.tokens.authenticate(fresh.access_token));
  CHECK(s.tokens.revoke(granted.refresh_token));
  CHECK_FALSE(s.tokens.authenticate(fresh.access_token));
  CHECK(s.tokens.stored() == 0);
}

TEST_CASE("a purged refresh token no longer grants, and its access tokens stay until expiry",
          "[oauth]") {
  AuthSettings auth = test_auth();
  auth.refresh_token_lifetime = Millis(3600 * 1000);
  Store s(auth);
  IssuedToken granted =
      *s.tokens.exchange_code(kLocal, s.tokens.issue_code("local-client", kCallback), kCallback)
           .token;
  s.clock->advance(Millis(25 * 3600 * 1000));
  IssuedToken other = *s.tokens.client_credentials(kLocal).token;
  // The refresh token went a day after its expiry; its access token (2 h) has a day to go.
  CHECK(s.tokens.stored() == 2);
  CHECK_FALSE(s.tokens.refresh(kLocal, granted.refresh_token).ok());
  CHECK_FALSE(s.tokens.revoke(granted.refresh_token));
  CHECK(s.tokens.authenticate(other.access_token));
  s.clock->advance(Millis(3600 * 1000));
  REQUIRE(s.tokens.client_credentials(kLocal).ok());
  CHECK(s.tokens.stored() == 2);
}

TEST_CASE("the signature is base64 HMAC-SHA256 keyed with the client secret", "[oauth]") {
  AuthSettings auth;
  auth.connected_apps.push_back({"App", "app", "key", {}, true});
  Store s(auth);
  CHECK(s.tokens.sign("app", "The quick brown fox jumps over the lazy dog") ==
        "97yD9DBThCSxMpjmqm+xQ+9NWaFJRhdZl0edvC0aPNg=");
  CHECK(s.tokens.sign("nobody", "x").empty());
}

TEST_CASE("the integration user and org ids are record ids", "[oauth]") {
  Store s;
  CHECK(s.tokens.user_id() == "0055J0000000001QAA");
  CHECK(is_record_id(s.tokens.user_id()));
  CHECK(s.tokens.org_id() == *to_id18(kOrgId15));
}

TEST_CASE("a token store needs a real org id", "[oauth]") {
  auto clock = std::make_shared<ManualClock>(start_time());
  auto ids = std::make_shared<IdGenerator>(std::make_shared<SeededRandom>(1));
  CHECK_THROWS_AS(TokenStore(test_auth(), clock, ids, ""), std::invalid_argument);
  CHECK_THROWS_AS(TokenStore(test_auth(), clock, ids, "00D!"), std::invalid_argument);
}

TEST_CASE("crypto helpers", "[oauth]") {
  CHECK(crypto::base64_encode("") == "");
  CHECK(crypto::base64_encode("f") == "Zg==");
  CHECK(crypto::base64_encode("foob") == "Zm9vYg==");
  CHECK(crypto::base64_encode("foobar") == "Zm9vYmFy");
  CHECK(crypto::base64_decode("Zg==") == std::optional<std::string>("f"));
  CHECK(crypto::base64_decode("Zm9vYg") == std::optional<std::string>("foob"));
  CHECK(crypto::base64_decode("Zm9vYmFy") == std::optional<std::string>("foobar"));
  CHECK(crypto::base64_decode("bG9jYWwtY2xpZW50OnMzY3IlM0F0JTJC") ==
        std::optional<std::string>("local-client:s3cr%3At%2B"));
  CHECK_FALSE(crypto::base64_decode("Zm9v!"));
  CHECK_FALSE(crypto::base64_decode("Z"));
  CHECK(crypto::constant_time_equal("secret", "secret"));
  CHECK_FALSE(crypto::constant_time_equal("secret", "secreT"));
  CHECK_FALSE(crypto::constant_time_equal("secret", "secret-longer"));
  // FIPS 180-4's examples.
  CHECK(crypto::hex_encode(crypto::sha256("abc")) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(crypto::hex_encode(crypto::sha256("")) ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(crypto::hex_encode(crypto::sha256(std::string(1000000, 'a'))) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  CHECK(crypto::base64url_encode("") == "");
  CHECK(crypto::base64url_encode("f") == "Zg");
  CHECK(crypto::base64url_encode("\xfb\xff") == "-_8");
}

TEST_CASE("PKCE: a code with a challenge needs its verifier, one without refuses one", "[oauth]") {
  Store s;
  // RFC 7636 appendix B.
  const std::string verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
  CodeChallenge s256;
  REQUIRE(read_code_challenge("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "S256", s256).empty());
  CHECK(s256.method == "S256");
  CHECK(s.tokens
            .exchange_code(kLocal, s.tokens.issue_code("local-client", kCallback, s256), kCallback,
                           verifier)
            .ok());
  for (const std::string& wrong : {std::string(), verifier + "x", s256.challenge}) {
    GrantResult r = s.tokens.exchange_code(
        kLocal, s.tokens.issue_code("local-client", kCallback, s256), kCallback, wrong);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error.error == "invalid_grant");
    CHECK(r.error.description == "invalid code verifier");
  }
  CodeChallenge plain;
  REQUIRE(read_code_challenge(verifier, "plain", plain).empty());
  CHECK(plain.method == "plain");
  // No method means S256, as on the platform (jsforce sends none).
  CodeChallenge omitted;
  REQUIRE(read_code_challenge(s256.challenge, "", omitted).empty());
  CHECK(omitted.method == "S256");
  CHECK(s.tokens
            .exchange_code(kLocal, s.tokens.issue_code("local-client", kCallback, omitted),
                           kCallback, verifier)
            .ok());
  CHECK(s.tokens
            .exchange_code(kLocal, s.tokens.issue_code("local-client", kCallback, plain), kCallback,
                           verifier)
            .ok());
  CHECK_FALSE(s.tokens
                  .exchange_code(kLocal, s.tokens.issue_code("local-client", kCallback), kCallback,
                                 verifier)
                  .ok());
  CodeChallenge none;
  CHECK(read_code_challenge("", "", none).empty());
  CHECK(none.challenge.empty());
  CHECK_FALSE(read_code_challenge(verifier, "S512", none).empty());
  CHECK_FALSE(read_code_challenge(verifier.substr(0, 42), "plain", none).empty());
  CHECK_FALSE(read_code_challenge(std::string(129, 'a'), "plain", none).empty());
  CHECK(read_code_challenge(std::string(128, '~'), "plain", none).empty());
  CHECK_FALSE(read_code_challenge("", "S256", none).empty());
}

TEST_CASE("scopes: the documented set, space-separated", "[oauth]") {
  CHECK(first_unknown_scope("").empty());
  CHECK(first_unknown_scope("full").empty());
  CHECK(first_unknown_scope("api refresh_token offline_access openid web").empty());
  CHECK(first_unknown_scope("api  full").empty());
  CHECK(first_unknown_scope("api everything full") == "everything");
  CHECK(first_unknown_scope("FULL") == "FULL");
  CHECK(first_unknown_scope("full,api") == "full,api");
}

TEST_CASE("live authorization codes are capped, one more drops the oldest", "[oauth][codes]") {
  Store s;
  std::string oldest = s.tokens.issue_code("local-client", kCallback);
  s.clock->advance(Millis(1));
  std::string second = s.tokens.issue_code("local-client", kCallback);
  s.clock->advance(Millis(1));
  for (size_t i = 2; i < TokenStore::kMaxLiveCodes; ++i)
    s.tokens.issue_code("local-client", kCallback);
  CHECK(s.tokens.stored() == TokenStore::kMaxLiveCodes);
  s.clock->advance(Millis(1));
  std::string newest = s.tokens.issue_code("local-client", kCallback);
  CHECK(s.tokens.stored() == TokenStore::kMaxLiveCodes);
  GrantResult dropped = s.tokens.exchange_code(kLocal, oldest, kCallback);
  REQUIRE_FALSE(dropped.ok());
  CHECK(dropped.error.error == "invalid_grant");
  CHECK(s.tokens.exchange_code(kLocal, second, kCallback).ok());
  CHECK(s.tokens.exchange_code(kLocal, newest, kCallback).ok());
}
