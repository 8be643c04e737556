#pragma once
// Who made an org at run time, when, and for how long: POST /__admin/orgs
// takes `created_by` and `ttl`, GET /__admin/orgs shows them, so a shared
// fake-org's orgs can be traced to the pipeline that left them, and a client
// killed before it could delete its org (SIGKILL, a cancelled CI job) leaves
// it behind only until its time to live runs out.
#include <chrono>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace fake_org::app {

struct OrgLease {
  std::string created_by;                            // as the client named itself
  std::chrono::system_clock::time_point created_at;  // real time: not any org's clock
  std::optional<std::chrono::milliseconds> ttl;      // none: until deleted
  std::chrono::steady_clock::time_point expires;     // created + ttl, when there is one
};

// The longest time to live a request may ask for: a day outlasts any CI job.
inline constexpr std::chrono::hours kMaxOrgTtl{24};
// Characters of `created_by` kept: a name, a job URL, a host and a pid.
inline constexpr size_t kMaxCreatedBy = 200;

// The lease a creation request asks for (`ttl`: a duration such as "30m" or
// a number of seconds; `created_by`: text), made now; `fallback_creator`
// when the request names none. The message when a field is not acceptable.
std::optional<std::string> lease_from_request(const nlohmann::json& request,
                                              const std::string& fallback_creator, OrgLease& out);

// {created_by, created_at, ttl_seconds, expires_at}; ttl_seconds and
// expires_at are null for an org without a time to live.
nlohmann::json lease_json(const OrgLease& lease);

}  // namespace fake_org::app
