#include "data_versions.h"

#include <cctype>

namespace fake_org::data {

namespace {

// The major number of "59.0"; 0 when it is not digits then ".0".
int major_of(std::string_view v) {
  if (v.size() < 3 || v.size() > 6 || v.substr(v.size() - 2) != ".0") return 0;
  int n = 0;
  for (char c : v.substr(0, v.size() - 2)) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return 0;
    n = n * 10 + (c - '0');
  }
  return n;
}

// The platform's release name of an API major version: 31.0 was Summer '14,
// then Winter, Spring, Summer, one version each (59.0: Winter '24).
std::string release_label(int major) {
  const int step = major - kOldestApiVersion;
  const int two_digit_year = 14 + (step + 2) / 3;
  static const char* kSeasons[] = {"Summer", "Winter", "Spring"};
  return std::string(kSeasons[step % 3]) + " '" + std::to_string(two_digit_year);
}

}  // namespace

std::optional<std::string> api_version_of(const OrgConfig& config, std::string_view segment) {
  if (segment.size() < 2 || segment.front() != 'v') return std::nullopt;
  const std::string_view v = segment.substr(1);
  const int major = major_of(v);
  if (major < kOldestApiVersion || major > major_of(config.org.api_version)) return std::nullopt;
  return std::string(v);
}

nlohmann::ordered_json versions_json(const OrgConfig& config) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  const int newest = major_of(config.org.api_version);
  for (int major = kOldestApiVersion; major <= newest; ++major) {
    const std::string v = std::to_string(major) + ".0";
    out.push_back(
        {{"label", release_label(major)}, {"url", "/services/data/v" + v}, {"version", v}});
  }
  return out;
}

nlohmann::ordered_json resources_json(std::string_view version) {
  const std::string base = "/services/data/v" + std::string(version) + "/";
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const char* name : {"sobjects", "query", "queryAll", "limits", "composite"})
    out[name] = base + name;
  return out;
}

}  // namespace fake_org::data
