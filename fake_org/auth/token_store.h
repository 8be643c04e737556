#pragma once
// The org's OAuth 2.0 state: authorization codes, access tokens and refresh
// tokens of its connected apps (spec 5), with the platform's rules:
// - an access token reads "<15-character org id>!<random>" and lives for
//   AuthSettings::token_lifetime on the org clock (fixed, not sliding);
// - a refresh token is issued by the web server flow only and lives until
//   revoked (or AuthSettings::refresh_token_lifetime when that is set);
// - an authorization code is bound to its client and redirect URI, is good
//   once, and expires 10 minutes after it was issued; at most kMaxLiveCodes
//   are live (they are minted without client authentication), the oldest
//   dropped first;
// - revoking a refresh token revokes every access token issued from it;
// - PKCE (RFC 7636): a code issued with a code_challenge is exchanged only
//   with the matching code_verifier (S256 or plain); a code issued without
//   one is refused a code_verifier (RFC 9700 2.1.1, against downgrade). A
//   failed check uses the code up like any other failed exchange (RFC 6749
//   10.5: single use).
// Tokens are random (IdGenerator::token) and never derived from secrets.
// Client secrets are compared in constant time over SHA-256 digests, so
// neither content nor length leaks through timing.
//
// Locking rule: one shared mutex (mu_) guards every map and expiry index;
// each public method holds it for its whole body, shared when it only reads
// (authenticate, on every API request, beside the others), exclusive
// otherwise, and none calls another public method while holding it. The clock and id generator are
// thread-safe on their own and take no lock of ours.
//
// Bounded without scans: each map has an expiry index ordered by time, and
// every issue purges only the entries at its front that have expired (codes
// at expiry, tokens kSweepGrace after it), so no request walks all tokens.
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "domain/config/org_config.h"
#include "domain/core/clock.h"
#include "domain/core/ids.h"
#include "domain/store/org_state.h"
#include "util/rsa.h"

namespace fake_org {

// What a valid bearer token stands for.
struct TokenInfo {
  std::string client_id;
  std::string user_id;  // the user the token acts as (18 characters, 005...)
  TimePoint issued_at;
  TimePoint expires_at;
  std::string scope;  // always "full" (spec 5.3)
};

// An OAuth 2.0 error as the token endpoint reports it.
struct OAuthError {
  std::string error;        // "invalid_grant", "invalid_client", ...
  std::string description;  // the platform's wording
};

struct IssuedToken {
  std::string access_token;
  std::string refresh_token;  // empty unless the grant issues one
  std::string client_id;
  std::string user_id;
  TimePoint issued_at;
  TimePoint expires_at;
  std::string scope;
};

// Either an issued token or the reason none was issued.
struct GrantResult {
  std::optional<IssuedToken> token;
  OAuthError error;  // meaningful only when !token

  bool ok() const { return token.has_value(); }
};

struct ClientCredentials {
  std::string client_id;
  std::string client_secret;
};

// The platform's error descriptions, shared with the HTTP layer and tests.
namespace oauth_error {
inline constexpr const char* kInvalidClientDescription = "invalid client credentials";
inline constexpr const char* kInvalidCodeDescription = "invalid authorization code";
inline constexpr const char* kExpiredTokenDescription = "expired access/refresh token";
inline constexpr const char* kRedirectMismatchDescription = "redirect_uri must match configuration";
inline constexpr const char* kNoClientCredentialsUserDescription =
    "no client credentials user enabled";
inline constexpr const char* kInvalidCodeVerifierDescription = "invalid code verifier";
inline constexpr const char* kAuthenticationFailure = "authentication failure";
}  // namespace oauth_error

// PKCE (RFC 7636 4.3): what an authorization request committed its code to.
struct CodeChallenge {
  std::string challenge;  // empty: the request used no PKCE
  std::string method;     // "S256" or "plain"
};

// Why an authorization request's code_challenge and code_challenge_method
// cannot be used (RFC 7636 4.2, 4.3: 43 to 128 unreserved characters; the
// method S256 or plain; S256 when omitted, as on the platform, which
// documents the challenge as the SHA-256 of the verifier); empty when they can, and then
// `out` holds them. Neither given: no PKCE.
std::string read_code_challenge(std::string_view challenge, std::string_view method,
                                CodeChallenge& out);

// The scope values a connected app may request (the platform's; RFC 6749 3.3:
// space-separated). The grant is always `full` (spec 5.3), whatever is asked.
bool known_scope(std::string_view value);
// The first value of a space-separated scope that is not known; empty when
// every value is.
std::string first_unknown_scope(std::string_view scope);

class TokenStore {
 public:
  static constexpr Millis kCodeLifetime{10 * 60 * 1000};
  // Live authorization codes kept at most; issuing one more drops the oldest.
  static constexpr size_t kMaxLiveCodes = 10000;
  static constexpr const char* kScope = "full";

  // `sandbox_org`: which login host a JWT assertion must name (jwt_bearer.h).
  // `wall`: real time, which a JWT assertion's exp may count from too
  // (clients sign with it); null: the system clock.
  TokenStore(const AuthSettings& settings, std::shared_ptr<const Clock> clock,
             std::shared_ptr<IdGenerator> ids, std::string org_id, bool sandbox_org = false,
             std::shared_ptr<const Clock> wall = nullptr);

