#pragma once
// `scenario-runner import-har FILE.har --base URL --out FILE.yaml`: the
// recording generaliser applied to a HAR file.
#include <ostream>
#include <string>

namespace CLI {
class App;
}

namespace runner::har {

struct ImportHarOptions {
  std::string file;
  std::string base;
  std::string out;
  bool strict = false;
  std::string cards = "env";
  std::string accounts = "env";
  std::string name;
  std::string fixture;
};

CLI::App* add_import_har_command(CLI::App& app, ImportHarOptions& options);
// 0 written; 2 unreadable HAR, nothing under --base, or not written.
int import_har_command(const ImportHarOptions& options, std::ostream& out, std::ostream& err);

}  // namespace runner::har
