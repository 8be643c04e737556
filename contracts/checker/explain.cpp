#include "explain.h"

#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "formats.h"
#include "locate.h"
#include "schema_walk.h"
#include "uri.h"

namespace contracts::core {
namespace {

using nlohmann::json;

enum class Kind { kLeaf, kWrapper, kNoise };
// Where a wrapper's own failure (one child rejected) sits relative to its path.
enum class Child { kNone, kSame, kIndex, kName, kAnyBelow };

struct Pattern {
  const char* prefix;
  const char* keyword;
  Kind kind;
  Child child;
};

// valijson 1.0's sentences, longest prefix first where two share a start.
const Pattern kPatterns[] = {
    {"Target value and comparison value are not equal", "", Kind::kNoise, Child::kNone},
    {"Failed to validate against child schema #", "", Kind::kNoise, Child::kNone},
    {"Failed to validate against any schemas allowed by anyOf", "anyOf", Kind::kLeaf, Child::kNone},
    {"Failed to validate against a conditional schema", "if", Kind::kLeaf, Child::kNone},
    {"Failed to match expected value set by 'const'", "const", Kind::kLeaf, Child::kNone},
    {"Failed to any values against subschema in 'contains'", "contains", Kind::kLeaf, Child::kNone},
    {"Missing dependency '", "dependencies", Kind::kLeaf, Child::kNone},
    {"Failed to validate against dependent schema", "dependencies", Kind::kLeaf, Child::kNone},
    {"Failed to match against any enum values", "enum", Kind::kLeaf, Child::kNone},
    {"String should be a valid", "format", Kind::kLeaf, Child::kNone},
    {"Array contains more items than allowed", "additionalItems", Kind::kLeaf, Child::kNone},
    {"Cannot validate item #", "additionalItems", Kind::kLeaf, Child::kNone},
    {"Expected number less than or equal to", "maximum", Kind::kLeaf, Child::kNone},
    {"Expected number less than", "exclusiveMaximum", Kind::kLeaf, Child::kNone},
    {"Expected number greater than or equal to", "minimum", Kind::kLeaf, Child::kNone},
    {"Expected number greater than", "exclusiveMinimum", Kind::kLeaf, Child::kNone},
    {"Array should contain no more than", "maxItems", Kind::kLeaf, Child::kNone},
    {"String should be no more than", "maxLength", Kind::kLeaf, Child::kNone},
    {"Object should have no more than", "maxProperties", Kind::kLeaf, Child::kNone},
    {"Array should contain no fewer than", "minItems", Kind::kLeaf, Child::kNone},
    {"String should be no fewer than", "minLength", Kind::kLeaf, Child::kNone},
    {"Object should have no fewer than", "minProperties", Kind::kLeaf, Child::kNone},
    {"Value should be a multiple of", "multipleOf", Kind::kLeaf, Child::kNone},
    {"Value could not be converted", "multipleOf", Kind::kLeaf, Child::kNone},
    {"Target should not validate against schema specified in 'not'", "not", Kind::kLeaf,
     Child::kNone},
    {"Failed to validate against any child schemas allowed by oneOf", "oneOf", Kind::kLeaf,
     Child::kNone},
    {"Failed to validate against exactly one child schema", "oneOf", Kind::kLeaf, Child::kNone},
    {"Failed to match regex specified by 'pattern'", "pattern", Kind::kLeaf, Child::kNone},
    {"Object contains a property that could not be validated", "additionalProperties", Kind::kLeaf,
     Child::kNone},
    {"Failed to validate against additional properties schema", "additionalProperties",
     Kind::kWrapper, Child::kAnyBelow},
    {"Value type not permitted by 'type'", "type", Kind::kLeaf, Child::kNone},
    {"Elements at indexes #", "uniqueItems", Kind::kLeaf, Child::kNone},
    {"Missing required property '", "required", Kind::kLeaf, Child::kNone},
    {"Failed to validate against schema associated with pattern '", "patternProperties",
     Kind::kWrapper, Child::kAnyBelow},
    {"Failed to validate against schema associated with property name '", "properties",
     Kind::kWrapper, Child::kName},
};

struct Parsed {
  Path path;
  std::string keyword;
  Kind kind = Kind::kLeaf;
  Child child = Child::kNone;
  std::string detail;  // the quoted name or the item number
  std::string description;
};

std::string quoted(const std::string& s) {
  size_t first = s.find('\'');
  size_t last = s.rfind('\'');
  if (first == std::string::npos || last <= first) return "";
  return s.substr(first + 1, last - first - 1);
}

std::string item_number(const std::string& s) {
  size_t hash = s.find('#');
  if (hash == std::string::npos) return "";
  size_t end = s.find_first_not_of("0123456789", hash + 1);
  return s.substr(hash + 1, end == std::string::npos ? end : end - hash - 1);
}

Parsed parse(const RawError& e) {
  Parsed p;
  p.description = e.description;
  for (size_t i = 1; i < e.context.size(); ++i) {
    const std::string& c = e.context[i];
    p.path.push_back(
        c.size() >= 2 && c.front() == '[' && c.back() == ']' ? c.substr(1, c.size() - 2) : c);
  }
  const std::string& d = e.description;
  if (d.rfind("Failed to validate item #", 0) == 0) {
    p.kind = Kind::kWrapper;
    p.detail = item_number(d);
    if (d.find("corresponding item schema") != std::string::npos) {
      p.keyword = "items";
      p.child = Child::kSame;
    } else {
      p.keyword = d.find("additional items") != std::string::npos ? "additionalItems" : "items";
      p.child = Child::kIndex;
    }
    return p;
  }
  for (const Pattern& pattern : kPatterns) {
    if (d.rfind(pattern.prefix, 0) != 0) continue;
    p.keyword = pattern.keyword;
    p.kind = pattern.kind;
    p.child = pattern.child;
    if (p.keyword == "required" || p.keyword == "additionalProperties" ||
        p.keyword == "properties" || p.keyword == "dependencies") {
      p.detail = quoted(d);
    }
    return p;
  }
  p.keyword = "(unknown)";
  return p;
}

bool is_prefix(const Path& prefix, const Path& path, bool strict) {
  if (prefix.size() > path.size() || (strict && prefix.size() == path.size())) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (prefix[i] != path[i]) return false;
  }
  return true;
}

std::string to_pointer(const Path& path) {
  std::string out;
  for (const std::string& token : path) out = uri::pointer_append(out, token);
  return out;
}

std::string short_dump(const json& v) {
  std::string s = v.dump();
  if (s.size() > 120) s = s.substr(0, 117) + "...";
  return s;
}

std::string display_location(const Bundle& bundle, const UriDisplay& display,
                             const std::string& ptr) {
  size_t doc = 0;
  std::string rest = ptr;
  const std::string prefix = "/" + std::string(kBundleKey) + "/";
  if (ptr.rfind(prefix, 0) == 0) {
    size_t slash = ptr.find('/', prefix.size());
    doc = std::stoul(
        ptr.substr(prefix.size(), slash == std::string::npos ? slash : slash - prefix.size()));
    rest = slash == std::string::npos ? "" : ptr.substr(slash);
  }
  // bundle() moved each "propertyNames" subschema; show it where it is written.
  const std::string moved = "/" + std::string(kPropertyNamesKey);
  for (size_t at = rest.find(moved); at != std::string::npos; at = rest.find(moved, at)) {
    bool whole_token = at + moved.size() == rest.size() || rest[at + moved.size()] == '/';
    if (whole_token) rest.replace(at, moved.size(), "/propertyNames");
    at += 1;
  }
  const std::string& uri = bundle.doc_uris.at(doc);
  return (display ? display(uri) : uri) + "#" + rest;
}

std::string names_of(const json& node, const char* key) {
  std::string out;
  auto it = node.find(key);
  if (it == node.end() || !it->is_object()) return out;
  for (auto m = it->begin(); m != it->end(); ++m) out += (out.empty() ? "" : ", ") + m.key();
  return out;
}

// Expected and actual for one keyword of `node` (may be null) and the value.
std::pair<std::string, std::string> describe(const Parsed& p, const json* node, const json* value) {
  const std::string& k = p.keyword;
  std::string actual = value ? short_dump(*value) : "(absent)";
  json kv = node && node->contains(k) ? (*node)[k] : json();
  if (k == "type") return {short_dump(kv), value ? json_type_name(*value) + " " + actual : actual};
  if (k == "enum") return {"one of " + short_dump(kv), actual};
  if (k == "const") return {short_dump(kv), actual};
  if (k == "required") return {"property \"" + p.detail + "\"", "absent"};
  if (k == "pattern") return {"a string matching " + short_dump(kv), actual};
  if (k == "format") return {"format " + short_dump(kv), actual};
  if (k == "minLength" || k == "maxLength") {
    std::string length = value && value->is_string() ? std::to_string(code_points(*value)) : "?";
    return {k + " " + short_dump(kv), actual + " (length " + length + ")"};
  }
  if (k == "minItems" || k == "maxItems" || k == "minProperties" || k == "maxProperties") {
    std::string size = value ? std::to_string(value->size()) : "?";
    return {k + " " + short_dump(kv),
            size + (k.find("Items") != std::string::npos ? " items" : " properties")};
  }
  if (k == "anyOf")
    return {"to match at least one of " + std::to_string(kv.size()) + " subschemas",
            "matched none"};
  if (k == "oneOf") {
    bool none = p.description.find("any child") != std::string::npos;
    return {"to match exactly one of " + std::to_string(kv.size()) + " subschemas",
            none ? "matched none" : "matched more than one"};
  }
  if (k == "not") return {"not to match the \"not\" subschema", "matched it"};
  if (k == "if") return {"to match the \"then\"/\"else\" subschema that \"if\" selects", "did not"};
  if (k == "contains") return {"an item matching \"contains\"", "none"};
  if (k == "uniqueItems") return {"unique items", p.description};
  if (k == "dependencies")
    return {p.detail.empty() ? "the dependent schema" : "property \"" + p.detail + "\"", "absent"};
  if (kv.is_null()) return {p.description, actual};
  return {k + " " + short_dump(kv), actual};
}

Violation make(const Bundle& bundle, const UriDisplay& display, const Parsed& p, const Path& path,
               const std::string& node_ptr, const json* node, const json* value,
               const std::string& message_detail) {
  Violation v;
  v.pointer = to_pointer(path);
  v.keyword = p.keyword;
  if (node) {
    v.schema_location = display_location(bundle, display, node_ptr) + "/" + p.keyword;
  }
  auto [expected, actual] = describe(p, node, value);
  v.expected = expected;
  v.actual = actual;
  v.message = (v.pointer.empty() ? std::string("(root)") : v.pointer) + ": " +
              (message_detail.empty() ? p.keyword + ": expected " + expected + "; got " + actual
                                      : message_detail);
  return v;
}

}  // namespace

