#pragma once
// CSV as the platform's Bulk API 2.0 reads and writes it: RFC 4180 quoting
// (a quoted field may hold the delimiter, a line break and "" for a quote),
// one of six delimiters, LF or CRLF line endings. The reader streams over a
// text it does not own, one record at a time, and never fails the whole
// text for one bad record: it says what is wrong with that record and goes
// on at the next line. Stateless apart from the reader's position; safe
// from any thread on distinct readers.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fake_org::bulk {

// The platform's columnDelimiter names: COMMA (the default), TAB, PIPE,
// SEMICOLON, CARET, BACKQUOTE. nullopt for another name.
std::optional<char> delimiter_named(std::string_view name);
// The name of a delimiter delimiter_named gives ("COMMA" for ',').
const char* delimiter_name(char delimiter);

// The platform's lineEnding: LF (the default) or CRLF.
enum class LineEnding { kLf, kCrlf };
std::optional<LineEnding> line_ending_named(std::string_view name);
const char* line_ending_name(LineEnding ending);
inline std::string_view line_break(LineEnding ending) {
  return ending == LineEnding::kCrlf ? std::string_view("\r\n") : std::string_view("\n");
}

class CsvReader {
 public:
  // A UTF-8 byte order mark at the start of `text` is skipped.
  CsvReader(std::string_view text, char delimiter);

  enum class Status { kRecord, kBad, kEnd };
  // The next record's fields (kRecord), or kBad with error() saying why
  // (the record's text ends at the next line break outside its quotes, or
  // at the end of the text for an unterminated quote), or kEnd. Blank lines
  // are skipped.
  Status next(std::vector<std::string>& fields);
  // Where the last record read lies in the text, without its line break.
  size_t record_begin() const { return begin_; }
  size_t record_end() const { return end_; }
  // Where the next record starts (the text's size at the end).
  size_t position() const { return pos_; }
  // Continues at `pos`, a position() an earlier reader of the same text
  // gave (a job resumed after a restart).
  void seek(size_t pos);
  // The 1-based line the last record started on.
  size_t line() const { return line_; }
  const std::string& error() const { return error_; }

 private:
  bool read_quoted(std::string& field);
  Status bad(std::vector<std::string>& fields, size_t n);
  void skip_to_line_end();
  bool at_record_end() const;
  void consume_record_end();

  std::string_view text_;
  char delimiter_;
  size_t pos_ = 0;
  size_t begin_ = 0;
  size_t end_ = 0;
  size_t line_ = 1;
  size_t next_line_ = 1;
  std::string error_;
};

// Appends `value` as one quoted field ("a""b"), as the platform writes every
// field of its result files.
void append_quoted(std::string& out, std::string_view value);

}  // namespace fake_org::bulk
