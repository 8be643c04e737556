#pragma once
// Internal to the generaliser (generaliser.cpp, generalise_values.cpp): what
// it has learnt so far while walking the exchanges in order. Single-threaded.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "commands/record/generaliser.h"

namespace runner::record::detail {

// Where a generated value first came back: a JSON path in the body or a
// header, and a regex when the value is only part of the text there.
struct Site {
  size_t step = 0;
  std::string json_path;  // $.a.b[0]
  std::string header;
  std::string regex;
};

struct State {
  explicit State(const GeneraliseOptions& o) : options(o) {}
  const GeneraliseOptions& options;
  // Generated-looking values the client sent before the org returned them
  // (seed ids, its own GUIDs): not org-generated, so never captured.
  std::set<std::string> client_values;
  std::set<std::string> client_strings;          // whole strings sent in requests
  std::map<std::string, Site> first_seen;        // org-generated value -> where
  std::map<std::string, std::string> var_of;     // value -> variable (captures and vars)
  std::map<std::string, std::string> secret_of;  // literal secret -> what is written instead
  std::set<std::string> masked;                  // replacements that are masks, not references
  std::set<std::string> issued;                  // tokens the org handed out (literals)
  std::set<std::string> names;                   // variable names in use
  std::vector<std::string> env;                  // ${env:...} names handed out, to keep them unique
  std::vector<std::string> secret_values;        // literals the file must not contain
  OJson vars = OJson::object();

  std::string new_name(const std::string& wanted);
  std::string env_name(const std::string& wanted);
  // Escapes `${`, then writes secrets and variables in place of literals;
  // card numbers inside the text become secrets first (card_numbers_in).
  std::string substitute(const std::string& text);
  // The replacement for a secret literal, made on first sight.
  std::string secret(const std::string& literal, const std::string& env_wanted, SecretMode mode);
};

// Request JSON with secrets replaced and known values as references.
OJson request_value(State& st, const std::string& key, const OJson& v);
// The expectation for a response value at `path` of step `step`; null when
// it is dropped (volatile, not strict).
struct Expected {
  bool keep = false;
  OJson value;
};
Expected expected_value(State& st, size_t step, const std::string& key, const OJson& v);

std::string regex_escape(const std::string& s);

}  // namespace runner::record::detail
