#pragma once
// YAML to JSON for the free-form parts of a scenario (request bodies, expected
// values, vars), keeping where each value was written so validation can name
// file:line:col for a mistake found deep inside a body.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

namespace runner {

// JSON pointer -> 1-based (line, column) of the value in the YAML text.
using PositionMap = std::map<std::string, std::pair<int, int>>;

struct YamlJsonIssue {
  std::pair<int, int> at;
  std::string message;
};

// Plain scalars become null, booleans and numbers as YAML 1.2's core schema
// reads them, except that digits with a leading zero ("010") stay strings: no
// JSON number looks like that, and error codes do. Quoted scalars are strings.
nlohmann::json yaml_to_json(const YAML::Node& node, PositionMap* positions = nullptr,
                            std::vector<YamlJsonIssue>* issues = nullptr,
                            const std::string& pointer = "");

// "~1"/"~0" escaping of one reference token.
std::string pointer_escape(const std::string& token);

inline std::pair<int, int> position_of(const YAML::Node& n) {
  return {n.Mark().line + 1, n.Mark().column + 1};
}

}  // namespace runner
