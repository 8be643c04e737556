#include "scenario/yaml_json.h"

#include <regex>

namespace runner {
namespace {

nlohmann::json plain_scalar(const std::string& s) {
  static const std::regex kNull("^(null|Null|NULL|~|)$");
  static const std::regex kTrue("^(true|True|TRUE)$");
  static const std::regex kFalse("^(false|False|FALSE)$");
  static const std::regex kInt("^[-+]?(0|[1-9][0-9]*)$");
  static const std::regex kFloat(R"(^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$)");
  static const std::regex kLeadingZero("^[-+]?0[0-9]");
  if (std::regex_match(s, kNull)) return nullptr;
  if (std::regex_match(s, kTrue)) return true;
  if (std::regex_match(s, kFalse)) return false;
  if (std::regex_match(s, kInt)) {
    try {
      if (s[0] == '-') return std::stoll(s);
      return std::stoull(s[0] == '+' ? s.substr(1) : s);
    } catch (const std::out_of_range&) {
      return std::stod(s);
    }
  }
  if (std::regex_match(s, kFloat) && !std::regex_search(s, kLeadingZero)) return std::stod(s);
  return s;
}

}  // namespace

std::string pointer_escape(const std::string& token) {
  std::string out;
  for (char c : token) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

nlohmann::json yaml_to_json(const YAML::Node& node, PositionMap* positions,
                            std::vector<YamlJsonIssue>* issues, const std::string& pointer) {
  if (positions) (*positions)[pointer] = position_of(node);
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      return nullptr;
    case YAML::NodeType::Scalar:
      // yaml-cpp tags plain scalars "?" and quoted ones "!".
      if (node.Tag() == "?") return plain_scalar(node.Scalar());
      return node.Scalar();
    case YAML::NodeType::Sequence: {
      nlohmann::json arr = nlohmann::json::array();
      size_t i = 0;
      for (const auto& item : node)
        arr.push_back(yaml_to_json(item, positions, issues, pointer + "/" + std::to_string(i++)));
      return arr;
    }
    case YAML::NodeType::Map: {
      nlohmann::json obj = nlohmann::json::object();
      for (const auto& kv : node) {
        if (!kv.first.IsScalar()) {
          if (issues) issues->push_back({position_of(kv.first), "object keys must be plain text"});
          continue;
        }
        const std::string key = kv.first.Scalar();
        if (obj.contains(key) && issues)
          issues->push_back({position_of(kv.first), "duplicate key '" + key + "'"});
        obj[key] = yaml_to_json(kv.second, positions, issues, pointer + "/" + pointer_escape(key));
      }
      return obj;
    }
  }
  return nullptr;
}

}  // namespace runner
