#pragma once
// A readable diff of expected versus actual JSON. Both sides are first cut to
// what the expectation talks about (a subset match shows only the expected
// keys; a matcher that holds shows the actual value), so the diff lines are
// exactly the disagreements. Under a lone $each or $contains the items
// themselves are compared (each failing item, or the closest to a wanted
// one), so the first lines name the field that differs.
#include <string>

#include <nlohmann/json.hpp>

#include "eval/matchers.h"

namespace runner {

// Empty when the views agree. Lines start with "- " (expected), "+ " (actual)
// or "  " (context).
std::string json_diff(const Json& expected, const Json* actual, const MatchOptions& options = {});

// Unified-style diff of two texts by lines, with `context` lines around
// changes; past `max_lines` diff lines the rest is counted, not shown.
std::string line_diff(const std::string& expected, const std::string& actual, int context = 3,
                      size_t max_lines = 60);

}  // namespace runner
