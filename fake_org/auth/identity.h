#pragma once
// The identity service's answers, as the platform writes them: the identity
// URL's body (GET {instance}[/login|/test]/id/{orgId}/{userId}) and the
// OpenID Connect UserInfo body (GET /services/oauth2/userinfo). No HTTP here:
// the handlers (http/identity_routes.cpp) check the token and the ids and
// call these with the user the token acts as.
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "domain/config/org_config.h"
#include "domain/core/clock.h"

namespace fake_org {

// What the bodies need besides the user.
struct IdentitySite {
  std::string instance_url;  // scheme://host:port, as in the token response
  std::string org_id;        // 18 characters
  bool sandbox = false;      // the identity URL names the org's login host
  // Replaces "{version}" in the urls ("62.0"); empty keeps the placeholder.
  std::string version;
  TimePoint last_modified;  // last_modified_date / updated_at
};

// {instance}/login/id/{org18}/{user18} (production) or .../test/... (sandbox):
// the token response's `id`.
std::string identity_url(std::string_view instance_url, bool sandbox, std::string_view org_id,
                         std::string_view user_id);

// The standard (not daylight-saving) offset of a time zone from UTC in
// milliseconds, as the platform's utcOffset; 0 for a zone the fake's small
// table does not know (docs/decisions.md 53).
int64_t utc_offset_millis(std::string_view time_zone);

// The API version a request's `version` names ("62", "62.0"; "latest": the
// platform's newest, which an org's own newest replaces), as the urls write
// it ("62.0"); empty when it is not one.
std::string api_version(std::string_view requested);
inline constexpr const char* kLatestApiVersion = "68.0";

// The identity URL's body (the platform's field order).
nlohmann::ordered_json identity_body(const IdentitySite& site, const UserDef& user);
// The UserInfo body: the OpenID Connect claims and the platform's own fields.
nlohmann::ordered_json userinfo_body(const IdentitySite& site, const UserDef& user);

}  // namespace fake_org
