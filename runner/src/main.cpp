// scenario-runner: replays YAML scenarios against the embedded fake org, a
// running fake-org, or a real sandbox, and reports in the console, JUnit XML
// and JSON. `scenario-runner --help` lists the options.
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/run_command.h"

int main(int argc, char** argv) {
  CLI::App app{"Replays scenario files against the Payment Intent Service API (fake or sandbox)",
               "scenario-runner"};
  runner::RunOptions options;
  runner::add_run_options(app, options);
  // Subcommands (record, import-har, parity) register here; with none given,
  // the app itself runs the scenarios.
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  return runner::run_command(options, std::cout, std::cerr);
}
