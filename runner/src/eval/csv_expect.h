#pragma once
// An expected CSV body: `{columns, rows, count, delimiter}`, each optional.
// `columns` is the header (a list, or a matcher such as $contains); `rows`
// the records, each an object of column -> text or matcher (a subset: other
// columns are not looked at), as a list (every row, in order) or a matcher
// ($contains: some rows anywhere, $each: every row); `count` the number of
// records (or a matcher); `delimiter` COMMA (the default), TAB, PIPE,
// SEMICOLON, CARET or BACKQUOTE. Cells are text: a number or boolean
// written in `rows` or `columns` means its text ("5", "true").
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/matchers.h"

namespace runner {

struct CsvCheck {
  std::string error;                 // the body is not CSV (then nothing else is set)
  std::vector<Mismatch> mismatches;  // pointer: the place in words, "row 4 (line 5), column Email"
  std::vector<std::string> at;       // beside each mismatch: its JSON pointer into `expected`
  std::string diff;
};

// `expected` interpolated already.
CsvCheck check_csv(const nlohmann::json& expected, const std::string& body);

// Mistakes in an expected CSV (unknown key, a delimiter with no name),
// each with the JSON pointer of the offending value.
std::vector<MatcherIssue> validate_csv_expected(const nlohmann::json& expected);

}  // namespace runner
