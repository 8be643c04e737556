#include <catch2/catch.hpp>

#include "eval/json_diff.h"
#include "eval/matchers.h"

using namespace runner;
using nlohmann::json;

namespace {

std::string one_failure(const json& expected, const json& actual, MatchOptions o = {}) {
  auto m = match_json(expected, &actual, o);
  REQUIRE(m.size() == 1);
  return m[0].str();
}

}  // namespace

TEST_CASE("plain values match as a subset unless exact", "[runner][matchers]") {
  json actual = {{"Id", "pi_1"}, {"Status", "New"}, {"Extra", 1}};
  CHECK(json_matches({{"Id", "pi_1"}}, actual));
  CHECK(json_matches(json{{"n", 10}}, json{{"n", 10.0}}));
  CHECK(one_failure({{"Status", "Matched"}}, actual) ==
        R"(/Status: expected "Matched", got "New")");
  CHECK(one_failure({{"Id", "pi_1"}, {"Status", "New"}}, actual, {true}) ==
        "/Extra: expected no such key, got 1");
  CHECK(one_failure({{"Missing", 1}}, actual) == "/Missing: expected 1, got missing");
  CHECK(one_failure(json::array({1, 2}), json::array({1, 2, 3})) ==
        "(root): expected an array of 2 items, got 3 items: [1,2,3]");
  CHECK(one_failure({{"a", {{"b", 1}}}}, {{"a", "text"}}) ==
        R"(/a: expected an object, got "text")");
  CHECK(one_failure({{"a/b", 1}}, {{"a/b", 2}}) == "/a~1b: expected 1, got 2");
}

TEST_CASE("each matcher passes and fails readably", "[runner][matchers]") {
  json a = {{"Id", "pi_abc"},
            {"Amount", 10},
            {"Status", "Outstanding"},
            {"List", {1, 2, 3}},
            {"Items", json::array({{{"t", "x"}}, {{"t", "y"}}})},
            {"Text", "hello world"}};
  SECTION("$regex") {
    CHECK(json_matches(json::parse(R"({"Id": {"$regex": "^pi_"}})"), a));
    CHECK(one_failure(json::parse(R"({"Id": {"$regex": "^px_"}})"), a) ==
          R"(/Id: expected a string matching /^px_/, got "pi_abc")");
    CHECK(one_failure(json::parse(R"({"Amount": {"$regex": "1"}})"), a) ==
          "/Amount: expected a string matching /1/, got 10");
  }
  SECTION("$type") {
    CHECK(json_matches(
        json::parse(R"({"Amount": {"$type": "integer"}, "Id": {"$type": ["string", "null"]}})"),
        a));
    CHECK(one_failure(json::parse(R"({"Amount": {"$type": "string"}})"), a) ==
          "/Amount: expected a value of type string (it is integer), got 10");
  }
  SECTION("$oneOf") {
    CHECK(json_matches(json::parse(R"({"Status": {"$oneOf": ["Pending", "Outstanding"]}})"), a));
    CHECK(
        one_failure(json::parse(R"({"Status": {"$oneOf": ["Pending", {"$regex": "^Col"}]}})"), a) ==
        R"(/Status: expected one of ["Pending", a string matching /^Col/], got "Outstanding")");
  }
  SECTION("$range") {
    CHECK(json_matches(json::parse(R"({"Amount": {"$range": [1, 10]}})"), a));
    CHECK(json_matches(json::parse(R"({"Amount": {"$range": [null, 10]}})"), a));
    CHECK(one_failure(json::parse(R"({"Amount": {"$range": [11, null]}})"), a) ==
          "/Amount: expected a number in [11, ..], got 10");
  }
  SECTION("$exists and $absent") {
    CHECK(json_matches(json::parse(R"({"Id": {"$exists": true}, "Nope": {"$absent": true}})"), a));
    CHECK(one_failure(json::parse(R"({"RedirectURL": {"$exists": true}})"), a) ==
          "/RedirectURL: expected a value (any), got missing");
    CHECK(one_failure(json::parse(R"({"Id": {"$absent": true}})"), a) ==
          R"(/Id: expected no value, got "pi_abc")");
  }
  SECTION("$contains") {
    CHECK(json_matches(json::parse(R"({"List": {"$contains": 2}, "Text": {"$contains": "lo w"}})"),
                       a));
    CHECK(json_matches(json::parse(R"({"Items": {"$contains": {"t": "y"}}})"), a));
    CHECK(json_matches(json::parse(R"({"List": {"$contains": [3, 1]}})"), a));
    // The field that differs comes first, in the closest item.
    CHECK(one_failure(json::parse(R"({"Items": {"$contains": {"t": "z"}}})"), a) ==
          R"(/Items/0/t: expected "z" (no item of /Items is {"t":"z"}; this is in the closest )"
          R"(item), got "x")");
    CHECK(one_failure(json::parse(R"({"List": {"$contains": 7}})"), a) ==
          R"(/List/0: expected 7 (no item of /List is 7; this is in the closest item), got 1)");
  }
  SECTION("$each") {
    CHECK(json_matches(json::parse(R"({"List": {"$each": {"$type": "integer"}}})"), a));
    CHECK(one_failure(json::parse(R"({"List": {"$each": {"$range": [1, 2]}}})"), a) ==
          "/List/2: expected a number in [1, 2], got 3");
  }
  SECTION("$length, $eq and $not") {
    CHECK(json_matches(
        json::parse(R"({"List": {"$length": 3}, "Id": {"$length": {"$range": [1, 9]}}})"), a));
    CHECK(one_failure(json::parse(R"({"List": {"$length": 2}})"), a) ==
          "/List: expected length 2 (it has 3), got [1,2,3]");
    CHECK(one_failure(json::parse(R"({"Status": {"$not": "Outstanding"}})"), a) ==
          R"(/Status: expected not "Outstanding", got "Outstanding")");
    CHECK(json_matches(json::parse(R"({"$eq": {"$x": 1}})"), json::parse(R"({"$x": 1})")));
  }
  SECTION("several matchers in one object must all hold") {
    auto m = match_json(json::parse(R"({"Id": {"$type": "string", "$regex": "^x"}})"), &a);
    REQUIRE(m.size() == 1);
    CHECK(m[0].expected == "a string matching /^x/");
  }
}

