#include "eval/csv_expect.h"

#include "eval/csv.h"
#include "eval/expected_pointer.h"
#include "eval/interpolate.h"
#include "eval/json_diff.h"

namespace runner {
namespace {

// Scalars written as cells become their text; matcher arguments that are
// not cells ($length, $range, $type, $regex, $exists, $absent) stay.
Json as_cells(const Json& v) {
  if (v.is_number() || v.is_boolean()) return to_text(v);
  if (v.is_array()) {
    Json out = Json::array();
    for (const auto& item : v) out.push_back(as_cells(item));
    return out;
  }
  if (!v.is_object()) return v;
  Json out = Json::object();
  for (const auto& [k, sub] : v.items()) {
    const bool keeps = k == "$length" || k == "$range" || k == "$type" || k == "$regex" ||
                       k == "$exists" || k == "$absent";
    out[k] = keeps ? sub : as_cells(sub);
  }
  return out;
}

// "/rows/3/Email" -> "row 4 (line 5), column Email"; "/columns/1" -> "column 2 of the header".
std::string csv_place(const std::string& pointer, const CsvTable& t) {
  auto rest_after = [&](const std::string& head) { return pointer.substr(head.size()); };
  if (pointer.rfind("/rows/", 0) == 0) {
    std::string rest = rest_after("/rows/");
    const size_t slash = rest.find('/');
    const size_t row = std::stoul(rest.substr(0, slash));
    std::string where = "row " + std::to_string(row + 1);
    if (row < t.row_lines.size()) where += " (line " + std::to_string(t.row_lines[row]) + ")";
    if (slash != std::string::npos) {
      std::string column = rest.substr(slash + 1);
      for (auto [from, to] : {std::pair{"~1", "/"}, std::pair{"~0", "~"}})
        for (size_t p = column.find(from); p != std::string::npos; p = column.find(from, p + 1))
          column.replace(p, 2, to);
      where += ", column " + column;
    }
    return where;
  }
  if (pointer.rfind("/columns/", 0) == 0)
    return "column " + std::to_string(std::stoul(rest_after("/columns/")) + 1) + " of the header";
  if (pointer == "/columns") return "the header";
  if (pointer == "/rows") return "the rows";
  if (pointer == "/count") return "the number of rows";
  return pointer;
}

}  // namespace

CsvCheck check_csv(const Json& expected, const std::string& body) {
  CsvCheck out;
  char delimiter = ',';
  if (expected.contains("delimiter"))
    delimiter = csv_delimiter(to_text(expected["delimiter"])).value_or(',');
  CsvParse parsed = parse_csv(body, delimiter);
  if (!parsed.table) {
    out.error = "not CSV: " + parsed.error;
    return out;
  }
  Json want = Json::object();
  for (const char* key : {"columns", "rows", "count"})
    if (expected.contains(key))
      want[key] = std::string(key) == "count" ? expected[key] : as_cells(expected[key]);
  const Json actual = csv_json(*parsed.table);
  for (Mismatch m : match_json(want, &actual)) {
    out.at.push_back(expected_pointer(want, m.pointer));
    m.pointer = csv_place(m.pointer, *parsed.table);
    out.mismatches.push_back(std::move(m));
  }
  if (!out.mismatches.empty()) out.diff = json_diff(want, &actual);
  return out;
}

std::vector<MatcherIssue> validate_csv_expected(const Json& expected) {
  std::vector<MatcherIssue> out;
  if (!expected.is_object()) {
    out.push_back({"", "csv is a map: {columns, rows, count, delimiter}"});
    return out;
  }
  for (const auto& [k, v] : expected.items()) {
    if (k != "columns" && k != "rows" && k != "count" && k != "delimiter")
      out.push_back({"/" + k, "csv takes columns, rows, count and delimiter, not '" + k + "'"});
  }
  if (expected.contains("delimiter") && !(expected["delimiter"].is_string() &&
                                          csv_delimiter(expected["delimiter"].get<std::string>())))
    out.push_back(
        {"/delimiter", "csv.delimiter is COMMA, TAB, PIPE, SEMICOLON, CARET or BACKQUOTE"});
  if (expected.contains("rows")) {
    const Json& rows = expected["rows"];
    if (rows.is_array()) {
      for (size_t i = 0; i < rows.size(); ++i)
        if (!rows[i].is_object())
          out.push_back({"/rows/" + std::to_string(i),
                         "a row is a map of column -> value (the columns it checks)"});
    } else if (!is_matcher(rows)) {
      out.push_back({"/rows", "csv.rows is a list of rows or a matcher ($contains, $each)"});
    }
  }
  for (const auto& issue : validate_expected(expected)) out.push_back(issue);
  return out;
}

}  // namespace runner
