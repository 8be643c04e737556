#pragma once
// What a request schema (contracts/schemas) says about one value of a body:
// its enum, its length and range bounds, and, for an object, whether it
// takes unknown members and which it requires. The near-miss families read
// these so a near-miss lands just outside what the contract allows. The
// constraints of every branch a value may match ($ref, allOf, anyOf, oneOf)
// are merged: a bound any branch states is kept.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands/explore/rng.h"

namespace runner::explore {

struct ValueRules {
  bool known = false;  // some branch of the schema describes the value
  std::vector<nlohmann::json> enums;
  std::optional<size_t> max_length;
  std::optional<size_t> min_length;
  std::optional<double> maximum;
  std::optional<double> minimum;
  bool exclusive_maximum = false;  // `maximum` is draft-07's exclusiveMaximum
  bool exclusive_minimum = false;
  bool closed = false;  // an object with additionalProperties false
  std::vector<std::string> required;
  std::vector<std::string> properties;  // the object's named members
  std::vector<std::string> types;       // "string", "object"...: every branch's
  std::string format;                   // "uri", "date"; "" none
  std::string pattern;                  // the first branch's; "" none
  std::optional<nlohmann::json> constant;
  bool map = false;  // an object whose members are any names (additionalProperties a schema)
};

// The request schema of (method, path) per the route table; "" when none.
std::string request_schema_name(const std::string& method, const std::string& path);

// The rules the named request schema gives the value at `pointer` (RFC
// 6901, "" for the body). Unknown schema or pointer: known false.
ValueRules value_rules(const std::string& schema, const std::string& pointer);

// A value of the same kind just outside `rules` (one past a length or a
// bound, a near spelling of an enum value), with the rule it breaks in
// words; nullopt when the rules state no bound. `current` is the valid value.
struct Outside {
  nlohmann::json value;
  std::string rule;  // "maxLength 80", "enum", "exclusiveMinimum 0", ...
};
std::vector<Outside> just_outside(const ValueRules& rules, const nlohmann::json& current);

// A value `rules` allow, drawn with `rng`, that the schema alone can give: a
// `const`, an `enum` member, a boolean, a number within its bounds, a URL
// (format uri), a date (format date), a text within its lengths, an object
// with its required members, an empty map. Null where a pattern the schema
// names (a record id, a currency code) needs a value the target knows.
// `schema` and `pointer` find the members of an object; `tag` makes texts
// unique to the case.
nlohmann::json schema_value(const std::string& schema, const std::string& pointer, Rng& rng,
                            const std::string& tag);

}  // namespace runner::explore
