#pragma once
// Which scenarios a run covers: found from PATHS (files or folders; by default
// every *.yaml under scenarios/ except scenarios/schema), loaded and
// validated, filtered by tag and name, then split by --shard. Sharding deals
// out the scenarios sorted by file path, so N jobs with K = 1..N cover each
// scenario exactly once.
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "scenario/loader.h"

namespace runner {

struct Shard {
  int index = 1;  // K, 1-based
  int count = 1;  // N
};
// "K/N" with 1 <= K <= N; nullopt otherwise.
std::optional<Shard> parse_shard(const std::string& text);

struct Plan {
  std::vector<Scenario> scenarios;  // sorted by file path
  std::vector<LoadError> errors;    // unreadable paths and invalid files
};

// Files for `paths` (sorted, duplicates dropped). A missing path is an error.
std::vector<std::string> find_scenario_files(const std::vector<std::string>& paths,
                                             std::vector<LoadError>& errors);
// A sandbox configuration met in a folder is left out (it is a target); one
// named as a file is an error saying to pass it with --target.
Plan load_plan(const std::vector<std::string>& paths);

struct Selection {
  std::vector<std::string> tags;   // any of them
  std::optional<std::regex> name;  // searched in the scenario name
  std::optional<Shard> shard;
};
std::vector<Scenario> select(std::vector<Scenario> scenarios, const Selection& selection);

}  // namespace runner