std::string json_type_name(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return "boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return "integer";
    case json::value_t::number_float:
      return "number";
    case json::value_t::string:
      return "string";
    case json::value_t::array:
      return "array";
    case json::value_t::object:
      return "object";
    default:
      return "unknown";
  }
}

namespace {

// Every property name, at `path` or below, that a "propertyNames" subschema
// applying there rejects.
void name_failures(const Bundle& bundle, const UriDisplay& display, const NameCheck& names,
                   Locator& locator, const json& value, Path& path, std::vector<Violation>& out) {
  if (value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i) {
      path.push_back(std::to_string(i));
      name_failures(bundle, display, names, locator, value[i], path, out);
      path.pop_back();
    }
    return;
  }
  if (!value.is_object()) return;
  for (const std::string& ptr : locator.nodes_at(path)) {
    const json* node = locator.node(ptr);
    if (!node || !node->is_object() || !node->contains(kPropertyNamesKey)) continue;
    const std::string location = uri::pointer_append(ptr, kPropertyNamesKey);
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (names(location, it.key())) continue;
      Violation v;
      path.push_back(it.key());
      v.pointer = to_pointer(path);
      path.pop_back();
      v.keyword = "propertyNames";
      v.schema_location = display_location(bundle, display, ptr) + "/propertyNames";
      v.expected = "a name matching " + short_dump((*node)[kPropertyNamesKey]);
      v.actual = "property \"" + it.key() + "\"";
      v.message = v.pointer + ": propertyNames: expected " + v.expected + "; got " + v.actual;
      out.push_back(std::move(v));
    }
  }
  for (auto it = value.begin(); it != value.end(); ++it) {
    path.push_back(it.key());
    name_failures(bundle, display, names, locator, it.value(), path, out);
    path.pop_back();
  }
}

