#pragma once
// Reading and validating scenario files. Everything that can be checked before
// a request is sent is checked here - unknown keys, wrong types, bad matchers,
// bad capture paths, references to variables nobody defines - and every
// mistake is reported with file:line:col, not just the first one.
#include <optional>
#include <string>
#include <vector>

#include "scenario/model.h"

namespace runner {

struct LoadError {
  SourcePos pos;
  std::string message;
  std::string str() const { return pos.str() + ": " + message; }
};

struct LoadResult {
  std::optional<Scenario> scenario;
  std::vector<LoadError> errors;
  // The file is a sandbox configuration (a mapping with instance_url and no
  // steps, as `scenario-runner init` writes beside its scenario): a target,
  // not a scenario. Neither a scenario nor errors then; the plan decides.
  bool target_config = false;
  bool ok() const { return scenario.has_value() && errors.empty(); }
};

LoadResult load_scenario_file(const std::string& path);
// `file` names the text in messages; fixture paths resolve against `base_dir`.
LoadResult load_scenario_text(const std::string& text, const std::string& file,
                              const std::string& base_dir = ".");

}  // namespace runner
