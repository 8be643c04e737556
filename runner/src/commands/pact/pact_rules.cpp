#include "commands/pact/pact_rules.h"

#include <algorithm>
#include <cctype>
#include <tuple>

#include "commands/record/generaliser_state.h"

namespace runner::pact {

namespace {

// One step of a path: a field, an index, or a wildcard (".*", "[*]").
struct PathToken {
  enum Kind { kField, kIndex, kStar } kind = kField;
  std::string field;
  size_t index = 0;
};

using PathTokens = std::vector<PathToken>;

struct ParsedRule {
  PathTokens tokens;
  const RuleSet* set = nullptr;
};

PathTokens parse_path(const std::string& path) {
  if (path.empty() || path[0] != '$')
    throw PactError("a matching rule's path must start with $: '" + path + "'");
  PathTokens out;
  size_t i = 1;
  while (i < path.size()) {
    if (path[i] == '.') {
      size_t end = path.find_first_of(".[", i + 1);
      if (end == std::string::npos) end = path.size();
      const std::string name = path.substr(i + 1, end - i - 1);
      out.push_back(name == "*" ? PathToken{PathToken::kStar, "", 0}
                                : PathToken{PathToken::kField, name, 0});
      i = end;
    } else if (path[i] == '[') {
      const size_t close = path.find(']', i);
      if (close == std::string::npos) throw PactError("unclosed [ in the path '" + path + "'");
      std::string inner = path.substr(i + 1, close - i - 1);
      if (inner == "*")
        out.push_back({PathToken::kStar, "", 0});
      else if (inner.size() >= 2 && (inner[0] == '\'' || inner[0] == '"'))
        out.push_back({PathToken::kField, inner.substr(1, inner.size() - 2), 0});
      else if (!inner.empty() && inner.size() <= 9 &&
               inner.find_first_not_of("0123456789") == std::string::npos)
        out.push_back({PathToken::kIndex, "", std::stoul(inner)});
      else
        throw PactError("cannot read [" + inner + "] in the path '" + path + "'");
      i = close + 1;
    } else {
      throw PactError("cannot read the path '" + path + "' at character " + std::to_string(i + 1));
    }
  }
  return out;
}

// How exactly `rule` names `value` or a parent of it: 0 not at all; each
// named step counts twice a wildcard's (Pact's path weights).
unsigned weight(const PathTokens& rule, const PathTokens& value) {
  if (rule.size() > value.size()) return 0;
  unsigned w = 1;
  for (size_t i = 0; i < rule.size(); ++i) {
    const PathToken& r = rule[i];
    const PathToken& v = value[i];
    if (r.kind == PathToken::kStar)
      w *= 1;
    else if (r.kind != v.kind)
      return 0;
    else if (r.kind == PathToken::kField ? r.field != v.field : r.index != v.index)
      return 0;
    else
      w *= 2;
  }
  return w;
}

struct Translator {
  std::vector<ParsedRule> rules;

  const ParsedRule* best(const PathTokens& path) const {
    const ParsedRule* found = nullptr;
    unsigned top = 0;
    for (const auto& r : rules) {
      const unsigned w = weight(r.tokens, path);
      if (w > top || (w && w == top && found && r.tokens.size() > found->tokens.size())) {
        found = &r;
        top = w;
      }
    }
    return found;
  }

  nlohmann::json node(const nlohmann::json& v, PathTokens& path) const {
    const ParsedRule* r = best(path);
    if (!r) return literal(v, path);
    return with_rules(v, path, *r->set, r->tokens.size() == path.size());
  }

  nlohmann::json literal(const nlohmann::json& v, PathTokens& path) const {
    if (v.is_object()) {
      if (v.empty()) return {{"$type", "object"}};
      nlohmann::json out = nlohmann::json::object();
      for (auto it = v.begin(); it != v.end(); ++it) {
        path.push_back({PathToken::kField, it.key(), 0});
        out[it.key()] = node(it.value(), path);
        path.pop_back();
      }
      return guard_dollar_keys(v, out);
    }
    if (v.is_array()) {
      nlohmann::json out = nlohmann::json::array();
      for (size_t i = 0; i < v.size(); ++i) {
        path.push_back({PathToken::kIndex, "", i});
        out.push_back(node(v[i], path));
        path.pop_back();
      }
      return out;
    }
    return escape_literal(v);
  }

