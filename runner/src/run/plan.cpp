#include "run/plan.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace runner {
namespace fs = std::filesystem;

std::optional<Shard> parse_shard(const std::string& text) {
  static const std::regex re(R"(^([0-9]{1,4})/([0-9]{1,4})$)");
  std::smatch m;
  if (!std::regex_match(text, m, re)) return std::nullopt;
  Shard s{std::stoi(m[1]), std::stoi(m[2])};
  if (s.count < 1 || s.index < 1 || s.index > s.count) return std::nullopt;
  return s;
}

std::vector<std::string> find_scenario_files(const std::vector<std::string>& paths,
                                             std::vector<LoadError>& errors) {
  std::set<std::string> files;
  auto is_yaml = [](const fs::path& p) {
    return p.extension() == ".yaml" || p.extension() == ".yml";
  };
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) {
      files.insert(fs::path(p).lexically_normal().string());
      continue;
    }
    if (!fs::is_directory(p, ec)) {
      errors.push_back({{p, 0, 0}, "no such file or folder"});
      continue;
    }
    for (auto it = fs::recursive_directory_iterator(p, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      // The format's own JSON Schema (and its examples) live under schema/;
      // fixtures/ holds org configurations scenarios name in `fixture:`.
      if (it->is_directory() &&
          (it->path().filename() == "schema" || it->path().filename() == "fixtures")) {
        it.disable_recursion_pending();
        continue;
      }
      if (it->is_regular_file() && is_yaml(it->path()))
        files.insert(it->path().lexically_normal().string());
    }
  }
  return {files.begin(), files.end()};
}

Plan load_plan(const std::vector<std::string>& paths) {
  Plan plan;
  std::set<std::string> named;  // files given as such, not found in a folder
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) named.insert(fs::path(p).lexically_normal().string());
  }
  for (const auto& f : find_scenario_files(paths, plan.errors)) {
    LoadResult r = load_scenario_file(f);
    // A folder may hold its sandbox configuration beside its scenarios
    // (`scenario-runner init` lays it out so): a target, passed with --target.
    if (r.target_config) {
      if (named.count(f))
        plan.errors.push_back({{f, 1, 1},
                               "this is a sandbox configuration (a target), not a scenario: "
                               "pass it with --target " +
                                   f});
      continue;
    }
    plan.errors.insert(plan.errors.end(), r.errors.begin(), r.errors.end());
    if (r.ok()) plan.scenarios.push_back(std::move(*r.scenario));
  }
  return plan;
}

std::vector<Scenario> select(std::vector<Scenario> scenarios, const Selection& sel) {
  std::stable_sort(scenarios.begin(), scenarios.end(),
                   [](const Scenario& a, const Scenario& b) { return a.file < b.file; });
  std::vector<Scenario> out;
  size_t position = 0;  // among those passing the filters, so shards stay balanced
  for (auto& s : scenarios) {
    if (!sel.tags.empty() && std::none_of(sel.tags.begin(), sel.tags.end(),
                                          [&](const std::string& t) { return s.has_tag(t); }))
      continue;
    if (sel.name && !std::regex_search(s.name, *sel.name)) continue;
    const size_t i = position++;
    if (sel.shard && static_cast<int>(i % sel.shard->count) != sel.shard->index - 1) continue;
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace runner
