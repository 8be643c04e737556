#include "commands/explore/schema_facts.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "checker/checker.h"
#include "checker/schema_files.h"

namespace runner::explore {

namespace {

using nlohmann::json;

struct SchemaNode {
  const json* schema;
  std::string file;  // relative to contracts/schemas; where its $refs resolve
};

const std::map<std::string, json>& schema_docs() {
  static const std::map<std::string, json> docs = [] {
    std::map<std::string, json> out;
    for (const auto& [name, text] : contracts::schema_files())
      out.emplace(name, json::parse(text.begin(), text.end(), nullptr, false));
    return out;
  }();
  return docs;
}

std::optional<SchemaNode> schema_resolve(const SchemaNode& from, const std::string& ref) {
  const size_t hash = ref.find('#');
  const std::string path = ref.substr(0, hash);
  const std::string fragment = hash == std::string::npos ? "" : ref.substr(hash + 1);
  std::string file = from.file;
  if (!path.empty()) {
    const size_t slash = from.file.rfind('/');
    file = (slash == std::string::npos ? "" : from.file.substr(0, slash + 1)) + path;
  }
  const auto doc = schema_docs().find(file);
  if (doc == schema_docs().end()) return std::nullopt;
  const json::json_pointer ptr(fragment);
  if (!doc->second.contains(ptr)) return std::nullopt;
  return SchemaNode{&doc->second.at(ptr), file};
}

// The node and every schema it stands for through $ref and the combinators.
void schema_expand(const SchemaNode& n, int depth, std::vector<SchemaNode>& out) {
  if (depth > 16 || !n.schema->is_object()) return;
  out.push_back(n);
  const json& s = *n.schema;
  if (s.contains("$ref") && s["$ref"].is_string()) {
    if (auto target = schema_resolve(n, s["$ref"].get<std::string>()))
      schema_expand(*target, depth + 1, out);
  }
  for (const char* key : {"allOf", "anyOf", "oneOf"}) {
    if (!s.contains(key) || !s[key].is_array()) continue;
    for (const auto& branch : s[key]) schema_expand({&branch, n.file}, depth + 1, out);
  }
}

std::vector<SchemaNode> schema_children(const std::vector<SchemaNode>& nodes,
                                        const std::string& token) {
  std::vector<SchemaNode> out;
  const bool index = !token.empty() && std::all_of(token.begin(), token.end(), ::isdigit);
  for (const auto& n : nodes) {
    const json& s = *n.schema;
    std::vector<SchemaNode> direct;
    if (s.contains("properties") && s["properties"].contains(token))
      direct.push_back({&s["properties"][token], n.file});
    else if (s.contains("additionalProperties") && s["additionalProperties"].is_object())
      direct.push_back({&s["additionalProperties"], n.file});
    if (index && s.contains("items") && s["items"].is_object())
      direct.push_back({&s["items"], n.file});
    for (const auto& d : direct) schema_expand(d, 0, out);
  }
  return out;
}

std::vector<std::string> schema_tokens(const std::string& pointer) {
  std::vector<std::string> out;
  json::json_pointer p(pointer);
  while (!p.empty()) {
    out.insert(out.begin(), p.back());
    p.pop_back();
  }
  return out;
}

void schema_merge_bounds(const json& s, ValueRules& r) {
  if (s.contains("maxLength") && s["maxLength"].is_number_unsigned())
    r.max_length = std::min(r.max_length.value_or(SIZE_MAX), s["maxLength"].get<size_t>());
  if (s.contains("minLength") && s["minLength"].is_number_unsigned())
    r.min_length = std::max(r.min_length.value_or(0), s["minLength"].get<size_t>());
  for (const auto& [key, exclusive] : {std::pair{"maximum", false}, {"exclusiveMaximum", true}}) {
    if (!s.contains(key) || !s[key].is_number()) continue;
    r.maximum = s[key].get<double>();
    r.exclusive_maximum = exclusive;
  }
  for (const auto& [key, exclusive] : {std::pair{"minimum", false}, {"exclusiveMinimum", true}}) {
    if (!s.contains(key) || !s[key].is_number()) continue;
    r.minimum = s[key].get<double>();
    r.exclusive_minimum = exclusive;
  }
}

void schema_add(std::vector<std::string>& to, const std::string& name) {
  if (std::find(to.begin(), to.end(), name) == to.end()) to.push_back(name);
}

// What the value is: its types, format, pattern and const, as any branch says.
void schema_merge_kind(const json& s, ValueRules& r) {
  if (s.contains("type") && s["type"].is_string()) schema_add(r.types, s["type"]);
  if (s.contains("type") && s["type"].is_array())
    for (const auto& t : s["type"])
      if (t.is_string()) schema_add(r.types, t);
  if (r.format.empty() && s.contains("format") && s["format"].is_string()) r.format = s["format"];
  if (r.pattern.empty() && s.contains("pattern") && s["pattern"].is_string())
    r.pattern = s["pattern"];
  if (!r.constant && s.contains("const")) r.constant = s["const"];
  if (s.contains("additionalProperties") && s["additionalProperties"].is_object()) r.map = true;
}

void schema_merge(const json& s, ValueRules& r) {
  r.known = true;
  if (r.enums.empty() && s.contains("enum") && s["enum"].is_array())
    r.enums.assign(s["enum"].begin(), s["enum"].end());
  schema_merge_bounds(s, r);
  schema_merge_kind(s, r);
  if (s.contains("additionalProperties") && s["additionalProperties"] == false) r.closed = true;
  auto add = schema_add;
  if (s.contains("required") && s["required"].is_array())
    for (const auto& name : s["required"])
      if (name.is_string()) add(r.required, name.get<std::string>());
  if (s.contains("properties") && s["properties"].is_object())
    for (auto it = s["properties"].begin(); it != s["properties"].end(); ++it)
      if (it.value() != false) add(r.properties, it.key());
}

std::string swap_first_case(std::string s) {
  const auto c = static_cast<unsigned char>(s[0]);
  s[0] = static_cast<char>(std::isupper(c) ? std::tolower(c) : std::toupper(c));
  return s;
}

json number_like(double v, const json& current) {
  if (current.is_number_integer() && v == static_cast<double>(static_cast<long long>(v)))
    return static_cast<long long>(v);
  return v;
}

}  // namespace

std::string request_schema_name(const std::string& method, const std::string& path) {
  const auto checker = contracts::Checker::embedded(contracts::Profile::kStrict);
  return checker->request_schema(method, path).value_or("");
}

ValueRules value_rules(const std::string& schema, const std::string& pointer) {
  ValueRules r;
  const auto doc = schema_docs().find(schema + ".json");
  if (doc == schema_docs().end() || !doc->second.is_object()) return r;
  std::vector<SchemaNode> nodes;
  schema_expand({&doc->second, doc->first}, 0, nodes);
  for (const auto& token : schema_tokens(pointer)) nodes = schema_children(nodes, token);
  for (const auto& n : nodes) schema_merge(*n.schema, r);
  return r;
}

std::vector<Outside> just_outside(const ValueRules& rules, const json& current) {
  std::vector<Outside> out;
  for (const auto& e : rules.enums) {
    if (!e.is_string() || e.get<std::string>().empty()) continue;
    std::string near = swap_first_case(e.get<std::string>());
    if (std::find(rules.enums.begin(), rules.enums.end(), json(near)) != rules.enums.end())
      near = e.get<std::string>().substr(0, e.get<std::string>().size() - 1);
    if (std::find(rules.enums.begin(), rules.enums.end(), json(near)) == rules.enums.end())
      out.push_back({near, "enum " + e.dump()});
  }
  if (current.is_string() && rules.max_length)
    out.push_back({std::string(*rules.max_length + 1, 'x'),
                   "maxLength " + std::to_string(*rules.max_length)});
  if (current.is_string() && rules.min_length.value_or(0) > 0)
    out.push_back({std::string(*rules.min_length - 1, 'x'),
                   "minLength " + std::to_string(*rules.min_length)});
  if (current.is_number() && rules.maximum)
    out.push_back({number_like(*rules.maximum + (rules.exclusive_maximum ? 0 : 1), current),
                   (rules.exclusive_maximum ? "exclusiveMaximum " : "maximum ") +
                       number_like(*rules.maximum, 1).dump()});
  // A pattern's value with a space after it: every pattern the schemas name
  // (URLs, dates, currency codes, record ids) is anchored and takes no space.
  if (current.is_string() && !rules.pattern.empty())
    out.push_back({current.get<std::string>() + " ", "pattern " + rules.pattern});
  if (current.is_number() && rules.minimum)
    out.push_back({number_like(*rules.minimum - (rules.exclusive_minimum ? 0 : 1), current),
                   (rules.exclusive_minimum ? "exclusiveMinimum " : "minimum ") +
                       number_like(*rules.minimum, 1).dump()});
  return out;
}

namespace {

bool schema_has_type(const ValueRules& r, const char* type) {
  return std::find(r.types.begin(), r.types.end(), type) != r.types.end();
}

// A number the bounds allow: the smallest of a few amounts above the minimum.
json schema_number(const ValueRules& r, Rng& rng) {
  static const std::vector<int> amounts = {1, 5, 25, 100, 250};
  double v = rng.pick(amounts);
  if (r.minimum && v <= *r.minimum) v = *r.minimum + 1;
  if (r.maximum && v >= *r.maximum) v = *r.maximum - (r.exclusive_maximum ? 1 : 0);
  return number_like(v, 1);
}

// A text within the lengths: "Explore <name> <tag>", cut or padded.
json schema_text(const ValueRules& r, const std::string& name, const std::string& tag) {
  std::string t = "Explore " + name + " " + tag;
  if (r.max_length && t.size() > *r.max_length) t.resize(*r.max_length);
  if (r.min_length && t.size() < *r.min_length) t.append(*r.min_length - t.size(), 'x');
  return t;
}

json schema_string(const ValueRules& r, const std::string& name, const std::string& tag) {
  if (r.format == "uri") return "https://shop.example/" + name + "/" + tag;
  if (r.format == "date") return "2027-03-01";
  if (!r.pattern.empty()) return nullptr;  // a value of the target's: a fact's
  return schema_text(r, name, tag);
}

}  // namespace

json schema_value(const std::string& schema, const std::string& pointer, Rng& rng,
                  const std::string& tag) {
  const ValueRules r = value_rules(schema, pointer);
  if (!r.known) return nullptr;
  if (r.constant) return *r.constant;
  if (!r.enums.empty()) return rng.pick(r.enums);
  const std::string name = pointer.substr(pointer.rfind('/') + 1);
  if (schema_has_type(r, "boolean")) return rng.chance(50);
  if (schema_has_type(r, "number") || schema_has_type(r, "integer")) return schema_number(r, rng);
  if (schema_has_type(r, "string")) return schema_string(r, name, tag);
  if (!schema_has_type(r, "object") || r.map) return r.map ? json::object() : json();
  json out = json::object();
  for (const auto& member : r.required) {
    json v = schema_value(schema, pointer + "/" + member, rng, tag);
    if (v.is_null()) return nullptr;  // a required member the schema cannot give
    out[member] = std::move(v);
  }
  return out;
}

}  // namespace runner::explore
