#include "auth/token_store.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_set>
#include <utility>

#include "auth/jwt_bearer.h"
#include "util/crypto.h"

namespace fake_org {

namespace {

// Random characters after the "!" of an access token; the platform's are
// longer, but 48 characters of 6 bits each are plenty for a local org.
constexpr size_t kTokenChars = 48;
// Expired tokens are forgotten only this long after expiry, so an admin who
// sets the clock back a little still finds them (and finds them expired or
// valid as the clock says).
constexpr Millis kSweepGrace{24 * 3600 * 1000};

OAuthError invalid_client() {
  return {"invalid_client", oauth_error::kInvalidClientDescription};
}

GrantResult fail(std::string error, std::string description) {
  GrantResult r;
  r.error = {std::move(error), std::move(description)};
  return r;
}

GrantResult fail(OAuthError e) {
  GrantResult r;
  r.error = std::move(e);
  return r;
}

GrantResult success(IssuedToken t) {
  GrantResult r;
  r.token = std::move(t);
  return r;
}

// RFC 7636 4.1: unreserved characters (RFC 3986 2.3), 43 to 128 of them; the
// same rule holds for a challenge (a plain one is a verifier, an S256 one is
// 43 characters of base64url).
bool pkce_text(std::string_view s) {
  if (s.size() < 43 || s.size() > 128) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~';
  });
}

// RFC 7636 4.6. A code without a challenge accepts no verifier (RFC 9700
// 2.1.1: otherwise an attacker's code injection passes by dropping PKCE).
bool verifier_matches(const CodeChallenge& pkce, std::string_view verifier) {
  if (pkce.challenge.empty()) return verifier.empty();
  if (verifier.empty()) return false;
  std::string expected = pkce.method == "S256" ? crypto::base64url_encode(crypto::sha256(verifier))
                                               : std::string(verifier);
  return crypto::constant_time_equal(expected, pkce.challenge);
}

}  // namespace

std::string read_code_challenge(std::string_view challenge, std::string_view method,
                                CodeChallenge& out) {
  out = CodeChallenge{};
  if (challenge.empty()) {
    return method.empty() ? std::string() : "code_challenge_method without code_challenge";
  }
  if (!method.empty() && method != "S256" && method != "plain") {
    return "unsupported code_challenge_method: " + std::string(method);
  }
  if (!pkce_text(challenge)) return "code_challenge must be 43 to 128 unreserved characters";
  out.challenge = std::string(challenge);
  out.method = method.empty() ? "S256" : std::string(method);
  return std::string();
}

bool known_scope(std::string_view value) {
  // The platform's OAuth scopes a connected app can be given (its scope
  // tokens, not the long names shown in setup). `full` is spec 5.3's.
  // clang-format off
  static const std::unordered_set<std::string_view> kKnown{
      "full", "api", "refresh_token", "offline_access", "openid", "id", "profile", "email",
      "address", "phone", "web", "visualforce", "chatter_api", "custom_permissions", "wave_api",
      "eclair_api", "pardot_api", "lightning", "content", "cdp_api", "forgot_password"};
  // clang-format on
  return kKnown.count(value) > 0;
}

std::string first_unknown_scope(std::string_view scope) {
  while (!scope.empty()) {
    size_t space = scope.find(' ');
    std::string_view value = scope.substr(0, space);
    scope = space == std::string_view::npos ? std::string_view() : scope.substr(space + 1);
    if (!value.empty() && !known_scope(value)) return std::string(value);
  }
  return std::string();
}

TokenStore::TokenStore(const AuthSettings& settings, std::shared_ptr<const Clock> clock,
                       std::shared_ptr<IdGenerator> ids, std::string org_id, bool sandbox_org,
                       std::shared_ptr<const Clock> wall)
    : settings_(settings),
      clock_(std::move(clock)),
      wall_(wall ? std::move(wall) : std::make_shared<SystemClock>()),
      ids_(std::move(ids)),
      org_id_(std::move(org_id)),
      token_prefix_(org_id_.substr(0, 15) + "!"),
      user_id_(settings_.integration_user().id),
      sandbox_org_(sandbox_org) {
  // Tokens carry the org id, so a token of one org never authenticates at another.
  if (!is_record_id(org_id_)) {
    throw std::invalid_argument("TokenStore: org id '" + org_id_ +
                                "' is not a 15- or 18-character record id");
  }
  if (!clock_ || !ids_) throw std::invalid_argument("TokenStore: clock and ids are required");
  for (const ConnectedAppDef& a : settings_.connected_apps)
    if (!a.certificate.empty())
      if (auto key = a.certificate_key ? a.certificate_key
                                       : crypto::certificate_public_key(a.certificate, nullptr))
        jwt_keys_.emplace(a.client_id, std::move(key));
}

