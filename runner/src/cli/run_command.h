#pragma once
// The default command of scenario-runner: select, run and report scenarios.
// Subcommands (record, import-har, parity) are added beside it in main.cpp.
#include <ostream>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace runner {

struct RunOptions {
  std::vector<std::string> paths;  // default: scenarios/
  // "embedded" when empty; several: one org configuration each, every
  // scenario runs on the first whose fixture fits it (make_routed_target).
  std::vector<std::string> targets;
  int jobs = 1;
  std::string shard;  // "K/N"
  std::vector<std::string> tags;
  std::string name;  // regex
  bool fail_fast = false;
  std::string report_junit;
  std::string report_json;
  bool junit_per_step = false;
  bool verbose = false;
  bool list = false;    // print the selection and stop
  std::string profile;  // strict | lenient; default: the target's
  std::string ca_file;
};

void add_run_options(CLI::App& app, RunOptions& options);

// 0: all passed; 1: a scenario failed; 2: usage or load errors.
int run_command(const RunOptions& options, std::ostream& out, std::ostream& err);

}  // namespace runner