// valijson's errors split into leaves (a keyword that failed) and the
// wrappers ("a child failed") that no leaf below explains.
struct SortedErrors {
  std::vector<Parsed> leaves;
  bool unexplained = false;  // some wrapper had no leaf below it
};

SortedErrors sort_errors(const std::vector<RawError>& errors) {
  SortedErrors sorted;
  std::vector<Parsed> wrappers;
  for (const RawError& e : errors) {
    Parsed p = parse(e);
    if (p.kind == Kind::kNoise) continue;
    (p.kind == Kind::kWrapper ? wrappers : sorted.leaves).push_back(std::move(p));
  }
  // A wrapper only says "a child failed"; it matters only when no child said why.
  for (Parsed& w : wrappers) {
    Path child = w.path;
    if (w.child == Child::kName || w.child == Child::kIndex) child.push_back(w.detail);
    bool explained = false;
    for (const Parsed& leaf : sorted.leaves) {
      explained = explained || is_prefix(child, leaf.path, w.child == Child::kAnyBelow);
    }
    if (!explained) {
      sorted.unexplained = true;
      sorted.leaves.push_back(w);
    }
  }
  return sorted;
}

// Turns the sorted errors into violations, each pointing at the schema node
// that failed.
class Explainer {
 public:
  Explainer(const Bundle& bundle, const UriDisplay& display, const json& instance)
      : bundle_(bundle),
        display_(display),
        instance_(instance),
        locator_(bundle.document, instance) {}

