#pragma once
// The REST data API's versions: 31.0 up to the org's api_version, each
// served alike (the version only echoes in the URLs an answer holds).
// Stateless; safe from any thread.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "org_config.h"

namespace fake_org::data {

inline constexpr int kOldestApiVersion = 31;

// "v59.0" -> "59.0" when 31.0 <= version <= the org's; nullopt for any
// other segment (the platform's 404).
std::optional<std::string> api_version_of(const OrgConfig& config, std::string_view segment);

// GET /services/data: [{label, url, version}], oldest first.
nlohmann::ordered_json versions_json(const OrgConfig& config);

// GET /services/data/vNN.0: the resources this org serves, name -> URL.
nlohmann::ordered_json resources_json(std::string_view version);

}  // namespace fake_org::data