  // An object whose keys all start with $ reads as a matcher: expect it literally.
  static nlohmann::json guard_dollar_keys(const nlohmann::json& v, nlohmann::json out) {
    for (auto it = v.begin(); it != v.end(); ++it)
      if (it.key().empty() || it.key()[0] != '$') return out;
    return {{"$eq", v}};
  }

  nlohmann::json with_rules(const nlohmann::json& v, PathTokens& path, const RuleSet& set,
                            bool own) const {
    std::vector<nlohmann::json> each;
    for (const auto& m : set.matchers) each.push_back(one(m, v, path, own));
    if (each.size() == 1) return each[0];
    if (set.any) return {{"$oneOf", each}};
    return all_of(each);
  }

  nlohmann::json one(const nlohmann::json& m, const nlohmann::json& v, PathTokens& path,
                     bool own) const;
  nlohmann::json type_like(const nlohmann::json& m, const nlohmann::json& v, PathTokens& path,
                           bool own) const;
  nlohmann::json array_contains(const nlohmann::json& m, const nlohmann::json& v,
                                const std::string& where) const;
  static nlohmann::json all_of(const std::vector<nlohmann::json>& each);
};

bool is_matcher(const nlohmann::json& e) {
  if (!e.is_object() || e.empty()) return false;
  for (auto it = e.begin(); it != e.end(); ++it)
    if (it.key().empty() || it.key()[0] != '$') return false;
  return true;
}

std::string type_name(const nlohmann::json& v) {
  if (v.is_number()) return "number";
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "boolean";
  if (v.is_null()) return "null";
  return v.is_array() ? "array" : "object";
}

std::string path_text(const PathTokens& path) {
  std::string s = "$";
  for (const auto& t : path)
    s += t.kind == PathToken::kField   ? "." + t.field
         : t.kind == PathToken::kIndex ? "[" + std::to_string(t.index) + "]"
                                       : std::string("[*]");
  return s;
}

// Every one must hold: matchers with different keys merge into one object;
// otherwise "not one of (not e1, not e2, ...)".
nlohmann::json Translator::all_of(const std::vector<nlohmann::json>& each) {
  nlohmann::json merged = nlohmann::json::object();
  bool disjoint = true;
  for (const auto& e : each) {
    if (!is_matcher(e))
      disjoint = false;
    else
      for (auto it = e.begin(); it != e.end(); ++it) {
        if (merged.contains(it.key())) disjoint = false;
        merged[it.key()] = it.value();
      }
  }
  if (disjoint) return merged;
  nlohmann::json nots = nlohmann::json::array();
  for (const auto& e : each) nots.push_back({{"$not", e}});
  return {{"$not", {{"$oneOf", nots}}}};
}

nlohmann::json Translator::type_like(const nlohmann::json& m, const nlohmann::json& v,
                                     PathTokens& path, bool own) const {
  // An object by type is its values by type: the rule cascades to them.
  if (v.is_object()) return literal(v, path);
  if (!v.is_array()) return {{"$type", type_name(v)}};
  nlohmann::json out = {{"$type", "array"}};
  if (!v.empty()) {
    std::vector<nlohmann::json> items;
    for (size_t i = 0; i < v.size(); ++i) {
      path.push_back({PathToken::kIndex, "", i});
      nlohmann::json e = node(v[i], path);
      path.pop_back();
      if (std::find(items.begin(), items.end(), e) == items.end()) items.push_back(std::move(e));
    }
    out["$each"] = items.size() == 1 ? items[0] : nlohmann::json{{"$oneOf", items}};
  }
  const bool has_min = m.contains("min") && m["min"].is_number_integer();
  const bool has_max = m.contains("max") && m["max"].is_number_integer();
  if (own && (has_min || has_max))
    out["$length"] = {
        {"$range",
         {has_min ? m["min"] : nlohmann::json(0), has_max ? m["max"] : nlohmann::json()}}};
  return out;
}

// {"match": "arrayContains", "variants": [{"index": 0, "rules": {"$.a": {...}}}]}
nlohmann::json Translator::array_contains(const nlohmann::json& m, const nlohmann::json& v,
                                          const std::string& where) const {
  if (!v.is_array() || !m.contains("variants") || !m["variants"].is_array())
    throw PactError(where + ": arrayContains needs a list example and \"variants\"");
  nlohmann::json wanted = nlohmann::json::array();
  for (const auto& variant : m["variants"]) {
    const size_t index = variant.value("index", size_t{0});
    if (index >= v.size())
      throw PactError(where + ": an arrayContains variant's index is past the example");
    Rules rules;
    if (variant.contains("rules") && variant["rules"].is_object())
      for (auto it = variant["rules"].begin(); it != variant["rules"].end(); ++it) {
        RuleSet set;
        for (const auto& x : it.value().value("matchers", nlohmann::json::array()))
          set.matchers.push_back(x);
        set.any = it.value().value("combine", "AND") == "OR";
        rules.emplace_back(it.key(), set);
      }
    wanted.push_back(body_expectation(v[index], rules));
  }
  return {{"$contains", wanted}};
}

nlohmann::json Translator::one(const nlohmann::json& m, const nlohmann::json& v, PathTokens& path,
                               bool own) const {
  const std::string kind = m["match"].get<std::string>();
  const std::string where = "the '" + kind + "' rule at " + path_text(path);
  if (kind == "type" || kind == "min" || kind == "max") return type_like(m, v, path, own);
  if (kind == "equality") return literal(v, path);
  if (kind == "regex") {
    if (!m.contains("regex") || !m["regex"].is_string())
      throw PactError(where + " has no \"regex\"");
    return {{"$regex", "^(?:" + m["regex"].get<std::string>() + ")$"}};
  }
  if (kind == "include")
    return {{"$contains", escape_literal(m.value("value", nlohmann::json("")))}};
  if (kind == "integer") return {{"$type", "integer"}};
  if (kind == "decimal") return {{"$type", "number"}, {"$not", {{"$type", "integer"}}}};
  if (kind == "number") return {{"$type", "number"}};
  if (kind == "boolean") return {{"$type", "boolean"}};
  if (kind == "null") return {{"$type", "null"}};
  if (kind == "date" || kind == "time" || kind == "timestamp" || kind == "datetime") {
    std::string fmt = m.value("format", "");
    if (fmt.empty() && m.contains(kind) && m[kind].is_string()) fmt = m[kind].get<std::string>();
    if (fmt.empty())
      fmt = kind == "date"   ? "yyyy-MM-dd"
            : kind == "time" ? "HH:mm:ss"
                             : "yyyy-MM-dd'T'HH:mm:ssXXX";
    return {{"$regex", format_regex(fmt)}};
  }
  if (kind == "notEmpty") return {{"$type", type_name(v)}, {"$not", {{"$length", 0}}}};
  if (kind == "semver")
    return {{"$regex", "^\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$"}};
  if (kind == "arrayContains") return array_contains(m, v, where);
  throw PactError(where +
                  " is not supported by import-pact (supported: type, min/max type, "
                  "equality, regex, include, integer, decimal, number, boolean, null, date, "
                  "time, timestamp, datetime, notEmpty, semver, arrayContains)");
}

}  // namespace

nlohmann::json escape_literal(const nlohmann::json& v) {
  if (v.is_object() || v.is_array()) {
    nlohmann::json out = v;
    for (auto it = out.begin(); it != out.end(); ++it) *it = escape_literal(*it);
    return out;
  }
  if (!v.is_string()) return v;
  const std::string& s = v.get_ref<const std::string&>();
  if (s.find("${") == std::string::npos) return v;
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 2, "${") == 0) out += "$";
    out += s[i];
  }
  return out;
}

