#pragma once
// The SOQL subset of docs/soql.md as the parser reads it: names as written
// (not yet checked against the catalogue) with their positions in the query
// text, so every later refusal can point at the part it refuses.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "domain/core/clock.h"
#include "util/expected.h"

namespace fake_org::soql {

// ---- errors as values ------------------------------------------------------

// The platform's query error codes (each answers HTTP 400).
namespace soql_code {
inline constexpr const char* kMalformedQuery = "MALFORMED_QUERY";
inline constexpr const char* kInvalidField = "INVALID_FIELD";
inline constexpr const char* kInvalidType = "INVALID_TYPE";
inline constexpr const char* kInvalidFilter = "INVALID_QUERY_FILTER_OPERATOR";
inline constexpr const char* kOutOfRange = "NUMBER_OUTSIDE_VALID_RANGE";
inline constexpr const char* kInvalidLocator = "INVALID_QUERY_LOCATOR";
inline constexpr const char* kExceededIdLimit = "EXCEEDED_ID_LIMIT";
}  // namespace soql_code

inline constexpr size_t kNoPosition = static_cast<size_t>(-1);

struct SoqlError {
  std::string error_code;  // soql_code::*
  // The platform's whole message: for a positioned error, a window of the
  // query line, a caret under the offending part, "ERROR at Row:r:Column:c"
  // and the detail; else the detail alone.
  std::string message;
  std::string detail;             // the last line alone: "unexpected token: 'FROMM'"
  size_t position = kNoPosition;  // 0-based offset into the query text
  int row = 0;                    // 1-based, as the platform counts
  int column = 0;
};

// An error that points into the query text.
SoqlError positioned_error(std::string_view query, size_t position, std::string code,
                           std::string detail);
// An error about no part of a query text (a query locator, say).
SoqlError plain_error(std::string code, std::string detail);

// Either a value or one error: the platform reports the first problem only.
template <typename T>
using SoqlResult = util::Expected<T, SoqlError>;

// ---- the tree --------------------------------------------------------------

// "cpm__Contact__r.Account.Name" as written: the parts and where each starts.
struct FieldRef {
  std::vector<std::string> parts;
  std::vector<size_t> positions;
  size_t position() const { return positions.empty() ? 0 : positions.front(); }
  std::string text() const;
};

// A date literal such as TODAY or LAST_N_DAYS:30 (name upper-cased).
struct DateLiteral {
  std::string name;
  std::optional<int64_t> n;
};

struct Literal {
  enum class Kind { kNull, kString, kNumber, kBoolean, kDate, kDateTime, kDateLiteral };
  Kind kind = Kind::kNull;
  std::string text;  // a string's value (escapes resolved); a number as written
  // Per character of a string's `text`: true where it came from \% or \_,
  // so LIKE reads it as itself, not as a wildcard. Empty when none did.
  std::vector<bool> escaped;
  double number = 0;
  bool boolean = false;
  Date date;
  TimePoint datetime{};
  DateLiteral range;
  size_t position = 0;
};

enum class CompareOp { kEq, kNe, kLt, kLe, kGt, kGe, kLike, kIn, kNotIn, kIncludes, kExcludes };
const char* to_string(CompareOp op);  // as SOQL writes it: "=", "!=", "NOT IN", ...

struct Query;

// An aggregate function of a field: COUNT(Id), COUNT_DISTINCT(x), SUM(x),
// AVG(x), MIN(x), MAX(x), in SELECT, HAVING or ORDER BY.
struct Aggregate {
  std::string function;  // upper case
  FieldRef field;
  size_t position = 0;
};

struct Comparison {
  std::optional<Aggregate> aggregate;  // HAVING SUM(x) > 1: of the aggregate, not `field`
  FieldRef field;
  CompareOp op = CompareOp::kEq;
  size_t op_position = 0;
  std::vector<Literal> values;  // one, or the list of IN / NOT IN / INCLUDES / EXCLUDES
  // IN / NOT IN (SELECT idField FROM ... [WHERE ...]): a semi- or anti-join,
  // in place of `values`.
  std::shared_ptr<const Query> subquery;
};

// A WHERE tree: AND and OR hold two or more children, NOT one. SOQL refuses
// AND and OR side by side without parentheses, so no precedence is needed.
struct Condition {
  enum class Kind { kComparison, kAnd, kOr, kNot };
  Kind kind = Kind::kComparison;
  Comparison comparison;
  std::vector<Condition> children;
  size_t position = 0;
};

struct OrderItem {
  std::optional<Aggregate> aggregate;  // ORDER BY COUNT(Id): in place of `field`
  FieldRef field;
  bool descending = false;
  std::optional<bool> nulls_last;  // unset: the platform's default for the direction
};

// One item of the SELECT list: a field or an aggregate, maybe aliased, or
// a parent-to-child subquery.
struct SelectItem {
  std::optional<Aggregate> aggregate;
  // (SELECT ... FROM Contacts ...): its `object` names the child
  // relationship; `subquery_position` is where its "(" stands.
  std::shared_ptr<const Query> subquery;
  size_t subquery_position = 0;
  // toLabel(field): the picklist's label for its value, under the alias
  // when one is given (so the field itself may be selected beside it).
  bool to_label = false;
  size_t to_label_position = 0;
  // FIELDS(ALL | STANDARD | CUSTOM): the word, upper case; `field` is empty.
  std::string fields_function;
  size_t fields_position = 0;
  FieldRef field;
  std::string alias;
  size_t alias_position = 0;
};

struct Query {
  bool count = false;  // SELECT COUNT()
  size_t count_position = 0;
  std::vector<FieldRef> fields;  // the plain fields of `items`
  std::vector<SelectItem> items;
  std::string object;
  size_t object_position = 0;
  std::string object_prefix;  // a child subquery's "Account." before its relationship
  std::string alias;
  std::optional<Condition> where;
  std::vector<FieldRef> group_by;
  size_t group_by_position = 0;
  std::optional<Condition> having;
  size_t having_position = 0;
  std::vector<OrderItem> order_by;
  size_t order_by_position = 0;
  std::optional<int64_t> limit;
  std::optional<int64_t> offset;
  size_t offset_position = 0;
};

}  // namespace fake_org::soql
