#pragma once
// A Pact interaction's expected response, with its matching rules, as a
// scenario's `expect` (scenarios/README.md, "Matchers"): the example where a
// value must equal it, a matcher where a rule says how it may differ.
//
// Which rule governs a value follows the Pact specification: of the rules
// whose path leads to the value or to one of its parents, the one whose path
// names it most exactly ("$.a.b" before "$.a.*" before "$.a"); a parent's
// rule cascades to its children (a `type` rule on an object makes each of its
// values match by type), but a parent's min/max counts only its own list.
#include <string>

#include <nlohmann/json.hpp>

#include "commands/pact/pact_file.h"

namespace runner::pact {

// The expectation of a JSON body: objects as subsets (the provider may send
// more keys, as Pact allows), lists item by item unless a type rule makes
// them "each like" their first item. Throws PactError for a rule it cannot
// state (naming the rule and its path).
nlohmann::json body_expectation(const nlohmann::json& example, const Rules& rules);

// The expectation of one header's value.
nlohmann::json header_expectation(const std::string& name, const std::string& value,
                                  const Rules& header_rules);

// The status expected: the number, or a matcher from a v4 statusCode rule.
nlohmann::json status_expectation(int status, const RuleSet& rule);

// The regular expression (ECMAScript) of a date/time format in the pattern
// letters Pact uses (Java's DateTimeFormatter: yyyy-MM-dd'T'HH:mm:ss.SSSXXX).
std::string format_regex(const std::string& pattern);

// "${" in a literal (and in every string of an object or list) written "$${",
// so the runner does not read it as a variable.
nlohmann::json escape_literal(const nlohmann::json& v);

}  // namespace runner::pact