nlohmann::json body_expectation(const nlohmann::json& example, const Rules& rules) {
  Translator t;
  for (const auto& [path, set] : rules) t.rules.push_back({parse_path(path), &set});
  PathTokens root;
  return t.node(example, root);
}

namespace {

using record::detail::regex_escape;

// The regular expression of a run of one pattern letter (Java's
// DateTimeFormatter and SimpleDateFormat agree on these).
std::string letter_regex(char c, size_t n, const std::string& pattern) {
  switch (c) {
    case 'y':
    case 'u':
    case 'Y':
      return n == 2 ? "\\d{2}" : "\\d{4}";
    case 'M':
    case 'L':
      return n == 1 ? "\\d{1,2}" : n == 2 ? "\\d{2}" : n == 3 ? "[A-Za-z]{3}" : "[A-Za-z]+";
    case 'd':
    case 'H':
    case 'h':
    case 'k':
    case 'K':
    case 'm':
    case 's':
      return n == 1 ? "\\d{1,2}" : "\\d{2}";
    case 'D':
      return n == 1 ? "\\d{1,3}" : "\\d{" + std::to_string(n) + ",3}";
    case 'S':
    case 'n':
      return "\\d{" + std::to_string(n) + "}";
    case 'E':
    case 'G':
    case 'z':
    case 'V':
      return "[A-Za-z/_+-]+";
    case 'a':
      return "(?:AM|PM|am|pm)";
    case 'X':
      return n == 1             ? "(?:Z|[+-]\\d{2}(?:\\d{2})?)"
             : n == 2 || n == 4 ? "(?:Z|[+-]\\d{4})"
                                : "(?:Z|[+-]\\d{2}:\\d{2})";
    case 'x':
      return n == 1             ? "[+-]\\d{2}(?:\\d{2})?"
             : n == 2 || n == 4 ? "[+-]\\d{4}"
                                : "[+-]\\d{2}:\\d{2}";
    case 'Z':
      return n <= 3 ? "[+-]\\d{4}" : "(?:Z|GMT|[+-]\\d{2}:\\d{2})";
    case 'Q':
    case 'q':
    case 'e':
    case 'c':
    case 'F':
    case 'W':
    case 'w':
      return n <= 2 ? "\\d{1,2}" : "[A-Za-z]+";
    default:
      throw PactError("the date/time format '" + pattern + "' has the letter '" +
                      std::string(1, c) + "', which import-pact cannot read");
  }
}

}  // namespace

