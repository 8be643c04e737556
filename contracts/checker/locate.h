#pragma once
// Finding the subschemas that apply at one place of an instance, and
// re-checking a single keyword there: how explain() recovers the schema
// location and expected value that valijson does not report.
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace contracts::core {

using Path = std::vector<std::string>;

// The value at the first `depth` tokens of `path`, or nullptr.
const nlohmann::json* value_at(const nlohmann::json& root, const Path& path, size_t depth);

// Properties of `value` that neither "properties" nor "patternProperties" of `node` name.
std::vector<std::string> undeclared(const nlohmann::json& node, const nlohmann::json& value);

// Unicode code points of UTF-8 text, as minLength/maxLength count.
size_t code_points(const std::string& s);

// Whether `keyword` of schema `node` rejects `value`; true when it cannot tell.
// `detail` names the property for "required" and "properties".
bool keyword_fails(const nlohmann::json& node, const std::string& keyword,
                   const nlohmann::json* value, const std::string& detail);

// Finds the schema objects (pointers into a bundled schema) that apply to one
// instance location: through "$ref", the in-place applicators and the
// property/item keywords along the path.
class Locator {
 public:
  Locator(const nlohmann::json& schema, const nlohmann::json& instance)
      : schema_(schema), instance_(instance) {}

  std::vector<std::string> nodes_at(const Path& path);
  const nlohmann::json* node(const std::string& ptr) const;

 private:
  void collect(const std::string& ptr, const Path& path, size_t depth,
               std::vector<std::string>& out);
  void step(const nlohmann::json& n, const std::string& ptr, const Path& path, size_t depth,
            std::vector<std::string>& out);

  const nlohmann::json& schema_;
  const nlohmann::json& instance_;
  std::set<std::pair<std::string, size_t>> visited_;
};

}  // namespace contracts::core
