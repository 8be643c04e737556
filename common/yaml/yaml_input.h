#pragma once
// The one way the project reads YAML text (fixtures, scenarios, sandbox
// configurations, allow lists, the route table). yaml-cpp 0.7 alone is not
// safe on hostile input: LoadAll never returns on a file holding only ","
// (its parser reports an endless run of empty documents at the same place),
// it takes bytes that are not UTF-8 into scalars that later make a JSON dump
// throw, and its scalars hold numbers no double can. Everything here returns
// an error with a 1-based line and column instead.
#include <optional>
#include <string>
#include <string_view>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

namespace common {

struct YamlInputError {
  int line = 0;  // 1-based; 0 when the problem has no place
  int column = 0;
  std::string message;
  bool second_document = false;  // the text is fine but holds more than one
};

struct YamlDocument {
  YAML::Node root;  // Null for empty text
  std::optional<YamlInputError> error;
};

// Text that must be one YAML document. Refuses: bytes that are not UTF-8, a
// syntax error (where yaml-cpp found it), a second document ("---"), and text
// the parser cannot move past. Never throws, never loops.
YamlDocument load_yaml_document(std::string_view text);

// load_yaml_document's checks in one pass of the parser, handing the
// document's events to `handler` instead of building yaml-cpp nodes: half the
// parsing, for readers that build a tree of their own (fake-org's fixtures,
// read at every start). On an error the handler may have seen part of the
// text, or all of a first document before a second: discard what it built.
std::optional<YamlInputError> parse_yaml_events(std::string_view text, YAML::EventHandler& handler);

// The first byte of `text` that does not start or continue a well-formed
// UTF-8 character (overlongs, surrogates and code points past U+10FFFF
// included), or npos.
size_t first_invalid_utf8(std::string_view text);

// A plain (unquoted) scalar read by YAML 1.2's core schema: null, booleans,
// integers (beyond 64 bits: a double) and floats; anything else is text.
// With `leading_zero_is_text`, "010" stays text (no JSON number is written
// so, and error codes are). nullopt: a number no double holds (1e309).
std::optional<nlohmann::json> plain_yaml_scalar(const std::string& text, bool leading_zero_is_text);

}  // namespace common
