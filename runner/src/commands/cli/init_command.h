#pragma once
// `scenario-runner init [DIR]`: a newcomer's starting point, a commented first
// scenario that passes on the embedded fake and on a sandbox, and a sandbox
// configuration template whose secrets come from the environment.
#include <ostream>
#include <string>

namespace CLI {
class App;
}

namespace runner {

struct InitOptions {
  std::string dir = ".";
  // The binary as it was invoked (argv[0]), named in the next commands to run.
  std::string program = "scenario-runner";
};

CLI::App* add_init_command(CLI::App& app, InitOptions& options);

// 0: both files written; 2: one exists already (nothing is overwritten or
// written) or the folder or a file cannot be written (the system's reason).
int init_command(const InitOptions& options, std::ostream& out, std::ostream& err);

// The files' text as init writes it for `program`, for the tests that run them.
std::string init_scenario_yaml(const std::string& program);
std::string init_sandbox_yaml(const std::string& program);

// scenarios/README.md as this binary reaches it: installed
// (<prefix>/share/fake-crm-org/scenarios/README.md beside <prefix>/bin) or in
// the clone it was built in (<repo>/build*/bin); else a sentence naming it.
std::string scenario_docs_path();

}  // namespace runner
