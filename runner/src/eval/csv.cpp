#include "eval/csv.h"

namespace runner {
namespace {

// Reads one record from `at`, advancing it past the record's line ending.
// Counts the lines it crosses (quoted line breaks included) into `line`.
bool read_record(std::string_view text, size_t& at, char delimiter, size_t& line,
                 std::vector<std::string>& fields, std::string& error) {
  fields.assign(1, std::string());
  const size_t start_line = line;
  while (at < text.size()) {
    const char c = text[at];
    if (c == '"' && fields.back().empty()) {
      // A quoted field: to the closing quote, "" standing for one quote.
      size_t i = at + 1;
      while (true) {
        if (i >= text.size()) {
          error = "a quoted field opened on line " + std::to_string(start_line) + " never closes";
          return false;
        }
        if (text[i] == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            fields.back() += '"';
            i += 2;
            continue;
          }
          break;
        }
        if (text[i] == '\n') ++line;
        fields.back() += text[i++];
      }
      at = i + 1;
      if (at < text.size() && text[at] != delimiter && text[at] != '\n' && text[at] != '\r') {
        error = "line " + std::to_string(line) + ": text after a closing quote";
        return false;
      }
      continue;
    }
    if (c == delimiter) {
      fields.emplace_back();
      ++at;
    } else if (c == '\n' || (c == '\r' && at + 1 < text.size() && text[at + 1] == '\n')) {
      at += c == '\r' ? 2 : 1;
      ++line;
      return true;
    } else {
      fields.back() += c;
      ++at;
    }
  }
  return true;
}

}  // namespace

CsvParse parse_csv(std::string_view text, char delimiter) {
  CsvParse out;
  CsvTable table;
  size_t at = 0, line = 1;
  std::vector<std::string> fields;
  if (text.empty()) {
    out.error = "the body is empty (no header line)";
    return out;
  }
  if (!read_record(text, at, delimiter, line, table.columns, out.error)) return out;
  while (at < text.size()) {
    const size_t starts = line;
    if (!read_record(text, at, delimiter, line, fields, out.error)) return out;
    if (fields.size() != table.columns.size()) {
      out.error = "line " + std::to_string(starts) + " has " + std::to_string(fields.size()) +
                  " field" + (fields.size() == 1 ? "" : "s") + "; the header has " +
                  std::to_string(table.columns.size());
      return out;
    }
    table.rows.push_back(std::move(fields));
    table.row_lines.push_back(starts);
  }
  out.table = std::move(table);
  return out;
}

std::optional<char> csv_delimiter(const std::string& name) {
  if (name == "COMMA" || name == ",") return ',';
  if (name == "TAB" || name == "\t") return '\t';
  if (name == "PIPE" || name == "|") return '|';
  if (name == "SEMICOLON" || name == ";") return ';';
  if (name == "CARET" || name == "^") return '^';
  if (name == "BACKQUOTE" || name == "`") return '`';
  return std::nullopt;
}

nlohmann::json csv_json(const CsvTable& t) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : t.rows) {
    nlohmann::json row = nlohmann::json::object();
    for (size_t i = 0; i < r.size() && i < t.columns.size(); ++i) row[t.columns[i]] = r[i];
    rows.push_back(std::move(row));
  }
  return {{"columns", t.columns}, {"rows", std::move(rows)}, {"count", t.rows.size()}};
}

}  // namespace runner