const ConnectedAppDef* TokenStore::app(std::string_view client_id) const {
  return settings_.app(client_id);
}

const ConnectedAppDef* TokenStore::authenticate_client(const ClientCredentials& client) const {
  const ConnectedAppDef* found = settings_.app(client.client_id);
  // An unknown client still costs one comparison, so timing does not tell
  // which client ids exist.
  static const std::string kNoSecret;
  bool match =
      crypto::constant_time_equal(client.client_secret, found ? found->client_secret : kNoSecret);
  if (!found || !match || found->client_secret.empty()) return nullptr;
  return found;
}

namespace {

// The keys a token has in the data directory: "a:" access, "r:" refresh.
std::string access_key(const std::string& token) {
  return "a:" + token;
}
std::string refresh_key(const std::string& token) {
  return "r:" + token;
}
int64_t epoch_ms(TimePoint t) {
  return t.time_since_epoch().count();
}

}  // namespace

std::string TokenStore::issue_code(std::string_view client_id, std::string_view redirect_uri,
                                   CodeChallenge pkce) {
  std::string code = ids_->token(kTokenChars);
  TimePoint now = clock_->now();
  std::lock_guard<std::shared_mutex> lock(mu_);
  purge_locked(now);
  codes_[code] = CodeEntry{std::string(client_id), user_id_, std::string(redirect_uri),
                           now + kCodeLifetime, std::move(pkce)};
  code_expiry_.emplace(now + kCodeLifetime, code);
  // Codes are minted before any client authenticates (the approval page), so
  // a loop could fill memory within their ten minutes: past the cap the code
  // expiring first (the oldest, the lifetime being fixed) goes.
  while (codes_.size() > kMaxLiveCodes) {
    codes_.erase(code_expiry_.begin()->second);
    code_expiry_.erase(code_expiry_.begin());
  }
  return code;
}

GrantResult TokenStore::exchange_code(const ClientCredentials& client, std::string_view code,
                                      std::string_view redirect_uri,
                                      std::string_view code_verifier) {
  if (!authenticate_client(client)) return fail(invalid_client());
  TimePoint now = clock_->now();
  std::lock_guard<std::shared_mutex> lock(mu_);
  auto it = codes_.find(std::string(code));
  // Another client's code is treated as unknown and left for its owner.
  if (it == codes_.end() || it->second.client_id != client.client_id) {
    return fail("invalid_grant", oauth_error::kInvalidCodeDescription);
  }
  CodeEntry entry = std::move(it->second);
  code_expiry_.erase({entry.expires_at, it->first});
  codes_.erase(it);
  if (entry.expires_at <= now) return fail("invalid_grant", oauth_error::kInvalidCodeDescription);
  if (entry.redirect_uri != redirect_uri) {
    return fail("invalid_grant", oauth_error::kRedirectMismatchDescription);
  }
  if (!verifier_matches(entry.pkce, code_verifier)) {
    return fail("invalid_grant", oauth_error::kInvalidCodeVerifierDescription);
  }
  std::string refresh_token = ids_->token(kTokenChars);
  RefreshEntry r{client.client_id, entry.user_id, now, std::nullopt, {}};
  if (settings_.refresh_token_lifetime.count() > 0) {
    r.expires_at = now + settings_.refresh_token_lifetime;
    refresh_expiry_.emplace(*r.expires_at, refresh_token);
  }
  if (sink_) {
    nlohmann::json saved = {{"client_id", r.client_id},
                            {"user_id", r.user_id},
                            {"issued_at_ms", epoch_ms(r.issued_at)}};
    if (r.expires_at) saved["expires_at_ms"] = epoch_ms(*r.expires_at);
    sink_->put(state_kind::kToken, refresh_key(refresh_token), saved);
  }
  refresh_.emplace(refresh_token, std::move(r));
  return success(issue_access_locked(client.client_id, entry.user_id, refresh_token, now));
}

GrantResult TokenStore::refresh(const ClientCredentials& client, std::string_view refresh_token) {
  if (!authenticate_client(client)) return fail(invalid_client());
  TimePoint now = clock_->now();
  std::lock_guard<std::shared_mutex> lock(mu_);
  auto it = refresh_.find(std::string(refresh_token));
  if (it == refresh_.end() || it->second.client_id != client.client_id ||
      (it->second.expires_at && *it->second.expires_at <= now)) {
    return fail("invalid_grant", oauth_error::kExpiredTokenDescription);
  }
  IssuedToken token = issue_access_locked(client.client_id, it->second.user_id, it->first, now);
  // The platform keeps the refresh token and does not send it again.
  token.refresh_token.clear();
  return success(std::move(token));
}

