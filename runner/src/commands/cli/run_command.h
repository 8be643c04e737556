#pragma once
// The default command of scenario-runner: select, run and report scenarios.
// Subcommands (record, import-har, parity) are added beside it in main.cpp.
#include <ostream>
#include <string>
#include <vector>

#include "report/console_report.h"

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
  bool list = false;               // print the selection and stop
  bool allow_all_skipped = false;  // every scenario skipped is exit 0, not 3
  std::string profile;             // strict | lenient; default: the target's
  std::string ca_file;
  bool no_progress = false;  // --no-progress: plain lines even on a terminal
  ConsoleStyle console;      // set by main from its stdout (console_style)
};

// The project version CMake was configured with and the git commit built
// ("0.1.0 (git 1a2b3c4)").
std::string version();

// The run options, and --version.
void add_run_options(CLI::App& app, RunOptions& options);

// SIGINT and SIGTERM stop a run cleanly from now on (net/interrupt.h): no
// new scenario starts, the running ones stop after their step, their orgs are
// deleted, and the reports of what ran are written, marked partial.
void handle_interrupts();

// 0: all passed (some may be skipped); 1: a scenario failed; 2: usage or
// load errors, or no scenario selected; 3: every selected scenario was
// skipped (0 with allow_all_skipped); 130/143 when interrupted by
// SIGINT/SIGTERM. The reports asked for are written on every exit but --list
// (a run that cannot start: one failed case saying why).
int run_command(const RunOptions& options, std::ostream& out, std::ostream& err);

}  // namespace runner
