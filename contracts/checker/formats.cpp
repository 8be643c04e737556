#include "formats.h"

#include <map>
#include <string>

#include "schema_walk.h"

namespace contracts::core {
namespace {

using nlohmann::json;

// ECMAScript regexes, whole-string, for formats of draft-07 section 7.3 whose
// grammar is regular. Checked against the JSON-Schema-Test-Suite's
// optional/format cases (test_suite_test.cpp).
const std::map<std::string, std::string>& patterns() {
  static const std::map<std::string, std::string> kPatterns = {
      // RFC 5322 leaves much open; one "@" between non-empty parts, as ajv-formats' fast mode.
      {"email", R"re(^[^\s@]+@[^\s@]+$)re"},
      // RFC 1123: labels of 1-63 letters, digits, hyphens, not starting or ending with a hyphen.
      {"hostname",
       R"re(^(?=.{1,253}\.?$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$)re"},
      // RFC 2673 dotted quad, no leading zeros.
      {"ipv4",
       R"re(^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$)re"},
      // RFC 6901: "~" only as "~0" or "~1".
      {"json-pointer", R"re(^(?:/(?:[^~/]|~[01])*)*$)re"},
      {"relative-json-pointer", R"re(^(?:0|[1-9][0-9]*)(?:#|(?:/(?:[^~/]|~[01])*)*)$)re"},
      // RFC 6570: braces balanced and not nested.
      {"uri-template", R"re(^(?:[^{}]|\{[^{}]*\})*$)re"},
  };
  return kPatterns;
}

void walk(json& node, const std::string& ptr) {
  if (!node.is_object() || node.contains("$ref")) return;
  for_each_subschema(node, ptr,
                     [](json& child, const std::string& child_ptr) { walk(child, child_ptr); });
  for (const char* moved : {kBundleKey, kPropertyNamesKey}) {
    auto it = node.find(moved);
    if (it == node.end()) continue;
    if (std::string(moved) == kBundleKey) {
      for (auto& [n, doc] : it->items()) walk(doc, ptr + "/" + moved + "/" + n);
    } else {
      walk(*it, ptr + "/" + moved);
    }
  }
  auto format = node.find("format");
  if (format == node.end() || !format->is_string()) return;
  auto pattern = patterns().find(format->get<std::string>());
  if (pattern == patterns().end()) return;
  json branch = {{"pattern", pattern->second}, {kFormatKey, pattern->first}};
  auto all_of = node.find("allOf");
  if (all_of != node.end() && all_of->is_array()) {
    all_of->push_back(std::move(branch));
  } else if (all_of == node.end()) {
    node["allOf"] = json::array({std::move(branch)});
  }
}

}  // namespace

void assert_formats(nlohmann::json& document) {
  walk(document, "");
}

}  // namespace contracts::core
