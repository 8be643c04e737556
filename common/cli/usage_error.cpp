#include "cli/usage_error.h"

#include <algorithm>
#include <vector>

namespace common_cli {

namespace {

// Edits that turn one name into the other, a swap of two neighbours counting
// as one ("--prot" is one edit from "--port"): the optimal string alignment
// distance.
size_t typo_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t change = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + change});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

void collect_long_names(const CLI::App& app, std::vector<std::string>& names) {
  for (const CLI::Option* option : app.get_options())
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
  for (const CLI::App* sub : app.get_subcommands({})) collect_long_names(*sub, names);
}

}  // namespace

std::string nearest_option(const CLI::App& app, std::string_view given) {
  if (given.rfind("--", 0) != 0) return "";
  const std::string_view bare = given.substr(0, given.find('='));
  std::vector<std::string> names;
  collect_long_names(app, names);
  std::string best;
  // A third of the name may be wrong: "--prot" and "--fixtur" are typos,
  // "--verbose" is not a misspelt "--port".
  size_t best_distance = std::max<size_t>(1, (bare.size() - 2) / 3) + 1;
  for (const std::string& name : names) {
    const size_t d = typo_distance(bare, name);
    if (d < best_distance) best = name, best_distance = d;
  }
  return best;
}

int usage_error(const CLI::App& app, const CLI::ParseError& error, std::ostream& out,
                std::ostream& err) {
  // --help and --version print through the app's formatter and exit 0.
  if (error.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success))
    return app.exit(error, out, err);
  app.exit(error, out, err);
  for (const std::string& arg : app.remaining(true)) {
    const std::string near = nearest_option(app, arg);
    if (!near.empty()) err << "unknown option " << arg << "; did you mean " << near << "?\n";
  }
  return kUsageError;
}

}  // namespace common_cli
