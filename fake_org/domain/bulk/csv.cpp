#include "csv.h"

#include <algorithm>

#include <array>
#include <utility>

namespace fake_org::bulk {

namespace {

constexpr std::array<std::pair<const char*, char>, 6> kCsvDelimiters = {{
    {"COMMA", ','},
    {"TAB", '\t'},
    {"PIPE", '|'},
    {"SEMICOLON", ';'},
    {"CARET", '^'},
    {"BACKQUOTE", '`'},
}};

}  // namespace

std::optional<char> delimiter_named(std::string_view name) {
  for (const auto& [n, c] : kCsvDelimiters)
    if (name == n) return c;
  return std::nullopt;
}

const char* delimiter_name(char delimiter) {
  for (const auto& [n, c] : kCsvDelimiters)
    if (c == delimiter) return n;
  return "COMMA";
}

std::optional<LineEnding> line_ending_named(std::string_view name) {
  if (name == "LF") return LineEnding::kLf;
  if (name == "CRLF") return LineEnding::kCrlf;
  return std::nullopt;
}

const char* line_ending_name(LineEnding ending) {
  return ending == LineEnding::kCrlf ? "CRLF" : "LF";
}

CsvReader::CsvReader(std::string_view text, char delimiter) : text_(text), delimiter_(delimiter) {
  if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
}

void CsvReader::seek(size_t pos) {
  pos_ = std::min(pos, text_.size());
  next_line_ = 1 + static_cast<size_t>(std::count(text_.begin(), text_.begin() + pos_, '\n'));
}

bool CsvReader::at_record_end() const {
  if (pos_ >= text_.size()) return true;
  const char c = text_[pos_];
  return c == '\n' || (c == '\r' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n') ||
         (c == '\r' && pos_ + 1 == text_.size());
}

void CsvReader::consume_record_end() {
  end_ = pos_;
  if (pos_ < text_.size() && text_[pos_] == '\r') ++pos_;
  if (pos_ < text_.size() && text_[pos_] == '\n') {
    ++pos_;
    ++next_line_;
  }
}

void CsvReader::skip_to_line_end() {
  while (!at_record_end()) ++pos_;
  consume_record_end();
}

// At an opening quote: the field up to its closing quote. False (with
// error_ set) for an unterminated quote, which takes the rest of the text.
bool CsvReader::read_quoted(std::string& field) {
  ++pos_;
  while (pos_ < text_.size()) {
    const char c = text_[pos_++];
    if (c == '"') {
      if (pos_ < text_.size() && text_[pos_] == '"') {
        field.push_back('"');
        ++pos_;
        continue;
      }
      return true;
    }
    if (c == '\n') ++next_line_;
    field.push_back(c);
  }
  error_ = "a quoted field opened on line " + std::to_string(line_) +
           " is never closed: end it with a double quote";
  end_ = text_.size();
  return false;
}

CsvReader::Status CsvReader::next(std::vector<std::string>& fields) {
  error_.clear();
  // Blank lines are no records.
  while (pos_ < text_.size() && at_record_end()) consume_record_end();
  if (pos_ >= text_.size()) {
    fields.clear();
    return Status::kEnd;
  }
  begin_ = pos_;
  line_ = next_line_;
  size_t n = 0;
  while (true) {
    // Reuse the caller's strings: a million rows need no allocation each.
    if (n == fields.size()) fields.emplace_back();
    std::string& field = fields[n++];
    field.clear();
    if (pos_ < text_.size() && text_[pos_] == '"') {
      if (!read_quoted(field)) return bad(fields, n);
      if (!at_record_end() && text_[pos_] != delimiter_) {
        error_ = "line " + std::to_string(line_) +
                 ": a closing quote must be followed by the delimiter or a line break (write "
                 "\"\" for a quote inside a quoted field)";
        skip_to_line_end();
        return bad(fields, n);
      }
    } else {
      const size_t start = pos_;
      while (!at_record_end() && text_[pos_] != delimiter_ && text_[pos_] != '"') ++pos_;
      if (pos_ < text_.size() && text_[pos_] == '"') {
        error_ = "line " + std::to_string(line_) +
                 ": a double quote inside an unquoted field: quote the whole field and double "
                 "the quote (\"a\"\"b\")";
        skip_to_line_end();
        return bad(fields, n);
      }
      field.assign(text_.data() + start, pos_ - start);
    }
    if (at_record_end()) break;
    ++pos_;  // the delimiter
  }
  fields.resize(n);
  consume_record_end();
  return Status::kRecord;
}

CsvReader::Status CsvReader::bad(std::vector<std::string>& fields, size_t n) {
  fields.resize(n);
  return Status::kBad;
}

void append_quoted(std::string& out, std::string_view value) {
  out.push_back('"');
  for (char c : value) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

}  // namespace fake_org::bulk
