#pragma once
// `scenario-runner explore [--target T] [--seed N] [--budget N|Ns] [-j N]
// [--out DIR] [--against T2]`: generated requests and sequences, checked;
// exit 0 when no check failed (and, with --against, the targets agree), 1
// otherwise, 2 on usage or target errors.
#include <ostream>
#include <string>

namespace CLI {
class App;
}

namespace runner::explore {

struct ExploreCommandOptions {
  std::string target = "embedded";
  std::string against;
  uint64_t seed = 1;
  std::string budget = "200";
  int jobs = 1;
  std::string profile;
  std::string out = "explore-findings";
  std::string report_junit;
  std::string report_json;
  std::string ca_file;
  std::string prelude;  // a scenario file whose steps run before every case
  bool list_checks = false;
};

CLI::App* add_explore_command(CLI::App& app, ExploreCommandOptions& options);
int explore_command(const ExploreCommandOptions& options, std::ostream& out, std::ostream& err);

// "200" -> 200 cases; "30s" -> 30 seconds. False when it is neither.
bool parse_budget(const std::string& text, size_t& cases, double& seconds);

}  // namespace runner::explore
