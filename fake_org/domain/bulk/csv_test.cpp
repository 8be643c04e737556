#include "csv.h"

#include <catch2/catch.hpp>

namespace fake_org::bulk {

namespace {

using Fields = std::vector<std::string>;

// Every record of `text` (kBad ones as {"!error"}).
std::vector<Fields> csv_read_all(std::string_view text, char delimiter = ',') {
  CsvReader reader(text, delimiter);
  std::vector<Fields> out;
  Fields fields;
  for (int guard = 0; guard < 1000; ++guard) {
    const auto st = reader.next(fields);
    if (st == CsvReader::Status::kEnd) break;
    out.push_back(st == CsvReader::Status::kBad ? Fields{"!" + reader.error()} : fields);
  }
  return out;
}

}  // namespace

TEST_CASE("csv: RFC 4180 quoting, embedded delimiters, quotes and line breaks", "[bulk][csv]") {
  auto rows = csv_read_all("Name,Note\n\"Doe, Jane\",\"said \"\"hi\"\"\nthen left\"\nplain,\n");
  REQUIRE(rows.size() == 3);
  CHECK(rows[0] == Fields{"Name", "Note"});
  CHECK(rows[1] == Fields{"Doe, Jane", "said \"hi\"\nthen left"});
  CHECK(rows[2] == Fields{"plain", ""});
}

TEST_CASE("csv: CRLF, a byte order mark, blank lines and no final line break", "[bulk][csv]") {
  auto rows = csv_read_all(
      "\xEF\xBB\xBF"
      "a,b\r\n\r\n1,2\r\n3,4");
  REQUIRE(rows.size() == 3);
  CHECK(rows[0] == Fields{"a", "b"});
  CHECK(rows[1] == Fields{"1", "2"});
  CHECK(rows[2] == Fields{"3", "4"});
}

TEST_CASE("csv: the platform's other delimiters", "[bulk][csv]") {
  CHECK(csv_read_all("a|b\n\"x|y\"|z\n", '|')[1] == Fields{"x|y", "z"});
  CHECK(csv_read_all("a\tb\n1\t2\n", '\t')[1] == Fields{"1", "2"});
  CHECK(delimiter_named("SEMICOLON") == ';');
  CHECK(delimiter_named("BACKQUOTE") == '`');
  CHECK(delimiter_named("CARET") == '^');
  CHECK_FALSE(delimiter_named("comma"));
  CHECK(std::string(delimiter_name('\t')) == "TAB");
  CHECK(line_ending_named("CRLF") == LineEnding::kCrlf);
  CHECK_FALSE(line_ending_named("CR"));
}

TEST_CASE("csv: a bad record fails alone and reading goes on at the next line", "[bulk][csv]") {
  auto rows = csv_read_all("a,b\n\"x\"y,2\nok,3\nbad\"quote,4\nlast,5\n");
  REQUIRE(rows.size() == 5);
  CHECK(rows[1][0].find("closing quote") != std::string::npos);
  CHECK(rows[2] == Fields{"ok", "3"});
  CHECK(rows[3][0].find("double quote inside an unquoted field") != std::string::npos);
  CHECK(rows[4] == Fields{"last", "5"});
}

TEST_CASE("csv: an unterminated quote takes the rest of the text, then the end", "[bulk][csv]") {
  CsvReader reader("a\n\"never closed\nmore\n", ',');
  Fields f;
  REQUIRE(reader.next(f) == CsvReader::Status::kRecord);
  REQUIRE(reader.next(f) == CsvReader::Status::kBad);
  CHECK(reader.error() ==
        "a quoted field opened on line 2 is never closed: end it with a double quote");
  CHECK(reader.next(f) == CsvReader::Status::kEnd);
}

TEST_CASE("csv: where each record lies in the text, and its line", "[bulk][csv]") {
  const std::string text = "h1,h2\r\n\"a\nb\",c\r\nd,e\r\n";
  CsvReader reader(text, ',');
  Fields f;
  reader.next(f);
  reader.next(f);
  CHECK(text.substr(reader.record_begin(), reader.record_end() - reader.record_begin()) ==
        "\"a\nb\",c");
  CHECK(reader.line() == 2);
  reader.next(f);
  CHECK(reader.line() == 4);
  CHECK(reader.position() == text.size());
}

TEST_CASE("csv: fields are written quoted, quotes doubled", "[bulk][csv]") {
  std::string out;
  append_quoted(out, "say \"hi\", then\nleave");
  CHECK(out == "\"say \"\"hi\"\", then\nleave\"");
}

}  // namespace fake_org::bulk
