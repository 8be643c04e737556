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

}  // namespace runner::explore
