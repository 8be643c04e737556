#include "scenario/load_context.h"

#include <algorithm>
#include <climits>

#include "eval/interpolate.h"
#include "util/calendar.h"
#include "util/text.h"

namespace runner {

std::optional<std::string> did_you_mean(const std::string& word,
                                        const std::set<std::string>& candidates) {
  std::string best = fake_org::text::closest(
      word, std::vector<std::string_view>(candidates.begin(), candidates.end()));
  if (best.empty()) return std::nullopt;
  return best;
}

SourcePos LoadContext::pos(const YAML::Node& n) const {
  auto p = position_of(n);
  if (n.Mark().is_null()) return {file_, 0, 0};
  return {file_, p.first, p.second};
}

void LoadContext::error(const YAML::Node& n, const std::string& message) {
  errors_.push_back({pos(n), message});
}

void LoadContext::error(std::pair<int, int> at, const std::string& message) {
  errors_.push_back({pos(at), message});
}

void LoadContext::check_keys(const YAML::Node& map, const std::set<std::string>& allowed,
                             const std::string& where) {
  std::set<std::string> seen;
  for (const auto& kv : map) {
    if (!kv.first.IsScalar()) {
      error(kv.first, "keys of " + where + " must be plain names");
      continue;
    }
    const std::string& k = kv.first.Scalar();
    if (!seen.insert(k).second) error(kv.first, "duplicate key '" + k + "' in " + where);
    if (allowed.count(k)) continue;
    std::string msg = "unknown key '" + k + "' in " + where;
    if (auto s = did_you_mean(k, allowed)) {
      msg += "; did you mean '" + *s + "'?";
    } else {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      msg += " (allowed: " + list + ")";
    }
    error(kv.first, msg);
  }
}

void LoadContext::check_duplicates(const YAML::Node& map, const std::string& where) {
  std::set<std::string> seen;
  for (const auto& kv : map)
    if (kv.first.IsScalar() && !seen.insert(kv.first.Scalar()).second)
      error(kv.first, "duplicate key '" + kv.first.Scalar() + "' in " + where);
}

bool LoadContext::expect_map(const YAML::Node& n, const std::string& what) {
  if (n.IsMap()) return true;
  error(n, what + " must be a mapping (key: value lines)");
  return false;
}

std::optional<std::string> LoadContext::string(const YAML::Node& n, const std::string& what) {
  if (n.IsScalar()) return n.Scalar();
  error(n, what + " must be text");
  return std::nullopt;
}

std::optional<bool> LoadContext::boolean(const YAML::Node& n, const std::string& what) {
  Json v = yaml_to_json(n);
  if (v.is_boolean()) return v.get<bool>();
  error(n, what + " must be true or false");
  return std::nullopt;
}

std::optional<long> LoadContext::integer(const YAML::Node& n, const std::string& what) {
  Json v = yaml_to_json(n);
  if (v.is_number_unsigned() && v.get<unsigned long long>() > LONG_MAX)
    v = Json();  // a whole number, but not one a long holds: refused below
  if (v.is_number_integer()) return v.get<long>();
  error(n, what + " must be a whole number (at most " + std::to_string(LONG_MAX) + ")");
  return std::nullopt;
}

std::optional<Millis> LoadContext::duration(const YAML::Node& n, const std::string& what) {
  // A week is far beyond any wait a scenario needs, and keeps the
  // milliseconds well inside a long long.
  constexpr double kMaxSeconds = 7 * 86400;
  Json v = yaml_to_json(n);
  if (v.is_number() && v.get<double>() >= 0 && v.get<double>() <= kMaxSeconds)
    return Millis(static_cast<long long>(v.get<double>() * 1000));
  if (v.is_string())
    if (auto d = fake_org::parse_duration(v.get<std::string>()))
      if (*d <= Millis(static_cast<long long>(kMaxSeconds) * 1000)) return *d;
  error(n, what +
               " must be a duration such as 500ms, 5s, 2m or 1h (or a number of seconds), "
               "at most 7d");
  return std::nullopt;
}

StringPairs LoadContext::string_map(const YAML::Node& n, const std::string& what) {
  StringPairs out;
  if (!expect_map(n, what)) return out;
  std::set<std::string> seen;
  for (const auto& kv : n) {
    if (!kv.first.IsScalar()) {
      error(kv.first, "keys of " + what + " must be plain names");
      continue;
    }
    if (!seen.insert(kv.first.Scalar()).second)
      error(kv.first, "duplicate key '" + kv.first.Scalar() + "' in " + what);
    if (!kv.second.IsScalar()) {
      error(kv.second, what + " '" + kv.first.Scalar() + "' must be a single value");
      continue;
    }
    out.emplace_back(kv.first.Scalar(), kv.second.Scalar());
  }
  return out;
}

Json LoadContext::json(const YAML::Node& n, PositionMap* positions) {
  std::vector<YamlJsonIssue> issues;
  Json v = yaml_to_json(n, positions, &issues);
  for (const auto& i : issues) error(i.at, i.message);
  return v;
}

std::pair<int, int> LoadContext::at(const PositionMap& positions, const std::string& pointer,
                                    const YAML::Node& fallback) const {
  // Matcher issues name the object; the longest known prefix is the closest place.
  std::string p = pointer;
  while (true) {
    auto it = positions.find(p);
    if (it != positions.end()) return it->second;
    if (p.empty()) break;
    p = p.substr(0, p.rfind('/'));
  }
  return position_of(fallback);
}

void LoadContext::check_refs(const Json& value, const PositionMap& positions,
                             const YAML::Node& node, const std::set<std::string>& defined) {
  for (const auto& issue : check_references(value, defined))
    error(at(positions, issue.pointer, node), issue.message);
}

void LoadContext::check_refs_text(const std::string& text, const YAML::Node& node,
                                  const std::set<std::string>& defined) {
  for (const auto& issue : check_references(Json(text), defined)) error(node, issue.message);
}

}  // namespace runner
