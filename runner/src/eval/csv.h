#pragma once
// CSV as Bulk API 2.0 writes it and RFC 4180 defines it: a header line, then
// one record per line; a field in double quotes may hold the delimiter, a
// line break and doubled quotes. Records end in LF or CRLF; the last may
// have no line ending.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace runner {

struct CsvTable {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  std::vector<size_t> row_lines;  // the 1-based line each row starts on
};

struct CsvParse {
  std::optional<CsvTable> table;
  std::string error;  // why the text is not CSV, with its line
};

// Every record must have as many fields as the header.
CsvParse parse_csv(std::string_view text, char delimiter = ',');

// The delimiter a Bulk API job names (COMMA, TAB, PIPE, SEMICOLON, CARET,
// BACKQUOTE) or the character itself; nullopt for anything else.
std::optional<char> csv_delimiter(const std::string& name);

// {columns: [...], rows: [{column: text}, ...], count: N}: what a CSV
// expectation is matched against.
nlohmann::json csv_json(const CsvTable& table);

}  // namespace runner
