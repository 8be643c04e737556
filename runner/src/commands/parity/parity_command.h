#pragma once
// `scenario-runner parity --target A --target B [PATHS] [--allow FILE]
// [--report-json FILE]`: exit 0 when the targets agree (or differ only as
// allowed), 1 when they differ beyond the allow list, 2 on usage or load errors.
#include <ostream>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace runner::parity {

struct ParityCommandOptions {
  std::vector<std::string> targets;
  std::vector<std::string> paths;
  std::string allow;
  std::string report_json;
  std::string ca_file;
  int jobs = 1;
};

CLI::App* add_parity_command(CLI::App& app, ParityCommandOptions& options);
int parity_command(const ParityCommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace runner::parity
