// CSV as RFC 4180 writes it, and expectations on it that name the row and
// column that differ.
#include <catch2/catch.hpp>

#include "eval/csv.h"
#include "eval/csv_expect.h"

using namespace runner;
using nlohmann::json;

TEST_CASE("csv: quoted fields hold delimiters, doubled quotes and line breaks", "[runner][csv]") {
  const CsvParse p = parse_csv(
      "Id,Name,Note\r\n1,\"Lovelace, Ada\",\"said \"\"hi\"\"\"\r\n2,Bob,\"two\nlines\"\n3,,\n");
  REQUIRE(p.table);
  const CsvTable& t = *p.table;
  CHECK(t.columns == std::vector<std::string>{"Id", "Name", "Note"});
  REQUIRE(t.rows.size() == 3);
  CHECK(t.rows[0] == std::vector<std::string>{"1", "Lovelace, Ada", "said \"hi\""});
  CHECK(t.rows[1][2] == "two\nlines");
  CHECK(t.rows[2] == std::vector<std::string>{"3", "", ""});
  CHECK(t.row_lines == std::vector<size_t>{2, 3, 5});  // the quoted line break moves row 3 down
  // No line ending after the last record; another delimiter.
  const CsvParse tab = parse_csv("a\tb\nx\ty", '\t');
  REQUIRE(tab.table);
  CHECK(tab.table->rows == std::vector<std::vector<std::string>>{{"x", "y"}});
}

TEST_CASE("csv: text that is not CSV says why and where", "[runner][csv]") {
  CHECK(parse_csv("a,b\n1,\"open\n").error == "a quoted field opened on line 2 never closes");
  CHECK(parse_csv("a,b\n1,2\n3\n").error == "line 3 has 1 field; the header has 2");
  CHECK(parse_csv("a,b\n\"x\"y,2\n").error == "line 2: text after a closing quote");
  CHECK(parse_csv("").error == "the body is empty (no header line)");
}

TEST_CASE("csv expectations: a mismatch names the row, its line and the column", "[runner][csv]") {
  const std::string body =
      "sf__Id,sf__Error,LastName\n"
      ",REQUIRED_FIELD_MISSING:Required fields are missing: [LastName],\n"
      ",\"INVALID_EMAIL_ADDRESS: bad, really\",Dee\n";
  const json holds = json::parse(R"({
    "columns": {"$contains": ["sf__Error"]}, "count": 2,
    "rows": [{"sf__Error": {"$regex": "^REQUIRED_FIELD_MISSING:"}},
             {"LastName": "Dee", "sf__Error": {"$regex": "^INVALID_EMAIL_ADDRESS:"}}]})");
  CHECK(check_csv(holds, body).mismatches.empty());

  const json wrong = json::parse(R"({"rows": {"$contains": [{"LastName": "Dee", "sf__Error":
      {"$regex": "^DUPLICATE_VALUE:"}}]}, "count": 3})");
  const CsvCheck c = check_csv(wrong, body);
  REQUIRE(c.error.empty());
  REQUIRE(c.mismatches.size() == 2);
  CHECK(c.mismatches[0].str() == "the number of rows: expected 3, got 2");
  CHECK(c.at[0] == "/count");
  CHECK(c.mismatches[1].pointer == "row 2 (line 3), column sf__Error");
  CHECK(c.mismatches[1].actual == "\"INVALID_EMAIL_ADDRESS: bad, really\"");
  CHECK(c.at[1] == "/rows/$contains");
  CHECK(c.diff.find("-       \"sf__Error\"") != std::string::npos);

  // Numbers and booleans in rows are the cells' text.
  CHECK(check_csv(json::parse(R"({"rows": [{"n": 5, "ok": true}]})"), "n,ok\n5,true\n")
            .mismatches.empty());
  CHECK(check_csv(json::parse(R"({"rows": []})"), "a\n\"x").error ==
        "not CSV: a quoted field opened on line 2 never closes");
}

TEST_CASE("csv expectations: mistakes in them are named", "[runner][csv]") {
  const auto issues =
      validate_csv_expected(json::parse(R"({"colums": [], "delimiter": "SPACE", "rows": [1]})"));
  REQUIRE(issues.size() == 3);
  CHECK(issues[0].message == "csv takes columns, rows, count and delimiter, not 'colums'");
  CHECK(issues[1].pointer == "/delimiter");
  CHECK(issues[2].pointer == "/rows/0");
}
