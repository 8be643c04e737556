#include "locate.h"

#include <cmath>
#include <regex>

#include "uri.h"

namespace contracts::core {
namespace {

using nlohmann::json;

bool regex_finds(const std::string& pattern, const std::string& text) {
  try {
    return std::regex_search(text, std::regex(pattern, std::regex::ECMAScript));
  } catch (const std::regex_error&) {
    return false;
  }
}

bool type_is(const std::string& type, const json& v) {
  if (type == "integer") {
    return v.is_number_integer() ||
           (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>());
  }
  if (type == "number") return v.is_number();
  if (type == "string") return v.is_string();
  if (type == "boolean") return v.is_boolean();
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "null") return v.is_null();
  return false;
}

bool matches_type(const json& type, const json& v) {
  if (type.is_string()) return type_is(type.get<std::string>(), v);
  if (type.is_array()) {
    for (const json& t : type) {
      if (t.is_string() && type_is(t.get<std::string>(), v)) return true;
    }
  }
  return false;
}

double number(const json& v) {
  return v.is_number() ? v.get<double>() : 0.0;
}

std::string ref_target(const std::string& ref) {
  std::string out;
  for (const std::string& token : uri::pointer_tokens(ref.substr(1))) {
    out = uri::pointer_append(out, uri::percent_decode(token));
  }
  return out;
}

}  // namespace

const json* value_at(const json& root, const Path& path, size_t depth) {
  const json* v = &root;
  for (size_t i = 0; i < depth && i < path.size(); ++i) {
    if (v->is_object()) {
      auto it = v->find(path[i]);
      if (it == v->end()) return nullptr;
      v = &*it;
    } else if (v->is_array()) {
      size_t index = 0;
      try {
        index = std::stoul(path[i]);
      } catch (const std::exception&) {
        return nullptr;
      }
      if (index >= v->size()) return nullptr;
      v = &(*v)[index];
    } else {
      return nullptr;
    }
  }
  return v;
}