std::string format_regex(const std::string& pattern) {
  std::string out = "^";
  size_t i = 0;
  while (i < pattern.size()) {
    const char c = pattern[i];
    if (c == '\'') {  // 'T' is literal text; '' a quote
      const size_t close = pattern.find('\'', i + 1);
      if (close == i + 1)
        out += "'";
      else
        out += regex_escape(
            pattern.substr(i + 1, (close == std::string::npos ? pattern.size() : close) - i - 1));
      i = close == std::string::npos ? pattern.size() : close + 1;
    } else if (c == '[' || c == ']') {  // optional sections: anything inside may be absent
      out += c == '[' ? "(?:" : ")?";
      ++i;
    } else if (std::isalpha(static_cast<unsigned char>(c))) {
      size_t n = 1;
      while (i + n < pattern.size() && pattern[i + n] == c) ++n;
      out += letter_regex(c, n, pattern);
      i += n;
    } else {
      out += regex_escape(std::string(1, c));
      ++i;
    }
  }
  return out + "$";
}

nlohmann::json header_expectation(const std::string& name, const std::string& value,
                                  const Rules& header_rules) {
  auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  for (const auto& [rule_name, set] : header_rules)
    if (lower(rule_name) == lower(name)) return body_expectation(value, {{"$", set}});
  // Pact compares a content type by its media type: the provider may add
  // parameters (charset) the consumer did not write.
  if (lower(name) == "content-type") return {{"$regex", "^" + regex_escape(value) + "\\s*(;.*)?$"}};
  return escape_literal(value);
}

nlohmann::json status_expectation(int status, const RuleSet& rule) {
  for (const auto& m : rule.matchers) {
    if (m.value("match", "") != "statusCode") continue;
    const nlohmann::json s = m.value("status", nlohmann::json());
    if (s.is_array()) return {{"$oneOf", s}};
    static const std::vector<std::tuple<std::string, int, int>> classes = {
        {"info", 100, 199},        {"success", 200, 299},     {"redirect", 300, 399},
        {"clientError", 400, 499}, {"serverError", 500, 599}, {"nonError", 100, 399},
        {"error", 400, 599}};
    for (const auto& [word, lo, hi] : classes)
      if (s == word) return {{"$range", {lo, hi}}};
    throw PactError("the statusCode rule's status " + s.dump() + " is not a status class or list");
  }
  return status;
}

}  // namespace runner::pact
