#include "auth/jwt_bearer.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace fake_org {

namespace {

std::optional<nlohmann::json> decode_part(std::string_view part) {
  auto bytes = crypto::base64url_decode(part);
  if (!bytes) return std::nullopt;
  auto value = nlohmann::json::parse(*bytes, nullptr, false);
  if (value.is_discarded() || !value.is_object()) return std::nullopt;
  return value;
}

bool read_claims(const nlohmann::json& payload, JwtClaims& out) {
  auto text = [&](const char* key, std::string& to) {
    auto it = payload.find(key);
    if (it == payload.end() || !it->is_string()) return false;
    to = it->get<std::string>();
    return !to.empty();
  };
  if (!text("iss", out.iss) || !text("sub", out.sub)) return false;
  auto aud = payload.find("aud");
  if (aud != payload.end() && aud->is_string()) out.aud.push_back(aud->get<std::string>());
  if (aud != payload.end() && aud->is_array())
    for (const auto& a : *aud)
      if (a.is_string()) out.aud.push_back(a.get<std::string>());
  auto number = [&](const char* key, std::optional<double>& to) {
    auto it = payload.find(key);
    if (it != payload.end() && it->is_number()) to = it->get<double>();
  };
  number("exp", out.exp);
  number("nbf", out.nbf);
  number("iat", out.iat);
  return true;
}

std::string without_slash(std::string_view s) {
  while (!s.empty() && s.back() == '/') s.remove_suffix(1);
  return std::string(s);
}

}  // namespace

std::optional<JwtAssertion> decode_jwt_assertion(std::string_view assertion) {
  const size_t first = assertion.find('.');
  if (first == std::string_view::npos) return std::nullopt;
  const size_t second = assertion.find('.', first + 1);
  if (second == std::string_view::npos || assertion.find('.', second + 1) != std::string_view::npos)
    return std::nullopt;
  auto header = decode_part(assertion.substr(0, first));
  auto payload = decode_part(assertion.substr(first + 1, second - first - 1));
  auto signature = crypto::base64url_decode(assertion.substr(second + 1));
  if (!header || !payload || !signature || signature->empty()) return std::nullopt;
  auto alg = header->find("alg");
  if (alg == header->end() || *alg != "RS256") return std::nullopt;
  JwtAssertion out;
  if (!read_claims(*payload, out.claims)) return std::nullopt;
  out.signing_input = std::string(assertion.substr(0, second));
  out.signature = std::move(*signature);
  return out;
}

bool audience_accepted(const std::vector<std::string>& aud, bool sandbox_org,
                       std::string_view origin) {
  const std::string platform =
      sandbox_org ? "https://test.salesforce.com" : "https://login.salesforce.com";
  const std::string instance = without_slash(origin);
  const std::string login = instance + (sandbox_org ? "/test" : "/login");
  for (const std::string& a : aud) {
    const std::string value = without_slash(a);
    if (value == platform) return true;
    if (!instance.empty() && (value == login || value == instance)) return true;
  }
  return false;
}

bool assertion_live(const JwtClaims& claims, TimePoint org_now, TimePoint wall_now) {
  if (!claims.exp) return false;
  const TimePoint earlier = std::min(org_now, wall_now);
  const double now_seconds = std::chrono::duration<double>(earlier.time_since_epoch()).count();
  return *claims.exp > now_seconds;
}

bool assertion_started(const JwtClaims& claims, TimePoint org_now, TimePoint wall_now) {
  const TimePoint later = std::max(org_now, wall_now) + kJwtClockSkew;
  const double limit = std::chrono::duration<double>(later.time_since_epoch()).count();
  return (!claims.nbf || *claims.nbf <= limit) && (!claims.iat || *claims.iat <= limit);
}

}  // namespace fake_org