  // The connected app with this client_id, if the org has one.
  const ConnectedAppDef* app(std::string_view client_id) const;
  // The app when the secret is its own; nullptr otherwise. Constant time in
  // the secret, whatever its length.
  const ConnectedAppDef* authenticate_client(const ClientCredentials& client) const;

  // Web server flow, step 1: the user approved `client_id` for `redirect_uri`.
  // The caller has checked both against the app's configuration.
  // `pkce`: the request's code challenge, if it sent one. The code's tokens
  // act as the integration user, who approves on the fake's page.
  std::string issue_code(std::string_view client_id, std::string_view redirect_uri,
                         CodeChallenge pkce = {});

  // grant_type=authorization_code: access and refresh token. The code is used
  // up by any attempt of its own client, successful or not. `code_verifier`
  // is empty when the request sent none.
  GrantResult exchange_code(const ClientCredentials& client, std::string_view code,
                            std::string_view redirect_uri, std::string_view code_verifier = {});
  // grant_type=refresh_token: a new access token; the refresh token stays.
  GrantResult refresh(const ClientCredentials& client, std::string_view refresh_token);
  // grant_type=client_credentials: an access token, no refresh token.
  GrantResult client_credentials(const ClientCredentials& client);
  // grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer (jwt_bearer.h):
  // an access token for the assertion's user, no refresh token. `origin` is
  // the URL the request reached, whose login path is an accepted audience.
  GrantResult jwt_bearer(std::string_view assertion, std::string_view origin);
  // grant_type=password: the user's password with its security token
  // appended; only when AuthSettings::password_flow. No refresh token.
  GrantResult password(const ClientCredentials& client, std::string_view username,
                       std::string_view password);

  // The token's grant while it is known, unrevoked and unexpired.
  std::optional<TokenInfo> authenticate(std::string_view bearer) const;

  // Revokes an access or refresh token; false when the token is unknown.
  bool revoke(std::string_view token);

  // Forgets every code and token (admin reset).
  void reset();

  // Access and refresh tokens also go to `sink` (a data directory), so a
  // client's token outlives a restart; codes (ten minutes, minted before any
  // client authenticates) do not. Set while wiring.
  void set_state_sink(std::shared_ptr<OrgStateSink> sink) { sink_ = std::move(sink); }
  // Puts back a token the sink kept (start-up); false when it is not one.
  bool restore(const std::string& key, const nlohmann::json& saved);

  // Codes, access and refresh tokens held (expired ones not yet purged
  // included); for tests of the purge.
  size_t stored() const;

  // base64(HMAC-SHA256(key = the client's secret, data)), the platform's
  // `signature` of a token response; empty for an unknown client.
  std::string sign(std::string_view client_id, std::string_view data) const;

  const std::string& org_id() const { return org_id_; }
  // The integration user: client credentials and authorization codes act as it.
  const std::string& user_id() const { return user_id_; }
  const AuthSettings& settings() const { return settings_; }

 private:
  struct CodeEntry {
    std::string client_id;
    std::string user_id;
    std::string redirect_uri;
    TimePoint expires_at;
    CodeChallenge pkce;
  };
  struct AccessEntry {
    TokenInfo info;
    std::string refresh_token;  // the refresh token it came from; may be empty
  };
  struct RefreshEntry {
    std::string client_id;
    std::string user_id;
    TimePoint issued_at;
    std::optional<TimePoint> expires_at;
    std::unordered_set<std::string> access_tokens;  // issued from it, for the revoke cascade
  };
  using ExpiryIndex = std::set<std::pair<TimePoint, std::string>>;

  // Callers hold mu_.
  IssuedToken issue_access_locked(const std::string& client_id, const std::string& user_id,
                                  const std::string& refresh_token, TimePoint now);
  // An access token without a refresh token (client credentials, JWT, password).
  GrantResult issue_access_only(const std::string& client_id, const std::string& user_id);
  // Drops what expired (tokens: kSweepGrace before `now`), front of each index only.
  void purge_locked(TimePoint now);
  void erase_access_locked(const std::string& token);

  const AuthSettings settings_;
  const std::shared_ptr<const Clock> clock_;
  const std::shared_ptr<const Clock> wall_;
  const std::shared_ptr<IdGenerator> ids_;
  const std::string org_id_;
  const std::string token_prefix_;  // first 15 characters of the org id + "!"
  const std::string user_id_;
  const bool sandbox_org_;
  // Client id -> the key of its app's certificate (JWT bearer), parsed once.
  std::unordered_map<std::string, std::shared_ptr<const crypto::PublicKey>> jwt_keys_;

  mutable std::shared_mutex mu_;
  std::unordered_map<std::string, CodeEntry> codes_;
  std::unordered_map<std::string, AccessEntry> access_;
  std::unordered_map<std::string, RefreshEntry> refresh_;
  // (expires_at, key) of every entry above that has an expiry.
  ExpiryIndex code_expiry_;
  ExpiryIndex access_expiry_;
  ExpiryIndex refresh_expiry_;
  std::shared_ptr<OrgStateSink> sink_;
};

}  // namespace fake_org
