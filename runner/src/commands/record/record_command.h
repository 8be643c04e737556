#pragma once
// `scenario-runner record`: run the recording proxy until SIGINT (or
// --max-requests), then write the generalised scenario.
#include <ostream>
#include <string>

namespace CLI {
class App;
}

namespace runner::record {

struct RecordOptions {
  std::string upstream;
  std::string upstream_config;
  std::string listen = "127.0.0.1:8088";
  std::string out;
  size_t max_requests = 0;
  bool strict = false;
  std::string cards = "env";
  std::string accounts = "env";
  std::string name;
  std::string fixture;
  std::string ca_file;
};

// The subcommand, registered on `app`; `run` is set when it is chosen.
CLI::App* add_record_command(CLI::App& app, RecordOptions& options);
int record_command(const RecordOptions& options, std::ostream& out, std::ostream& err);

}  // namespace runner::record
