// scenario-runner: replays YAML scenarios against the embedded fake org, a
// running fake-org, or a real sandbox, and reports in the console, JUnit XML
// and JSON. `scenario-runner --help` lists the options.
#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/usage_error.h"
#include "commands/cli/init_command.h"
#include "commands/cli/run_command.h"
#include "commands/explore/explore_command.h"
#include "commands/har/import_har_command.h"
#include "commands/pact/import_pact_command.h"
#include "commands/parity/parity_command.h"
#include "commands/record/record_command.h"

int main(int argc, char** argv) {
  CLI::App app{"Replays scenario files against the Payment Intent Service API (fake or sandbox)",
               "scenario-runner"};
  runner::RunOptions options;
  runner::add_run_options(app, options);
  // Subcommands (record, import-har, parity, explore, import-pact, init) register here; with none
  // given, the app itself runs the scenarios.
  runner::record::RecordOptions record;
  CLI::App* record_cmd = runner::record::add_record_command(app, record);
  runner::har::ImportHarOptions har;
  CLI::App* har_cmd = runner::har::add_import_har_command(app, har);
  runner::parity::ParityCommandOptions parity;
  CLI::App* parity_cmd = runner::parity::add_parity_command(app, parity);
  runner::explore::ExploreCommandOptions explore;
  CLI::App* explore_cmd = runner::explore::add_explore_command(app, explore);
  runner::pact::ImportPactOptions pact;
  CLI::App* pact_cmd = runner::pact::add_import_pact_command(app, pact);
  runner::InitOptions init;
  init.program = argv[0];  // `next:` names the binary as it was invoked
  CLI::App* init_cmd = runner::add_init_command(app, init);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {  // --help, --version: printed, exit 0
    return common_cli::usage_error(app, e, std::cout, std::cerr);
  }
  if (record_cmd->parsed()) return runner::record::record_command(record, std::cout, std::cerr);
  if (har_cmd->parsed()) return runner::har::import_har_command(har, std::cout, std::cerr);
  // After record, which takes SIGINT with sigwait in a thread of its own.
  runner::handle_interrupts();
  if (parity_cmd->parsed()) return runner::parity::parity_command(parity, std::cout, std::cerr);
  if (explore_cmd->parsed()) return runner::explore::explore_command(explore, std::cout, std::cerr);
  if (pact_cmd->parsed()) return runner::pact::import_pact_command(pact, std::cout, std::cerr);
  if (init_cmd->parsed()) return runner::init_command(init, std::cout, std::cerr);
  options.console =
      runner::console_style(STDOUT_FILENO, options.no_progress, std::getenv("NO_COLOR"));
  return runner::run_command(options, std::cout, std::cerr);
}
