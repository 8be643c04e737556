#include "commands/parity/parity_command.h"

#include <filesystem>
#include <fstream>

#include <CLI/CLI.hpp>

#include "commands/parity/allow_list.h"
#include "commands/parity/parity_report.h"
#include "net/interrupt.h"
#include "util/json_text.h"

namespace runner::parity {

CLI::App* add_parity_command(CLI::App& app, ParityCommandOptions& o) {
  CLI::App* sub = app.add_subcommand(
      "parity", "Run the same scenarios against two targets and report where their answers differ");
  sub->add_option("paths", o.paths, "Scenario files or folders (default: scenarios/)");
  sub->add_option("--target,-t", o.targets,
                  "Twice: embedded, embedded:FIXTURE (every scenario on that fixture), a fake-org "
                  "URL, or a sandbox .yaml")
      ->required()
      ->allow_extra_args(false);  // one value per --target; paths stay positional
  sub->add_option("--allow", o.allow,
                  "Known differences to accept (YAML; see docs/record-replay.md)")
      ->check(CLI::ExistingFile);
  sub->add_option("--report-json", o.report_json, "Write the differences as JSON to FILE");
  sub->add_option("--ca-file", o.ca_file, "Trust this CA (PEM) for HTTPS targets")
      ->check(CLI::ExistingFile);
  sub->add_option("-j,--jobs", o.jobs, "Scenarios run at once per target")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  return sub;
}

int parity_command(const ParityCommandOptions& o, std::ostream& out, std::ostream& err) {
  if (o.targets.size() != 2) {
    err << "parity needs exactly two --target options\n";
    return 2;
  }
  AllowList allow;
  if (!o.allow.empty()) {
    try {
      allow = AllowList::load_file(o.allow);
    } catch (const AllowListError& e) {
      err << e.what() << "\n";
      return 2;
    }
  }
  ParityOptions po;
  po.a = o.targets[0];
  po.b = o.targets[1];
  po.paths = o.paths;
  if (po.paths.empty()) {
    if (!std::filesystem::is_directory("scenarios")) {
      err << "no scenarios/ folder here; pass scenario files or folders\n";
      return 2;
    }
    po.paths = {"scenarios"};
  }
  po.ca_file = o.ca_file;
  po.jobs = o.jobs;
  std::vector<std::string> errors;
  ParityResult r = run_parity(po, errors);
  if (!errors.empty()) {
    for (const auto& e : errors) err << e << "\n";
    err << errors.size() << " error(s); nothing was compared\n";
    return 2;
  }
  allow.apply(r.differences);
  print_table(r, out);
  const std::string interrupted = interrupt::received_name();
  if (!o.report_json.empty()) {
    std::ofstream f(o.report_json, std::ios::binary);
    nlohmann::json j = json_report(r);
    j["interrupted"] = interrupted.empty() ? nlohmann::json() : nlohmann::json(interrupted);
    f << fake_org::text::json_text(j, 2) << "\n";
    if (!f) {
      err << "cannot write " << o.report_json << "\n";
      return 2;
    }
  }
  if (!interrupted.empty()) {
    err << "interrupted by " << interrupted
        << ": the comparison covers only the scenarios both sides finished\n";
    return 128 + interrupt::received();
  }
  if (r.unallowed() > 0) return 1;
  // Agreement over nothing is not agreement: as `run` does when every
  // scenario was skipped, a script must not read it as a pass.
  if (r.compared == 0) {
    err << "WARNING: parity compared no scenario (every one was skipped on one side); exit 3\n";
    return 3;
  }
  return 0;
}

}  // namespace runner::parity
