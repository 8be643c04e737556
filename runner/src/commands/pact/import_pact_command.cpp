#include "commands/pact/import_pact_command.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <CLI/CLI.hpp>

#include "commands/pact/pact_scenario.h"
#include "commands/record/yaml_emit.h"

namespace runner::pact {

namespace fs = std::filesystem;

CLI::App* add_import_pact_command(CLI::App& app, ImportPactOptions& o) {
  CLI::App* sub = app.add_subcommand(
      "import-pact",
      "Verify a consumer's Pact file (specification v2, v3, v4): its HTTP interactions as "
      "scenarios, run against the targets or written with --out");
  sub->add_option("file", o.file, "The pact (.json)")->required()->check(CLI::ExistingFile);
  sub->add_option("--states", o.states,
                  "The provider-states file (YAML: state name -> fixture, clock, params, "
                  "records, steps); needed when the pact names provider states")
      ->check(CLI::ExistingFile);
  sub->add_option("--out,-o", o.out,
                  "Write one scenario per interaction into this folder and stop (run them with "
                  "scenario-runner DIR)");
  sub->add_option("--target,-t", o.run.targets,
                  "embedded (default), a fake-org URL or a sandbox .yaml, as for a run")
      ->allow_extra_args(false);
  sub->add_option("-j,--jobs", o.run.jobs, "Scenarios run at once")->check(CLI::Range(1, 256));
  sub->add_option("--report-junit", o.run.report_junit, "Write a JUnit XML report to FILE");
  sub->add_option("--report-json", o.run.report_json, "Write a JSON report to FILE");
  sub->add_flag("-v,--verbose", o.run.verbose, "Print every step with its request and response");
  sub->add_flag("--no-progress", o.run.no_progress, "A plain line per scenario");
  sub->add_option("--profile", o.run.profile, "Contract profile: strict or lenient")
      ->check(CLI::IsMember({"strict", "lenient"}));
  sub->add_option("--ca-file", o.run.ca_file, "Trust this CA (PEM) for HTTPS targets")
      ->check(CLI::ExistingFile);
  return sub;
}

namespace {

bool read_text(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream s;
  s << in.rdbuf();
  text = s.str();
  return true;
}

int write_all(const std::vector<PactScenario>& scenarios, const fs::path& dir, std::ostream& err) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    err << "cannot create " << dir.string() << ": " << ec.message() << "\n";
    return 2;
  }
  for (const auto& s : scenarios) {
    std::ofstream f(dir / s.file_name, std::ios::binary);
    f << "# Written by scenario-runner import-pact; run with: scenario-runner " << dir.string()
      << "\n"
      << record::to_yaml(s.scenario);
    if (!f) {
      err << "cannot write " << (dir / s.file_name).string() << "\n";
      return 2;
    }
  }
  return 0;
}

fs::path temporary_folder() {
  std::random_device rd;
  std::ostringstream name;
  name << "scenario-runner-pact-" << ::getpid() << "-" << std::hex << rd();
  return fs::temp_directory_path() / name.str();
}

// The pact and its states file as scenarios; 2 with the reason on `err`.
int load_scenarios(const ImportPactOptions& o, std::vector<PactScenario>& scenarios,
                   std::ostream& err) {
  std::string text;
  if (!read_text(o.file, text)) {
    err << "cannot read " << o.file << "\n";
    return 2;
  }
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded()) {
    err << o.file << ": not JSON\n";
    return 2;
  }
  std::optional<fake_org::ProviderStates> states;
  if (!o.states.empty()) {
    auto load = fake_org::load_provider_states(o.states);
    for (const auto& e : load.errors) err << e.to_string() << "\n";
    if (!load.states) return 2;
    states = std::move(load.states);
  }
  try {
    const Pact pact = read_pact(doc);
    for (const auto& n : pact.notes) err << "note: " << n << "\n";
    if (pact.interactions.empty()) {
      err << o.file << ": no HTTP interaction to verify\n";
      return 2;
    }
    scenarios = pact_scenarios(pact, states ? &*states : nullptr,
                               {fs::path(o.file).filename().string(), "59.0"});
  } catch (const PactError& e) {
    err << o.file << ": " << e.what() << "\n";
    return 2;
  } catch (const nlohmann::json::exception& e) {  // a value of the wrong type
    err << o.file << ": not a Pact file this reads: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

}  // namespace

int import_pact_command(ImportPactOptions o, std::ostream& out, std::ostream& err) {
  std::vector<PactScenario> scenarios;
  if (int rc = load_scenarios(o, scenarios, err)) return rc;
  if (!o.out.empty()) {
    if (int rc = write_all(scenarios, o.out, err)) return rc;
    out << "wrote " << scenarios.size() << " scenario(s) to " << o.out
        << "; run them with: scenario-runner " << o.out << "\n";
    return 0;
  }
  const fs::path dir = temporary_folder();
  int rc = write_all(scenarios, dir, err);
  if (rc == 0) {
    o.run.paths = {dir.string()};
    o.run.console = console_style(STDOUT_FILENO, o.run.no_progress, std::getenv("NO_COLOR"));
    rc = run_command(o.run, out, err);
  }
  // A failure's report names these files: keep them to be read.
  std::error_code ec;
  if (rc == 0)
    fs::remove_all(dir, ec);
  else
    out << "the scenarios are kept in " << dir.string() << "\n";
  return rc;
}

}  // namespace runner::pact
