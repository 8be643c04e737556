#include "app/org_lease.h"

#include "util/calendar.h"

namespace fake_org::app {
namespace {

std::string iso_time(std::chrono::system_clock::time_point t) {
  return format_iso8601(std::chrono::time_point_cast<std::chrono::milliseconds>(t));
}

}  // namespace

std::optional<std::string> lease_from_request(const nlohmann::json& request,
                                              const std::string& fallback_creator, OrgLease& out) {
  out.created_at = std::chrono::system_clock::now();
  out.created_by = fallback_creator;
  if (request.contains("created_by")) {
    const auto& by = request["created_by"];
    if (!by.is_string() || by.get<std::string>().empty() ||
        by.get<std::string>().size() > kMaxCreatedBy)
      return "'created_by' must be text of 1 to " + std::to_string(kMaxCreatedBy) +
             " characters (who made the org: a pipeline, a host, a person)";
    out.created_by = by.get<std::string>();
  }
  if (!request.contains("ttl") || request["ttl"].is_null()) return std::nullopt;
  const auto& ttl = request["ttl"];
  std::optional<Millis> parsed;
  if (ttl.is_number_unsigned() || ttl.is_number_integer())
    parsed = std::chrono::seconds(ttl.get<long long>());
  else if (ttl.is_string())
    parsed = parse_duration(ttl.get<std::string>());
  if (!parsed || parsed->count() <= 0 || *parsed > kMaxOrgTtl)
    return "'ttl' must be a duration such as \"30m\", \"2h\" or a number of seconds, more than "
           "0 and at most 24h (the org is deleted that long after it is made)";
  out.ttl = *parsed;
  out.expires = std::chrono::steady_clock::now() + *parsed;
  return std::nullopt;
}

nlohmann::json lease_json(const OrgLease& lease) {
  nlohmann::json j = {{"created_by", lease.created_by},
                      {"created_at", iso_time(lease.created_at)},
                      {"ttl_seconds", nullptr},
                      {"expires_at", nullptr}};
  if (lease.ttl) {
    j["ttl_seconds"] = std::chrono::duration<double>(*lease.ttl).count();
    j["expires_at"] = iso_time(lease.created_at + *lease.ttl);
  }
  return j;
}

}  // namespace fake_org::app