  std::vector<Violation> run(const SortedErrors& sorted, const NameCheck& names) {
    // valijson says nothing when "propertyNames" rejects a name; only a wrapper
    // above it shows, or nothing at all at the root. Such names are found by
    // asking each property-name subschema that applies.
    if (sorted.unexplained || sorted.leaves.empty()) {
      Path root;
      name_failures(bundle_, display_, names, locator_, instance_, root, out_);
    }
    named_ = out_.size();
    for (const Parsed& p : sorted.leaves) explain_one(p);
    return unique();
  }

 private:
  struct Chosen {
    std::string pointer;
    const json* node = nullptr;
  };

  bool names_below(const Path& at) const {
    const std::string prefix = to_pointer(at) + "/";
    for (size_t i = 0; i < named_; ++i) {
      if (out_[i].pointer.rfind(prefix, 0) == 0) return true;
    }
    return false;
  }

  // Identical failures of different subschemas (two branches of a oneOf, say)
  // are told apart by handing each the next subschema not yet named.
  Chosen choose_node(const Parsed& p, const json* value) {
    Chosen c;
    std::vector<std::string> nodes = locator_.nodes_at(p.path);
    auto& taken = used_[{p.path, p.keyword, p.detail}];
    // Pass 0: the keyword fails there and no other violation has that node;
    // pass 1: it fails there; pass 2: the keyword is there at all.
    for (int pass = 0; pass < 3 && !c.node; ++pass) {
      for (const std::string& ptr : nodes) {
        const json* n = locator_.node(ptr);
        if (!n || !n->is_object() || !n->contains(p.keyword)) continue;
        if (pass == 0 && taken.count(ptr)) continue;
        if (pass < 2 && !keyword_fails(*n, p.keyword, value, p.detail)) continue;
        c = {ptr, n};
        break;
      }
    }
    if (c.node) taken.insert(c.pointer);
    return c;
  }

