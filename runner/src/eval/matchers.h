#pragma once
// Matching an expected JSON value against an actual one. Expected values are
// plain JSON (compared as a subset unless `exact`) with matchers anywhere: an
// object whose keys all start with '$' - $regex, $type, $oneOf, $range,
// $exists, $absent, $contains, $each, $length, $eq, $not. Several matcher keys
// in one object must all hold.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace runner {

using Json = nlohmann::json;

struct Mismatch {
  std::string pointer;      // JSON pointer into the actual value; "" is the root
  std::string expected;     // what was wanted, in words or JSON
  std::string actual;       // what was there, as JSON, or "missing"
  std::string str() const;  // "/Id: expected a string matching /^pi_/, got "x""
};

struct MatchOptions {
  bool exact = false;  // objects must have exactly the expected keys
};

bool is_matcher(const Json& v);

// `actual` null means the value is missing (an absent key).
std::vector<Mismatch> match_json(const Json& expected, const Json* actual,
                                 const MatchOptions& options = {}, const std::string& pointer = "");
inline bool json_matches(const Json& expected, const Json& actual, const MatchOptions& o = {}) {
  return match_json(expected, &actual, o).empty();
}

// Mistakes in an expected value (unknown matcher, bad regex, bad argument),
// each at the JSON pointer of the offending object.
struct MatcherIssue {
  std::string pointer;
  std::string message;
};
std::vector<MatcherIssue> validate_expected(const Json& expected, const std::string& pointer = "");

// The matcher in words, or the value as compact JSON (cut when long).
std::string describe_expected(const Json& expected);
std::string describe_actual(const Json* actual);

}  // namespace runner
