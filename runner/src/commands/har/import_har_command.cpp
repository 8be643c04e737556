#include "commands/har/import_har_command.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "commands/har/har_reader.h"
#include "commands/record/generaliser.h"
#include "commands/record/write_scenario.h"

namespace runner::har {

CLI::App* add_import_har_command(CLI::App& app, ImportHarOptions& o) {
  CLI::App* sub = app.add_subcommand(
      "import-har", "Turn a HAR file (browser dev tools, a proxy) into a scenario");
  sub->add_option("file", o.file, "The .har file")->required()->check(CLI::ExistingFile);
  sub->add_option("--base", o.base,
                  "The API base (https://host/services/apexrest/cpm/v2) or the org's instance URL; "
                  "other requests are left out")
      ->required();
  sub->add_option("--out,-o", o.out, "The scenario file to write")->required();
  sub->add_flag("--strict", o.strict,
                "Keep every field (volatile ones as matchers) and expect objects exactly");
  sub->add_option("--card-numbers", o.cards, "Card numbers in requests: env, mask or keep")
      ->check(CLI::IsMember({"env", "mask", "keep"}))
      ->capture_default_str();
  sub->add_option("--account-numbers", o.accounts, "Bank account numbers: env, mask or keep")
      ->check(CLI::IsMember({"env", "mask", "keep"}))
      ->capture_default_str();
  sub->add_option("--name", o.name, "The scenario's name (default: from the HAR file name)");
  sub->add_option("--fixture", o.fixture,
                  "The fixture the scenario names, for replays against the embedded fake");
  return sub;
}

int import_har_command(const ImportHarOptions& o, std::ostream& out, std::ostream& err) {
  std::ifstream in(o.file, std::ios::binary);
  if (!in) {
    err << "cannot read " << o.file << "\n";
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  HarImport har;
  try {
    har = read_har(text.str(), o.base);
  } catch (const HarError& e) {
    err << o.file << ": " << e.what() << "\n";
    return 2;
  }
  if (har.exchanges.empty()) {
    for (const auto& n : har.notes) err << "note: " << n << "\n";
    err << o.file << ": no request under " << o.base << "; check --base\n";
    return 2;
  }
  record::GeneraliseOptions go;
  go.name = o.name.empty() ? "imported from " + std::filesystem::path(o.file).filename().string()
                           : o.name;
  go.description = "Imported by scenario-runner import-har from " +
                   std::filesystem::path(o.file).filename().string() + ".";
  go.fixture = o.fixture;
  go.api_path = har.api_path;
  go.strict = o.strict;
  go.cards = record::secret_mode_from_string(o.cards);
  go.accounts = record::secret_mode_from_string(o.accounts);
  record::Generalised g = record::generalise(har.exchanges, go);
  g.notes.insert(g.notes.begin(), har.notes.begin(), har.notes.end());
  return record::write_scenario(g, o.out, out, err);
}

}  // namespace runner::har
