#include "json_quick.h"

#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

namespace fake_org::http {

namespace {

// Equal as trees and in every value's type: json's == takes 5u for 5.
bool same_tree(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j)
      if (i.key() != j.key() || !same_tree(*i, *j)) return false;
    return true;
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!same_tree(a[i], b[i])) return false;
    return true;
  }
  if (a.is_number_float())  // bit for bit: -0.0 and 0.0 differ here
    return std::signbit(a.get<double>()) == std::signbit(b.get<double>()) && a == b;
  return a == b;
}

// What nlohmann makes of `text`, or nullopt when it throws.
std::optional<nlohmann::json> nlohmann_tree(const std::string& text) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

}  // namespace

TEST_CASE("plain JSON is read as nlohmann reads it, number types included", "[json]") {
  const char* texts[] = {
      R"({})",
      R"( [ ] )",
      R"("text")",
      R"(0)",
      R"(-0)",
      R"(-0.0)",
      R"(-12)",
      R"(5)",
      R"(18446744073709551615)",
      R"(-9223372036854775808)",
      R"(1.5e3)",
      R"(2E-3)",
      R"(0.1)",
      R"(123456789.123456789e-5)",
      R"(4.9e-324)",
      R"(true)",
      R"(null)",
      "{\n\t\"a\" :\r [1, [2, {\"b\": null}], {\"c\": true, \"d\": false}]}",
      "{\"name\":\"Jos\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\"}",
      R"({"OneTime":{"Amount":5.25},"Payer":{"Contact":{"CrmFields":{"LastName":"L"}}}})",
  };
  for (const char* text : texts) {
    INFO(text);
    nlohmann::json tree;
    REQUIRE(read_plain_json(text, tree));
    CHECK(same_tree(tree, nlohmann::json::parse(text)));
  }
  nlohmann::json tree;
  CHECK(read_plain_json(
      R"({"SuccessURL":"https://shop.example/ok","Payer":{"Contact":{"CrmFields":)"
      R"({"FirstName":"W","Email":"w@example.org"}}},"OneTime":{"Amount":5},"Flags":[1,-2,3.5]})",
      tree));
  CHECK(tree["OneTime"]["Amount"].is_number_unsigned());
  CHECK(tree["Flags"][1].is_number_integer());
  CHECK(tree["Flags"][1].get<int64_t>() == -2);
  CHECK(tree["Flags"][2].get<double>() == 3.5);
}

TEST_CASE("plain JSON leaves to nlohmann what it does not read the same way", "[json]") {
  const char* texts[] = {
      "",
      " ",
      R"({"a":1,"a":2})",  // repeated key: nlohmann's pass names it
      R"({"a":"x\"y"})",   // escape
      R"({"a":1} x)",      // text after the value
      R"({"a":1,})",       // trailing comma
      R"([1 2])",
      R"(01)",
      R"(1.)",
      R"(.5)",
      R"(1e)",
      R"(-)",
      R"(+1)",
      R"(18446744073709551616)",  // past uint64: nlohmann makes a double
      R"(-9223372036854775809)",  // past int64
      R"(1e400)",                 // no finite double
      R"(tru)",
      R"(nul)",
      "\"\x01\"",              // control character
      "\"\xC0\xAF\"",          // overlong
      "\"\xED\xA0\x80\"",      // surrogate
      "\"\xF4\x90\x80\x80\"",  // past U+10FFFF
      "\"\xE2\x82\"",          // cut short
      "\xEF\xBB\xBF{}",        // byte order mark
      R"({"a")",
      R"("open)",
  };
  for (const char* text : texts) {
    INFO(text);
    nlohmann::json tree;
    CHECK_FALSE(read_plain_json(text, tree));
  }
  std::string deep(65, '[');
  deep += std::string(65, ']');
  nlohmann::json tree;
  CHECK_FALSE(read_plain_json(deep, tree));
  CHECK(read_plain_json(deep.substr(1, 128), tree));
}

TEST_CASE("plain JSON agrees with nlohmann on random texts", "[json]") {
  // Texts drawn from JSON's own pieces, so that many are valid and many are
  // nearly so: whenever the plain reader reads one, nlohmann reads the same.
  const std::vector<std::string> pieces = {
      "{",  "}",    "[",  "]",    ",",   ":",       " ",    "\"a\"", "\"b\"", "\"\xC3\xA9\"",
      "0",  "-1",   "12", "3.25", "1e2", "-0.5E-1", "true", "false", "null",  "\"x\\n\"",
      "\"", "\xE2", "1.", "01",   "\t"};
  std::mt19937 random(20261128);
  std::uniform_int_distribution<size_t> piece(0, pieces.size() - 1), length(1, 12);
  int read = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    for (size_t n = length(random); n > 0; --n) text += pieces[piece(random)];
    nlohmann::json tree;
    if (!read_plain_json(text, tree)) continue;
    ++read;
    auto expected = nlohmann_tree(text);
    INFO(text);
    REQUIRE(expected);
    CHECK(same_tree(tree, *expected));
  }
  CHECK(read > 1000);  // the comparison above ran on many texts
}

}  // namespace fake_org::http
