#pragma once
// `scenario-runner import-pact PACT.json [--states STATES.yaml] [--out DIR]`:
// a consumer's Pact file as scenarios, one per HTTP interaction, written to
// DIR or run at once against the targets given: provider verification on
// the embedded fake, a running fake-org or a sandbox.
#include <ostream>
#include <string>
#include <vector>

#include "commands/cli/run_command.h"

namespace CLI {
class App;
}

namespace runner::pact {

struct ImportPactOptions {
  std::string file;
  std::string states;
  std::string out;  // write the scenarios here and stop; empty: run them now
  RunOptions run;   // targets, -j, reports, verbose, profile, ca-file
};

CLI::App* add_import_pact_command(CLI::App& app, ImportPactOptions& options);
// 2: unreadable pact or states file, a provider state the states file lacks,
// a rule it cannot translate, or the scenarios not written. With --out, 0
// once written; else run_command's exit status (the written scenarios are
// removed when it is 0, kept and named otherwise).
int import_pact_command(ImportPactOptions options, std::ostream& out, std::ostream& err);

}  // namespace runner::pact
