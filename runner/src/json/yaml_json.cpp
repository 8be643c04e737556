#include "json/yaml_json.h"

#include "yaml/yaml_input.h"

namespace runner {

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
      if (node.Tag() == "?") {
        if (auto v = common::plain_yaml_scalar(node.Scalar(), true)) return *v;
        if (issues)
          issues->push_back({position_of(node), "the number " + node.Scalar() +
                                                    " is out of range (no double holds it): "
                                                    "write a smaller number, or quote it"});
        return node.Scalar();
      }
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
