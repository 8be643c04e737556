#pragma once
// Writing a JSON document as YAML that reads back as the same JSON through
// the scenario loader: strings that YAML would read as numbers, booleans or
// null are quoted; matchers and short scalar lists are written inline.
#include <string>

#include <nlohmann/json.hpp>

namespace runner::record {

std::string to_yaml(const nlohmann::ordered_json& doc);

}  // namespace runner::record
