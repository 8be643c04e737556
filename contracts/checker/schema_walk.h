#pragma once
// Which members of a draft-07 schema object are themselves schemas. Walking
// only these keeps "$ref"/"$id" inside "const", "enum" or a property that is
// merely named "$ref" from being mistaken for keywords.
#include <string>

#include <nlohmann/json.hpp>

#include "uri.h"

namespace contracts::core {

// Where bundle() keeps the documents a root references.
inline constexpr const char* kBundleKey = "x-bundle";
// Where bundle() moves each "propertyNames" subschema (see bundle.cpp).
inline constexpr const char* kPropertyNamesKey = "x-property-names";

// Calls fn(child, child_pointer) for every direct subschema of `node` (an
// object); `Json` is nlohmann::json or const nlohmann::json.
template <typename Json, typename Fn>
void for_each_subschema(Json& node, const std::string& ptr, Fn&& fn) {
  static const char* const kSingle[] = {"additionalItems",
                                        "additionalProperties",
                                        "contains",
                                        "propertyNames",
                                        "not",
                                        "if",
                                        "then",
                                        "else"};
  static const char* const kLists[] = {"allOf", "anyOf", "oneOf"};
  static const char* const kMaps[] = {"properties", "patternProperties", "definitions",
                                      "dependencies"};
  for (const char* key : kSingle) {
    auto it = node.find(key);
    if (it != node.end()) fn(*it, uri::pointer_append(ptr, key));
  }
  auto items = node.find("items");
  if (items != node.end()) {
    if (items->is_array()) {
      for (size_t i = 0; i < items->size(); ++i) {
        fn((*items)[i], ptr + "/items/" + std::to_string(i));
      }
    } else {
      fn(*items, ptr + "/items");
    }
  }
  for (const char* key : kLists) {
    auto it = node.find(key);
    if (it == node.end() || !it->is_array()) continue;
    for (size_t i = 0; i < it->size(); ++i) {
      fn((*it)[i], uri::pointer_append(ptr, key) + "/" + std::to_string(i));
    }
  }
  for (const char* key : kMaps) {
    auto it = node.find(key);
    if (it == node.end() || !it->is_object()) continue;
    for (auto member = it->begin(); member != it->end(); ++member) {
      fn(member.value(), uri::pointer_append(uri::pointer_append(ptr, key), member.key()));
    }
  }
}

}  // namespace contracts::core