GrantResult TokenStore::client_credentials(const ClientCredentials& client) {
  const ConnectedAppDef* app = authenticate_client(client);
  if (!app) return fail(invalid_client());
  // The platform's wording when the app has no run-as user for this flow.
  if (!app->client_credentials) {
    return fail("invalid_grant", oauth_error::kNoClientCredentialsUserDescription);
  }
  return issue_access_only(client.client_id, user_id_);
}

GrantResult TokenStore::jwt_bearer(std::string_view assertion, std::string_view origin) {
  auto jwt = decode_jwt_assertion(assertion);
  if (!jwt) return fail("invalid_grant", jwt_error::kInvalidAssertion);
  auto key = jwt_keys_.find(jwt->claims.iss);
  if (key == jwt_keys_.end()) {
    // An app without a certificate takes no assertion: to the platform its
    // client id names no app that could have signed one.
    return fail("invalid_client", jwt_error::kClientInvalid);
  }
  if (!crypto::verify_rs256(*key->second, jwt->signing_input, jwt->signature))
    return fail("invalid_grant", jwt_error::kInvalidAssertion);
  if (!audience_accepted(jwt->claims.aud, sandbox_org_, origin))
    return fail("invalid_grant", jwt_error::kAudienceInvalid);
  if (!assertion_live(jwt->claims, clock_->now(), wall_->now()))
    return fail("invalid_grant", jwt_error::kExpired);
  if (!assertion_started(jwt->claims, clock_->now(), wall_->now()))
    return fail("invalid_grant", jwt_error::kNotYetValid);
  // The platform does not say whether the username exists.
  const UserDef* user = settings_.user(jwt->claims.sub);
  if (!user) return fail("invalid_grant", jwt_error::kUserNotApproved);
  return issue_access_only(jwt->claims.iss, user->id);
}

GrantResult TokenStore::password(const ClientCredentials& client, std::string_view username,
                                 std::string_view password) {
  if (!authenticate_client(client)) return fail(invalid_client());
  // A blocked flow and a wrong password read alike, as on the platform.
  const UserDef* user = settings_.user(username);
  const std::string expected = user ? user->password + user->security_token : std::string();
  const bool match = crypto::constant_time_equal(password, expected);
  if (!settings_.password_flow || !user || user->password.empty() || !match)
    return fail("invalid_grant", oauth_error::kAuthenticationFailure);
  return issue_access_only(client.client_id, user->id);
}

GrantResult TokenStore::issue_access_only(const std::string& client_id,
                                          const std::string& user_id) {
  TimePoint now = clock_->now();
  std::lock_guard<std::shared_mutex> lock(mu_);
  return success(issue_access_locked(client_id, user_id, std::string(), now));
}

IssuedToken TokenStore::issue_access_locked(const std::string& client_id,
                                            const std::string& user_id,
                                            const std::string& refresh_token, TimePoint now) {
  purge_locked(now);
  std::string access_token = token_prefix_ + ids_->token(kTokenChars);
  TokenInfo info{client_id, user_id, now, now + settings_.token_lifetime, kScope};
  access_.emplace(access_token, AccessEntry{info, refresh_token});
  access_expiry_.emplace(info.expires_at, access_token);
  if (!refresh_token.empty()) refresh_[refresh_token].access_tokens.insert(access_token);
  if (sink_)
    sink_->put(state_kind::kToken, access_key(access_token),
               {{"client_id", client_id},
                {"user_id", user_id},
                {"issued_at_ms", epoch_ms(info.issued_at)},
                {"expires_at_ms", epoch_ms(info.expires_at)},
                {"refresh_token", refresh_token}});
  return IssuedToken{access_token,   refresh_token,   client_id, user_id,
                     info.issued_at, info.expires_at, kScope};
}