TEST_CASE("expected values are validated", "[runner][matchers]") {
  auto issues = validate_expected(json::parse(
      R"({"a": {"$nope": 1}, "b": {"$regex": "x", "plain": 1}, "c": [{"$each": {"$type": "str"}}]})"));
  REQUIRE(issues.size() == 3);
  CHECK(issues[0].pointer == "/a");
  CHECK(issues[1].message.find("mixes matcher keys") != std::string::npos);
  CHECK(issues[2].pointer == "/c/0/$each");
  CHECK(validate_expected(json::parse(R"({"r": {"$regex": "${pattern}("}})")).empty());
}

TEST_CASE("a diff shows only the disagreements", "[runner][matchers]") {
  json expected = json::parse(
      R"({"Id": {"$regex": "^pi_"}, "Status": "Matched", "OneTime": {"Status": "Collected"}})");
  json actual = json::parse(
      R"({"Id": "pi_1", "Status": "New", "OneTime": {"Status": "Collected", "Id": "a0B"}, "Other": 1})");
  std::string d = json_diff(expected, &actual);
  CHECK(d.find("--- expected\n+++ actual\n") == 0);
  CHECK(d.find("-   \"Status\": \"Matched\"") != std::string::npos);
  CHECK(d.find("+   \"Status\": \"New\"") != std::string::npos);
  CHECK(d.find("Other") == std::string::npos);   // subset: keys not expected are left out
  CHECK(d.find("$regex") == std::string::npos);  // a matcher that holds shows as agreement
  CHECK(json_diff(json{{"a", 1}}, &actual).find("-   \"a\": 1") != std::string::npos);
  CHECK(json_diff(json{{"Id", "pi_1"}}, &actual).empty());
  CHECK(line_diff("a\nb\nc\n", "a\nx\nc\n") == "--- expected\n+++ actual\n  a\n- b\n+ x\n  c\n");
}

TEST_CASE("a diff under $each shows the failing items' differing fields first",
          "[runner][matchers]") {
  json expected = json::parse(R"({"records": {"$each": {"Status": "Paid"}}})");
  json actual = {{"records", json::array()}};
  for (int i = 0; i < 10; ++i)
    actual["records"].push_back(
        {{"Id", "a0" + std::to_string(i)}, {"Status", i == 4 ? "Pending" : "Paid"}, {"Amount", i}});
  const std::string d = json_diff(expected, &actual);
  INFO(d);
  // The first change line is the field that differs, not the matcher object.
  const size_t first_change = d.find("\n-", d.find("+++ actual"));
  REQUIRE(first_change != std::string::npos);
  CHECK(d.substr(first_change + 1, d.find('\n', first_change + 1) - first_change - 1) ==
        "-       \"Status\": \"Paid\"");
  CHECK(d.find("+       \"Status\": \"Pending\"") != std::string::npos);
  CHECK(d.find("(4 items that match)") != std::string::npos);
  CHECK(d.find("(5 items that match)") != std::string::npos);
  CHECK(d.find("$each") == std::string::npos);
  CHECK(d.find("Amount") == std::string::npos);  // keys the matcher ignores stay out
}

TEST_CASE("a diff under $contains compares the wanted item with the closest one",
          "[runner][matchers]") {
  json expected = json::parse(
      R"({"errors": {"$contains": [{"row": 2, "code": "REQUIRED_FIELD_MISSING"}, {"row": 1}]}})");
  json actual = json::parse(
      R"({"errors": [{"row": 1, "code": "X", "message": "m"}, {"row": 2, "code": "INVALID_EMAIL_ADDRESS", "message": "m"}]})");
  const std::string d = json_diff(expected, &actual);
  INFO(d);
  CHECK(d.find("-       \"code\": \"REQUIRED_FIELD_MISSING\"") != std::string::npos);
  CHECK(d.find("+       \"code\": \"INVALID_EMAIL_ADDRESS\"") != std::string::npos);
  CHECK(d.find("$contains") == std::string::npos);
  CHECK(d.find("message") == std::string::npos);
}
