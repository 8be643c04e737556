#pragma once
// Shared helpers of the scenario loader: error collection with positions,
// key checks with suggestions, typed reads of YAML nodes. Internal to loading.
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "json/yaml_json.h"
#include "scenario/loader.h"

namespace runner {

class LoadContext {
 public:
  LoadContext(std::string file, std::string base_dir)
      : file_(std::move(file)), base_dir_(std::move(base_dir)) {}

  const std::string& file() const { return file_; }
  const std::string& base_dir() const { return base_dir_; }
  std::vector<LoadError>& errors() { return errors_; }

  SourcePos pos(const YAML::Node& n) const;
  SourcePos pos(std::pair<int, int> at) const { return {file_, at.first, at.second}; }
  void error(const YAML::Node& n, const std::string& message);
  void error(std::pair<int, int> at, const std::string& message);

  // Reports keys outside `allowed` (with a suggestion) and duplicate keys.
  void check_keys(const YAML::Node& map, const std::set<std::string>& allowed,
                  const std::string& where);
  void check_duplicates(const YAML::Node& map, const std::string& where);
  bool expect_map(const YAML::Node& n, const std::string& what);

  std::optional<std::string> string(const YAML::Node& n, const std::string& what);
  std::optional<bool> boolean(const YAML::Node& n, const std::string& what);
  std::optional<long> integer(const YAML::Node& n, const std::string& what);
  // "500ms", "5s", "2m", "1h", or a number of seconds.
  std::optional<Millis> duration(const YAML::Node& n, const std::string& what);
  // A map of scalar names to scalar values (headers, query, form).
  StringPairs string_map(const YAML::Node& n, const std::string& what);

  // Free-form value to JSON, with position reporting for issues inside it.
  Json json(const YAML::Node& n, PositionMap* positions = nullptr);
  std::pair<int, int> at(const PositionMap& positions, const std::string& pointer,
                         const YAML::Node& fallback) const;

  // `${...}` references must name a variable already defined, or a built-in.
  void check_refs(const Json& value, const PositionMap& positions, const YAML::Node& node,
                  const std::set<std::string>& defined);
  void check_refs_text(const std::string& text, const YAML::Node& node,
                       const std::set<std::string>& defined);

 private:
  std::string file_;
  std::string base_dir_;
  std::vector<LoadError> errors_;
};

// Closest of `candidates` to `word` when close enough to be a likely typo.
std::optional<std::string> did_you_mean(const std::string& word,
                                        const std::set<std::string>& candidates);

}  // namespace runner
