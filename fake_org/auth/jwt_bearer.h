#pragma once
// The JWT bearer assertion of RFC 7523 as the platform takes it
// (grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer): a compact JWS,
// RS256, whose claims name the connected app (iss: its client id), the user
// (sub: a username), the login host (aud) and an expiry (exp, seconds since
// the epoch). Each refusal carries the platform's error
// and description.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/core/clock.h"
#include "util/rsa.h"

namespace fake_org {

struct JwtClaims {
  std::string iss;
  std::string sub;
  std::vector<std::string> aud;  // a string claim reads as one value
  std::optional<double> exp;
  std::optional<double> nbf;  // not before, seconds since the epoch
  std::optional<double> iat;  // issued at
};

// The decoded assertion and the text its signature covers.
struct JwtAssertion {
  JwtClaims claims;
  std::string signing_input;  // "header.payload", as sent
  std::string signature;      // raw bytes
};

namespace jwt_error {
inline constexpr const char* kInvalidAssertion = "invalid assertion";
inline constexpr const char* kAudienceInvalid = "audience is invalid";
inline constexpr const char* kExpired = "expired authorization code";
inline constexpr const char* kUserNotApproved = "user hasn't approved this consumer";
inline constexpr const char* kClientInvalid = "client identifier invalid";
// Ours: the platform's wording for a future nbf or iat is not known (decision 197).
inline constexpr const char* kNotYetValid = "assertion not yet valid (nbf or iat is in the future)";
}  // namespace jwt_error

// The assertion's parts when it is a well-formed RS256 compact JWS with the
// claims above (iss, sub, aud text; exp a number); nullopt otherwise, which
// the platform answers as kInvalidAssertion.
std::optional<JwtAssertion> decode_jwt_assertion(std::string_view assertion);

// The audiences the platform takes: its production and sandbox login hosts
// by name; and the fake's own URLs as the request reached them (`origin`,
// the org's instance URL), as the platform takes its My Domain URL: the
// instance itself and its login path (+ "/login", or "/test" for a
// sandbox). Each with or without a trailing slash (decision 141). An empty
// `origin` (a request that reached the server by a name it does not answer
// as, decision 200) admits the login hosts only.
bool audience_accepted(const std::vector<std::string>& aud, bool sandbox_org,
                       std::string_view origin);

// A live assertion: exp is present and after the org clock's `org_now` or
// real time's `wall_now` (decision 141). Clients sign with real time while
// the org clock may stand hours ahead; sf 2.86.1 even sends exp in
// milliseconds, which reads as far ahead and stays live.
bool assertion_live(const JwtClaims& claims, TimePoint org_now, TimePoint wall_now);

// RFC 7519's nbf, and iat, when present: neither is later than the later of
// the two clocks plus kJwtClockSkew (decision 197).
inline constexpr std::chrono::seconds kJwtClockSkew{180};
bool assertion_started(const JwtClaims& claims, TimePoint org_now, TimePoint wall_now);

}  // namespace fake_org