  void explain_one(const Parsed& p) {
    const json* value = value_at(instance_, p.path, p.path.size());
    Chosen c = choose_node(p, value);
    if (p.keyword == "additionalProperties" && p.kind == Kind::kLeaf && c.node)
      return report_undeclared(p, c, value);
    if (p.kind == Kind::kWrapper) return report_wrapper(p, c);
    report_leaf(p, c, value);
  }

  // valijson names only the first stray property; report each of them.
  void report_undeclared(const Parsed& p, const Chosen& c, const json* value) {
    for (const std::string& name : undeclared(*c.node, value ? *value : json())) {
      Path at = p.path;
      at.push_back(name);
      Violation v =
          make(bundle_, display_, p, at, c.pointer, c.node, value_at(instance_, at, at.size()), "");
      v.expected = "only the declared properties (" + names_of(*c.node, "properties") + ")";
      v.actual = "property \"" + name + "\"";
      v.message =
          v.pointer + ": additionalProperties: expected " + v.expected + "; got " + v.actual;
      out_.push_back(std::move(v));
    }
  }

  void report_wrapper(const Parsed& p, const Chosen& c) {
    Path at = p.path;
    if (p.child == Child::kName || p.child == Child::kIndex) at.push_back(p.detail);
    if (names_below(at)) return;
    const json* sub = nullptr;
    if (c.node && p.keyword == "properties" && (*c.node)["properties"].contains(p.detail)) {
      sub = &(*c.node)["properties"][p.detail];
    }
    Violation v =
        make(bundle_, display_, p, at, c.pointer, c.node, value_at(instance_, at, at.size()), "");
    if (sub && *sub == false) {
      v.keyword = "false schema";
      v.schema_location =
          display_location(bundle_, display_, c.pointer) + "/properties/" + p.detail;
      v.expected = "property \"" + p.detail + "\" absent";
      v.message = v.pointer + ": false schema: expected " + v.expected + "; got " + v.actual;
    } else {
      v.expected = "a value its subschema accepts";
      v.message =
          v.pointer + ": " + p.keyword + ": " + p.description + " (the validator gave no detail)";
    }
    out_.push_back(std::move(v));
  }

  void report_leaf(const Parsed& p, const Chosen& c, const json* value) {
    Violation v = make(bundle_, display_, p, p.path, c.pointer, c.node, value, "");
    if (c.node && c.node->contains(kFormatKey)) {
      // A format assertion the checker added (formats.h): report the format.
      const std::string parent = c.pointer.substr(0, c.pointer.rfind("/allOf/"));
      const std::string format = (*c.node)[kFormatKey].get<std::string>();
      v.keyword = "format";
      v.schema_location = display_location(bundle_, display_, parent) + "/format";
      v.expected = "format \"" + format + "\"";
      v.message = (v.pointer.empty() ? std::string("(root)") : v.pointer) + ": format: expected " +
                  v.expected + "; got " + v.actual;
    }
    out_.push_back(std::move(v));
  }

  // Branches that share a definition fail identically; once is enough.
  std::vector<Violation> unique() {
    std::vector<Violation> result;
    std::set<std::tuple<std::string, std::string, std::string>> seen;
    for (Violation& v : out_) {
      if (seen.insert({v.pointer, v.schema_location, v.message}).second)
        result.push_back(std::move(v));
    }
    return result;
  }

  const Bundle& bundle_;
  const UriDisplay& display_;
  const json& instance_;
  Locator locator_;
  std::vector<Violation> out_;
  size_t named_ = 0;  // out_[0, named_) are the property-name failures
  std::map<std::tuple<Path, std::string, std::string>, std::set<std::string>> used_;
};

}  // namespace

std::vector<Violation> explain(const Bundle& bundle, const UriDisplay& display,
                               const std::vector<RawError>& errors, const json& instance,
                               const NameCheck& names) {
  return Explainer(bundle, display, instance).run(sort_errors(errors), names);
}

}  // namespace contracts::core
