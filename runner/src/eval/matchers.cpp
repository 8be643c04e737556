#include "eval/matchers.h"

#include <regex>
#include <set>

#include "eval/interpolate.h"
#include "json/yaml_json.h"

namespace runner {
namespace {

const std::set<std::string>& matcher_names() {
  static const std::set<std::string> k = {"$regex",  "$type",   "$oneOf",    "$range",
                                          "$exists", "$absent", "$contains", "$each",
                                          "$length", "$eq",     "$not"};
  return k;
}

const std::set<std::string>& type_names() {
  static const std::set<std::string> k = {"string", "number", "integer", "boolean",
                                          "object", "array",  "null"};
  return k;
}

std::string cut(std::string s) {
  if (s.size() > 160) s = s.substr(0, 157) + "...";
  return s;
}

std::string type_of(const Json& v) {
  if (v.is_number_integer() || v.is_number_unsigned()) return "integer";
  if (v.is_number_float())
    return v.get<double>() == static_cast<double>(static_cast<long long>(v.get<double>()))
               ? "integer"
               : "number";
  return v.type_name();  // string, boolean, object, array, null
}

bool has_type(const Json& v, const std::string& t) {
  if (t == "number") return v.is_number();
  if (t == "integer") return v.is_number() && type_of(v) == "integer";
  return type_of(v) == t;
}

bool scalar_equal(const Json& e, const Json& a) {
  if (e.is_number() && a.is_number()) return e.get<double>() == a.get<double>();
  return e == a;
}

std::string matcher_words(const std::string& key, const Json& arg) {
  if (key == "$regex") return "a string matching /" + to_text(arg) + "/";
  if (key == "$type") {
    if (arg.is_array()) return "a value of type " + arg.dump();
    return "a value of type " + to_text(arg);
  }
  if (key == "$oneOf") {
    std::string s = "one of [";
    for (size_t i = 0; i < arg.size(); ++i) s += (i ? ", " : "") + describe_expected(arg[i]);
    return s + "]";
  }
  if (key == "$range") {
    auto end = [](const Json& v) { return v.is_null() ? std::string("..") : v.dump(); };
    return "a number in [" + end(arg.at(0)) + ", " + end(arg.at(1)) + "]";
  }
  if (key == "$exists") return arg == true ? "a value (any)" : "no value";
  if (key == "$absent") return arg == true ? "no value" : "a value (any)";
  if (key == "$contains") return "a value containing " + describe_expected(arg);
  if (key == "$each") return "an array whose every item is " + describe_expected(arg);
  if (key == "$length") return "length " + describe_expected(arg);
  if (key == "$eq") return cut(arg.dump());
  if (key == "$not") return "not " + describe_expected(arg);
  return key;
}

}  // namespace

std::string Mismatch::str() const {
  return (pointer.empty() ? "(root)" : pointer) + ": expected " + expected + ", got " + actual;
}

bool is_matcher(const Json& v) {
  if (!v.is_object() || v.empty()) return false;
  for (const auto& [k, _] : v.items())
    if (k.empty() || k[0] != '$') return false;
  return true;
}

std::string describe_expected(const Json& e) {
  if (!is_matcher(e)) return cut(e.dump());
  std::string s;
  for (const auto& [k, arg] : e.items()) s += (s.empty() ? "" : " and ") + matcher_words(k, arg);
  return s;
}

std::string describe_actual(const Json* a) {
  return a ? cut(a->dump()) : "missing";
}

namespace {

void match_into(const Json& e, const Json* a, const MatchOptions& o, const std::string& ptr,
                std::vector<Mismatch>& out);

void fail(std::vector<Mismatch>& out, const std::string& ptr, std::string expected, const Json* a) {
  out.push_back({ptr, std::move(expected), describe_actual(a)});
}

// `$contains` on an array: each wanted item must match some item. The item
// closest to a missing one (fewest mismatches) shows the field that differs
// first, instead of only the whole matcher.
void match_contains(const Json& arg, const Json& a, const MatchOptions& o, const std::string& ptr,
                    std::vector<Mismatch>& out) {
  // A list argument asks for each of its items; nest [[...]] for an array item.
  const Json wanted = arg.is_array() ? arg : Json::array({arg});
  for (const auto& w : wanted) {
    std::vector<Mismatch> closest;
    bool found = false;
    for (size_t i = 0; i < a.size() && !found; ++i) {
      auto here = match_json(w, &a[i], o, ptr + "/" + std::to_string(i));
      found = here.empty();
      if (!found && (closest.empty() || here.size() < closest.size())) closest = std::move(here);
    }
    if (found) continue;
    constexpr size_t kClosestShown = 3;
    for (size_t i = 0; i < closest.size() && i < kClosestShown; ++i) {
      Mismatch m = closest[i];
      if (i == 0)
        m.expected += " (no item of " + (ptr.empty() ? std::string("the array") : ptr) + " is " +
                      describe_expected(w) + "; this is in the closest item)";
      out.push_back(std::move(m));
    }
    if (closest.empty()) fail(out, ptr, "an array containing " + describe_expected(w), &a);
  }
}

void apply_matcher(const std::string& key, const Json& arg, const Json* a, const MatchOptions& o,
                   const std::string& ptr, std::vector<Mismatch>& out) {
  const std::string words = matcher_words(key, arg);
  if (key == "$exists" || key == "$absent") {
    bool want = (key == "$exists") == (arg == true);
    if (want != (a != nullptr)) fail(out, ptr, words, a);
    return;
  }
  if (key == "$not") {
    if (match_json(arg, a, o, ptr).empty()) fail(out, ptr, words, a);
    return;
  }
  if (key == "$oneOf") {
    for (const auto& alt : arg)
      if (match_json(alt, a, o, ptr).empty()) return;
    fail(out, ptr, words, a);
    return;
  }
  if (!a) {
    fail(out, ptr, words, a);
    return;
  }
  if (key == "$regex") {
    bool ok = false;
    try {
      ok = a->is_string() && std::regex_search(a->get<std::string>(), std::regex(to_text(arg)));
    } catch (const std::regex_error& err) {
      fail(out, ptr, words + " (invalid regular expression: " + err.what() + ")", a);
      return;
    }
    if (!ok) fail(out, ptr, words, a);
  } else if (key == "$type") {
    bool ok = false;
    if (arg.is_array()) {
      for (const auto& t : arg) ok = ok || has_type(*a, to_text(t));
    } else {
      ok = has_type(*a, to_text(arg));
    }
    if (!ok) fail(out, ptr, words + " (it is " + type_of(*a) + ")", a);
  } else if (key == "$range") {
    bool ok = a->is_number();
    if (ok && !arg.at(0).is_null()) ok = a->get<double>() >= arg.at(0).get<double>();
    if (ok && !arg.at(1).is_null()) ok = a->get<double>() <= arg.at(1).get<double>();
    if (!ok) fail(out, ptr, words, a);
  } else if (key == "$contains") {
    if (a->is_string() && arg.is_string()) {
      if (a->get<std::string>().find(arg.get<std::string>()) == std::string::npos)
        fail(out, ptr, words, a);
      return;
    }
    if (!a->is_array()) {
      fail(out, ptr, words + " (it is " + type_of(*a) + ")", a);
      return;
    }
    match_contains(arg, *a, o, ptr, out);
  } else if (key == "$each") {
    if (!a->is_array()) {
      fail(out, ptr, words + " (it is " + type_of(*a) + ")", a);
      return;
    }
    for (size_t i = 0; i < a->size(); ++i)
      match_into(arg, &(*a)[i], o, ptr + "/" + std::to_string(i), out);
  } else if (key == "$length") {
    if (!a->is_array() && !a->is_string() && !a->is_object()) {
      fail(out, ptr, words + " (it is " + type_of(*a) + ")", a);
      return;
    }
    Json len = a->is_string() ? a->get<std::string>().size() : a->size();
    if (!match_json(arg, &len, o).empty())
      fail(out, ptr, words + " (it has " + len.dump() + ")", a);
  } else if (key == "$eq") {
    if (!scalar_equal(arg, *a)) fail(out, ptr, words, a);
  }
}

void match_into(const Json& e, const Json* a, const MatchOptions& o, const std::string& ptr,
                std::vector<Mismatch>& out) {
  if (is_matcher(e)) {
    for (const auto& [k, arg] : e.items()) apply_matcher(k, arg, a, o, ptr, out);
    return;
  }
  if (!a) {
    fail(out, ptr, describe_expected(e), a);
    return;
  }
  if (e.is_object()) {
    if (!a->is_object()) {
      fail(out, ptr, "an object", a);
      return;
    }
    for (const auto& [k, ev] : e.items()) {
      auto it = a->find(k);
      match_into(ev, it == a->end() ? nullptr : &*it, o, ptr + "/" + pointer_escape(k), out);
    }
    if (o.exact) {
      for (const auto& [k, av] : a->items())
        if (!e.contains(k))
          out.push_back({ptr + "/" + pointer_escape(k), "no such key", cut(av.dump())});
    }
    return;
  }
  if (e.is_array()) {
    if (!a->is_array()) {
      fail(out, ptr, "an array", a);
      return;
    }
    if (e.size() != a->size()) {
      out.push_back({ptr, "an array of " + std::to_string(e.size()) + " items",
                     std::to_string(a->size()) + " items: " + describe_actual(a)});
      return;
    }
    for (size_t i = 0; i < e.size(); ++i)
      match_into(e[i], &(*a)[i], o, ptr + "/" + std::to_string(i), out);
    return;
  }
  if (!scalar_equal(e, *a)) fail(out, ptr, describe_expected(e), a);
}

bool is_template(const Json& v) {
  return v.is_string() && v.get<std::string>().find("${") != std::string::npos;
}

void validate_into(const Json& e, const std::string& ptr, std::vector<MatcherIssue>& out) {
  if (e.is_array()) {
    for (size_t i = 0; i < e.size(); ++i) validate_into(e[i], ptr + "/" + std::to_string(i), out);
    return;
  }
  if (!e.is_object()) return;
  bool any_dollar = false, any_plain = false;
  for (const auto& [k, _] : e.items()) (!k.empty() && k[0] == '$' ? any_dollar : any_plain) = true;
  if (!any_dollar) {
    for (const auto& [k, v] : e.items()) validate_into(v, ptr + "/" + pointer_escape(k), out);
    return;
  }
  if (any_plain) {
    out.push_back({ptr,
                   "an object mixes matcher keys ($...) with plain keys; to expect a "
                   "literal key starting with '$' use {$eq: {...}}"});
    return;
  }
  for (const auto& [k, arg] : e.items()) {
    auto issue = [&, key = k](const std::string& m) { out.push_back({ptr, key + ": " + m}); };
    if (!matcher_names().count(k)) {
      std::string known;
      for (const auto& n : matcher_names()) known += (known.empty() ? "" : ", ") + n;
      issue("unknown matcher (known: " + known + ")");
    } else if (k == "$regex") {
      if (!arg.is_string()) {
        issue("needs a string");
      } else if (!is_template(arg)) {
        try {
          std::regex re(arg.get<std::string>());
        } catch (const std::regex_error& err) {
          issue(std::string("invalid regular expression: ") + err.what());
        }
      }
    } else if (k == "$type") {
      Json names = arg.is_array() ? arg : Json::array({arg});
      // YAML reads a bare `null` as null, not the name "null": either means
      // the type null (to_text gives "null" when matching).
      for (const auto& n : names)
        if (!n.is_null() && (!n.is_string() || !type_names().count(n.get<std::string>())))
          issue("needs one of string, number, integer, boolean, object, array, null (got " +
                n.dump() + ")");
    } else if (k == "$oneOf") {
      if (!arg.is_array() || arg.empty())
        issue("needs a non-empty list of alternatives");
      else
        validate_into(arg, ptr + "/" + pointer_escape(k), out);
    } else if (k == "$range") {
      auto ok_end = [](const Json& v) { return v.is_number() || v.is_null() || is_template(v); };
      if (!arg.is_array() || arg.size() != 2 || !ok_end(arg[0]) || !ok_end(arg[1]))
        issue("needs [min, max] with numbers (null for an open end)");
    } else if (k == "$exists" || k == "$absent") {
      if (!arg.is_boolean()) issue("needs true or false");
    } else if (k == "$length") {
      if (!(arg.is_number_unsigned() || is_matcher(arg)))
        issue("needs a non-negative integer or a matcher");
      else
        validate_into(arg, ptr + "/" + pointer_escape(k), out);
    } else if (k == "$contains" || k == "$each" || k == "$not") {
      validate_into(arg, ptr + "/" + pointer_escape(k), out);
    }
  }
}

}  // namespace

std::vector<Mismatch> match_json(const Json& expected, const Json* actual,
                                 const MatchOptions& options, const std::string& pointer) {
  std::vector<Mismatch> out;
  match_into(expected, actual, options, pointer, out);
  return out;
}

std::vector<MatcherIssue> validate_expected(const Json& expected, const std::string& pointer) {
  std::vector<MatcherIssue> out;
  validate_into(expected, pointer, out);
  return out;
}

}  // namespace runner