size_t code_points(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// Properties of `value` that neither "properties" nor "patternProperties" of `node` name.
std::vector<std::string> undeclared(const json& node, const json& value) {
  std::vector<std::string> out;
  if (!value.is_object()) return out;
  const json empty = json::object();
  const json& props = node.contains("properties") ? node["properties"] : empty;
  const json& patterns = node.contains("patternProperties") ? node["patternProperties"] : empty;
  for (auto it = value.begin(); it != value.end(); ++it) {
    if (props.is_object() && props.contains(it.key())) continue;
    bool matched = false;
    if (patterns.is_object()) {
      for (auto p = patterns.begin(); p != patterns.end() && !matched; ++p) {
        matched = regex_finds(p.key(), it.key());
      }
    }
    if (!matched) out.push_back(it.key());
  }
  return out;
}

// Whether `keyword` of schema `node` rejects `value`; true when it cannot tell.
bool keyword_fails(const json& node, const std::string& keyword, const json* value,
                   const std::string& detail) {
  if (!value) return true;
  const json& k = node[keyword];
  const json& v = *value;
  if (keyword == "type") return !matches_type(k, v);
  if (keyword == "enum") {
    if (!k.is_array()) return true;
    for (const json& option : k) {
      if (option == v) return false;
    }
    return true;
  }
  if (keyword == "const") return k != v;
  if (keyword == "required") {
    if (!k.is_array() || !v.is_object()) return false;
    for (const json& name : k) {
      if (name == detail) return !v.contains(detail);
    }
    return false;
  }
  if (keyword == "pattern") return v.is_string() && k.is_string() && !regex_finds(k, v);
  if (keyword == "minLength") return v.is_string() && code_points(v) < number(k);
  if (keyword == "maxLength") return v.is_string() && code_points(v) > number(k);
  if (keyword == "minItems") return v.is_array() && v.size() < number(k);
  if (keyword == "maxItems") return v.is_array() && v.size() > number(k);
  if (keyword == "minProperties") return v.is_object() && v.size() < number(k);
  if (keyword == "maxProperties") return v.is_object() && v.size() > number(k);
  if (keyword == "minimum") return v.is_number() && number(v) < number(k);
  if (keyword == "maximum") return v.is_number() && number(v) > number(k);
  if (keyword == "exclusiveMinimum") return v.is_number() && number(v) <= number(k);
  if (keyword == "exclusiveMaximum") return v.is_number() && number(v) >= number(k);
  if (keyword == "additionalProperties") return k == false && !undeclared(node, v).empty();
  // A wrapper that gave no detail: most likely a "false" subschema.
  if (keyword == "properties") return k.is_object() && k.contains(detail) && k[detail] == false;
  return true;
}

// Finds the schema objects (bundled pointers) that apply to one instance location.
std::vector<std::string> Locator::nodes_at(const Path& path) {
  std::vector<std::string> out;
  visited_.clear();
  collect("", path, 0, out);
  return out;
}

const json* Locator::node(const std::string& ptr) const {
  try {
    return &schema_.at(json::json_pointer(ptr));
  } catch (const json::exception&) {
    return nullptr;
  }
}

void Locator::collect(const std::string& ptr, const Path& path, size_t depth,
                      std::vector<std::string>& out) {
  if (!visited_.insert({ptr, depth}).second) return;
  const json* n = node(ptr);
  if (!n) return;
  if (!n->is_object()) {
    if (depth == path.size()) out.push_back(ptr);
    return;
  }
  auto ref = n->find("$ref");
  if (ref != n->end()) {
    if (ref->is_string() && !ref->get<std::string>().empty()) {
      collect(ref_target(ref->get<std::string>()), path, depth, out);
    }
    return;
  }
  if (depth == path.size()) out.push_back(ptr);
  static const char* const kInPlace[] = {"allOf", "anyOf", "oneOf"};
  for (const char* key : kInPlace) {
    auto it = n->find(key);
    if (it == n->end() || !it->is_array()) continue;
    for (size_t i = 0; i < it->size(); ++i) {
      collect(ptr + "/" + key + "/" + std::to_string(i), path, depth, out);
    }
  }
  for (const char* key : {"not", "if", "then", "else"}) {
    if (n->contains(key)) collect(ptr + "/" + key, path, depth, out);
  }
  auto deps = n->find("dependencies");
  if (deps != n->end() && deps->is_object()) {
    for (auto it = deps->begin(); it != deps->end(); ++it) {
      if (it->is_object())
        collect(uri::pointer_append(ptr + "/dependencies", it.key()), path, depth, out);
    }
  }
  if (depth < path.size()) step(*n, ptr, path, depth, out);
}

void Locator::step(const json& n, const std::string& ptr, const Path& path, size_t depth,
                   std::vector<std::string>& out) {
  const json* parent = value_at(instance_, path, depth);
  const std::string& token = path[depth];
  if (!parent || parent->is_object()) {
    bool declared = false;
    auto props = n.find("properties");
    if (props != n.end() && props->is_object() && props->contains(token)) {
      declared = true;
      collect(uri::pointer_append(ptr + "/properties", token), path, depth + 1, out);
    }
    auto patterns = n.find("patternProperties");
    if (patterns != n.end() && patterns->is_object()) {
      for (auto it = patterns->begin(); it != patterns->end(); ++it) {
        if (!regex_finds(it.key(), token)) continue;
        declared = true;
        collect(uri::pointer_append(ptr + "/patternProperties", it.key()), path, depth + 1, out);
      }
    }
    if (!declared && n.contains("additionalProperties")) {
      collect(ptr + "/additionalProperties", path, depth + 1, out);
    }
  }
  if (!parent || parent->is_array()) {
    size_t index = 0;
    try {
      index = std::stoul(token);
    } catch (const std::exception&) {
      return;
    }
    auto items = n.find("items");
    if (items != n.end() && items->is_array()) {
      if (index < items->size()) {
        collect(ptr + "/items/" + std::to_string(index), path, depth + 1, out);
      } else if (n.contains("additionalItems")) {
        collect(ptr + "/additionalItems", path, depth + 1, out);
      }
    } else if (items != n.end()) {
      collect(ptr + "/items", path, depth + 1, out);
    }
    if (n.contains("contains")) collect(ptr + "/contains", path, depth + 1, out);
  }
}

}  // namespace contracts::core
