#pragma once
// A hand-written recursive-descent parser for the SOQL subset of
// docs/soql.md. It checks syntax only: whether the object and fields exist
// is the binder's question (soql_eval.h), as on the platform, where a typo
// in a field name is INVALID_FIELD and a typo in a keyword MALFORMED_QUERY.
// Stateless; safe from any thread.
#include <string_view>

#include "soql_ast.h"

namespace fake_org::soql {

// Longest query text accepted, as the platform's limit on SOQL statements.
inline constexpr size_t kMaxQueryLength = 100000;
// Deepest nesting of parentheses and NOTs in a WHERE clause: the parser and
// the evaluator recurse once per level, so a hostile query cannot exhaust
// the stack.
inline constexpr int kMaxConditionDepth = 50;
// The platform's largest OFFSET.
inline constexpr int64_t kMaxOffset = 2000;
// Relationships a field path may cross, as the platform allows.
inline constexpr size_t kMaxRelationshipHops = 5;
// Levels of parent-to-child subqueries below the root (API 58.0 and later;
// one before it, which soql.cpp checks by the request's version).
inline constexpr int kMaxChildLevels = 4;
// Parent-to-child subqueries one query may hold.
inline constexpr size_t kMaxChildRelationships = 20;

// The query, or the first thing wrong with it (MALFORMED_QUERY, or
// NUMBER_OUTSIDE_VALID_RANGE for an OFFSET above 2,000).
SoqlResult<Query> parse_soql(std::string_view text);

}  // namespace fake_org::soql
