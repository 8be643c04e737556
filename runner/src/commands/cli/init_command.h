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
};

CLI::App* add_init_command(CLI::App& app, InitOptions& options);

// 0: both files written; 2: one exists already (nothing is overwritten or
// written) or cannot be written.
int init_command(const InitOptions& options, std::ostream& out, std::ostream& err);

// The files' text, for the tests that run them.
extern const char* const kInitScenarioYaml;
extern const char* const kInitSandboxYaml;

}  // namespace runner
