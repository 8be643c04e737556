#include "commands/parity/allow_list.h"
#include "yaml/yaml_input.h"

#include <fstream>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

namespace runner::parity {
namespace {

std::string where(const std::string& file, const YAML::Node& n) {
  return file + ":" + std::to_string(n.Mark().line + 1) + ":" + std::to_string(n.Mark().column + 1);
}

}  // namespace

bool AllowEntry::matches(const Difference& d) const {
  if (!kind.empty() && kind != d.kind) return false;
  if (scenario && !std::regex_search(d.file, *scenario) &&
      !std::regex_search(d.scenario, *scenario))
    return false;
  if (step && !std::regex_search(d.step_name, *step)) return false;
  if (!path.empty() && path != d.path) return false;
  if (a && *a != d.a) return false;
  if (b && *b != d.b) return false;
  return true;
}

AllowList AllowList::load_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw AllowListError("cannot read the allow list " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return load_text(ss.str(), path);
}

AllowList AllowList::load_text(const std::string& text, const std::string& file) {
  common::YamlDocument doc = common::load_yaml_document(text);
  if (doc.error)
    throw AllowListError(file + ":" + std::to_string(doc.error->line) + ":" +
                         std::to_string(doc.error->column) + ": " + doc.error->message);
  const YAML::Node root = doc.root;
  AllowList list;
  if (root.IsNull()) return list;
  if (!root.IsMap() || !root["allow"] || !root["allow"].IsSequence())
    throw AllowListError(file +
                         ": expected `allow:` with a list of entries (see docs/record-replay.md)");
  static const std::set<std::string> kinds = {"status", "field", "type", "enum", "step"};
  static const std::set<std::string> keys = {"reason", "kind", "scenario", "step",
                                             "path",   "a",    "b"};
  for (const auto& item : root["allow"]) {
    if (!item.IsMap()) throw AllowListError(where(file, item) + ": an entry is a mapping");
    AllowEntry e;
    for (const auto& kv : item) {
      const std::string key = kv.first.as<std::string>();
      if (!keys.count(key))
        throw AllowListError(where(file, kv.first) + ": unknown key '" + key +
                             "'; allowed: reason, kind, scenario, step, path, a, b");
      if (!kv.second.IsScalar())
        throw AllowListError(where(file, kv.second) + ": " + key + " is text");
      const std::string v = kv.second.Scalar();
      try {
        if (key == "reason") e.reason = v;
        if (key == "kind") e.kind = v;
        if (key == "scenario") e.scenario = std::regex(v);
        if (key == "step") e.step = std::regex(v);
        if (key == "path") e.path = v;
        if (key == "a") e.a = v;
        if (key == "b") e.b = v;
      } catch (const std::regex_error& err) {
        throw AllowListError(where(file, kv.second) +
                             ": invalid regular expression: " + err.what());
      }
    }
    if (e.reason.empty())
      throw AllowListError(where(file, item) +
                           ": every entry needs a reason (why the difference is fine)");
    if (!e.kind.empty() && !kinds.count(e.kind))
      throw AllowListError(where(file, item["kind"]) +
                           ": kind is status, field, type, enum or step");
    list.entries_.push_back(std::move(e));
  }
  return list;
}

void AllowList::apply(std::vector<Difference>& diffs) const {
  for (auto& d : diffs)
    for (const auto& e : entries_)
      if (e.matches(d)) {
        d.allowed = true;
        d.reason = e.reason;
        break;
      }
}

}  // namespace runner::parity