void TokenStore::purge_locked(TimePoint now) {
  while (!code_expiry_.empty() && code_expiry_.begin()->first <= now) {
    codes_.erase(code_expiry_.begin()->second);
    code_expiry_.erase(code_expiry_.begin());
  }
  while (!access_expiry_.empty() && access_expiry_.begin()->first + kSweepGrace <= now) {
    // A copy: the index entry owns the string, and it goes first so that the
    // loop always advances.
    const std::string token = access_expiry_.begin()->second;
    access_expiry_.erase(access_expiry_.begin());
    erase_access_locked(token);
  }
  while (!refresh_expiry_.empty() && refresh_expiry_.begin()->first + kSweepGrace <= now) {
    auto it = refresh_.find(refresh_expiry_.begin()->second);
    refresh_expiry_.erase(refresh_expiry_.begin());
    // Its access tokens stay until their own expiry: ending a refresh token by
    // age does not revoke what it issued.
    if (it == refresh_.end()) continue;
    for (const std::string& t : it->second.access_tokens) {
      auto a = access_.find(t);
      if (a != access_.end()) a->second.refresh_token.clear();
    }
    if (sink_) sink_->erase(state_kind::kToken, refresh_key(it->first));
    refresh_.erase(it);
  }
}

// Erases an access token, its expiry index entry and its refresh token's link.
void TokenStore::erase_access_locked(const std::string& token) {
  auto it = access_.find(token);
  if (it == access_.end()) return;
  access_expiry_.erase({it->second.info.expires_at, token});
  if (!it->second.refresh_token.empty()) {
    auto r = refresh_.find(it->second.refresh_token);
    if (r != refresh_.end()) r->second.access_tokens.erase(token);
  }
  if (sink_) sink_->erase(state_kind::kToken, access_key(token));
  access_.erase(it);
}

std::optional<TokenInfo> TokenStore::authenticate(std::string_view bearer) const {
  TimePoint now = clock_->now();
  const std::string key(bearer);
  std::shared_lock<std::shared_mutex> lock(mu_);
  auto it = access_.find(key);
  if (it == access_.end() || it->second.info.expires_at <= now) return std::nullopt;
  return it->second.info;
}

bool TokenStore::revoke(std::string_view token) {
  std::lock_guard<std::shared_mutex> lock(mu_);
  std::string key(token);
  if (access_.count(key) > 0) {
    erase_access_locked(key);
    return true;
  }
  auto it = refresh_.find(key);
  if (it == refresh_.end()) return false;
  // A copy: erasing an access token unlinks it from this set.
  const auto issued = it->second.access_tokens;
  for (const std::string& access_token : issued) erase_access_locked(access_token);
  if (it->second.expires_at) refresh_expiry_.erase({*it->second.expires_at, key});
  if (sink_) sink_->erase(state_kind::kToken, refresh_key(key));
  refresh_.erase(it);
  return true;
}

bool TokenStore::restore(const std::string& key, const nlohmann::json& saved) {
  if (key.size() < 3 || key[1] != ':' || !saved.is_object()) return false;
  const std::string token = key.substr(2);
  try {
    const std::string client_id = saved.at("client_id").get<std::string>();
    const std::string user_id = saved.at("user_id").get<std::string>();
    const TimePoint issued_at(Millis(saved.at("issued_at_ms").get<int64_t>()));
    std::lock_guard<std::shared_mutex> lock(mu_);
    if (key[0] == 'r') {
      auto& r = refresh_[token];
      r.client_id = client_id;
      r.user_id = user_id;
      r.issued_at = issued_at;
      if (saved.contains("expires_at_ms")) {
        r.expires_at = TimePoint(Millis(saved["expires_at_ms"].get<int64_t>()));
        refresh_expiry_.emplace(*r.expires_at, token);
      }
      return true;
    }
    if (key[0] != 'a') return false;
    const TimePoint expires_at(Millis(saved.at("expires_at_ms").get<int64_t>()));
    const std::string refresh_token = saved.value("refresh_token", "");
    TokenInfo info{client_id, user_id, issued_at, expires_at, kScope};
    access_[token] = AccessEntry{info, refresh_token};
    access_expiry_.emplace(expires_at, token);
    // In whatever order the entries come, the link holds: this makes the
    // refresh entry it names if that one is not back yet.
    if (!refresh_token.empty()) refresh_[refresh_token].access_tokens.insert(token);
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

void TokenStore::reset() {
  std::lock_guard<std::shared_mutex> lock(mu_);
  codes_.clear();
  access_.clear();
  refresh_.clear();
  code_expiry_.clear();
  access_expiry_.clear();
  refresh_expiry_.clear();
  if (sink_) sink_->clear(state_kind::kToken);
}

size_t TokenStore::stored() const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  return codes_.size() + access_.size() + refresh_.size();
}

std::string TokenStore::sign(std::string_view client_id, std::string_view data) const {
  const ConnectedAppDef* found = settings_.app(client_id);
  if (!found) return std::string();
  return crypto::base64_encode(crypto::hmac_sha256(found->client_secret, data));
}

}  // namespace fake_org
