#include "scenario/loader.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "eval/interpolate.h"
#include "scenario/load_context.h"
#include "scenario/step_loader.h"
#include "yaml/yaml_input.h"

namespace runner {
namespace fs = std::filesystem;
namespace {

// An embedded fixture is named bare ("default.yaml"); anything with a folder
// in it, or a file that exists beside the scenario, is a path.
void resolve_fixture(LoadContext& ctx, const YAML::Node& node, Scenario& s) {
  if (s.fixture.empty()) return;
  fs::path candidate = fs::path(ctx.base_dir()) / s.fixture;
  std::error_code ec;
  if (fs::is_regular_file(candidate, ec)) {
    s.fixture_path = candidate.lexically_normal().string();
  } else if (s.fixture.find('/') != std::string::npos) {
    ctx.error(node, "fixture file '" + candidate.lexically_normal().string() + "' does not exist");
  }
}

void load_vars(LoadContext& ctx, const YAML::Node& node, Scenario& s,
               std::set<std::string>& defined) {
  if (!ctx.expect_map(node, "vars")) return;
  ctx.check_duplicates(node, "vars");
  for (const auto& kv : node) {
    const std::string name = kv.first.Scalar();
    if (!is_variable_name(name) || is_builtin_name(name)) {
      ctx.error(kv.first, "'" + name +
                              "' cannot be a variable name (letters, digits, _ and .; "
                              "not a built-in)");
      continue;
    }
    PositionMap pm;
    Json v = ctx.json(kv.second, &pm);
    ctx.check_refs(v, pm, kv.second, defined);
    s.vars.emplace_back(name, v);
    defined.insert(name);
  }
}

}  // namespace

LoadResult load_scenario_text(const std::string& text, const std::string& file,
                              const std::string& base_dir) {
  LoadResult result;
  LoadContext ctx(file, base_dir);
  common::YamlDocument doc = common::load_yaml_document(text);
  if (doc.error) {
    result.errors.push_back({{file, doc.error->line, doc.error->column}, doc.error->message});
    return result;
  }
  const YAML::Node root = doc.root;
  Scenario s;
  s.file = file;
  s.pos = {file, 1, 1};
  if (!root.IsMap()) {
    result.errors.push_back({{file, 1, 1},
                             "a scenario file is a mapping with name, steps and optional "
                             "description, tags, fixture, vars"});
    return result;
  }
  if (root["instance_url"] && !root["steps"]) {
    result.target_config = true;
    return result;
  }
  ctx.check_keys(root, {"name", "description", "tags", "fixture", "vars", "steps"}, "the scenario");
  if (root["name"])
    s.name = ctx.string(root["name"], "name").value_or("");
  else
    ctx.error(root, "the scenario needs a name");
  if (root["description"])
    s.description = ctx.string(root["description"], "description").value_or("");
  if (root["tags"]) {
    const YAML::Node& tags = root["tags"];
    if (tags.IsSequence()) {
      for (const auto& t : tags)
        if (auto v = ctx.string(t, "a tag")) s.tags.push_back(*v);
    } else if (tags.IsScalar()) {
      s.tags.push_back(tags.Scalar());
    } else {
      ctx.error(tags, "tags is a list of names");
    }
  }
  if (root["fixture"]) {
    s.fixture = ctx.string(root["fixture"], "fixture").value_or("");
    s.fixture_pos = ctx.pos(root["fixture"]);
    resolve_fixture(ctx, root["fixture"], s);
  }
  std::set<std::string> defined;
  if (root["vars"]) load_vars(ctx, root["vars"], s, defined);
  const YAML::Node& steps = root["steps"];
  if (!steps) {
    ctx.error(root, "the scenario needs steps");
  } else if (!steps.IsSequence() || steps.size() == 0) {
    ctx.error(steps, "steps is a non-empty list");
  } else {
    for (size_t i = 0; i < steps.size(); ++i)
      if (auto step = load_step(ctx, steps[i], i, defined)) s.steps.push_back(std::move(*step));
  }
  result.errors = std::move(ctx.errors());
  std::stable_sort(result.errors.begin(), result.errors.end(),
                   [](const LoadError& a, const LoadError& b) {
                     return std::tie(a.pos.line, a.pos.column) < std::tie(b.pos.line, b.pos.column);
                   });
  if (result.errors.empty()) result.scenario = std::move(s);
  return result;
}

LoadResult load_scenario_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    LoadResult r;
    r.errors.push_back({{path, 0, 0}, "cannot read the file"});
    return r;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string dir = fs::path(path).parent_path().string();
  return load_scenario_text(ss.str(), path, dir.empty() ? "." : dir);
}

}  // namespace runner
