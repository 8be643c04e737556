#include <catch2/catch.hpp>

#include "eval/interpolate.h"
#include "eval/json_path.h"

using namespace runner;
using nlohmann::json;

TEST_CASE("interpolation keeps the type of a whole-string reference", "[runner][interpolate]") {
  Variables vars = {{"amount", 10.5}, {"pi", "pi_1"}, {"obj", {{"a", 1}}}};
  Builtins b;
  b.today = [] { return std::string("2027-01-31"); };
  b.webhook_url = [] { return std::string("http://127.0.0.1:1/hooks/s1"); };
  b.env = [](const std::string& n) -> std::optional<std::string> {
    if (n == "SECRET") return std::string("s3cret");
    return std::nullopt;
  };
  Interpolator in(vars, b);
  CHECK(in.value("${amount}") == 10.5);
  CHECK(in.value("${obj}") == json{{"a", 1}});
  CHECK(in.text("/PaymentIntent/${pi}?x=${amount}") == "/PaymentIntent/pi_1?x=10.5");
  CHECK(in.value(json{{"k-${pi}", {"${pi}", "$${pi}"}}}) == json{{"k-pi_1", {"pi_1", "${pi}"}}});
  CHECK(in.text("${today}") == "2027-01-31");
  CHECK(in.text("${today+30d}") == "2027-03-02");
  CHECK(in.text("${today-1w}") == "2027-01-24");
  // A unit today does not take is named with the units it does take.
  TemplateScan minutes = scan_template("${today+2m}");
  CHECK_THAT(minutes.error, Catch::Contains("with unit d (days) or w (weeks)"));
  CHECK(in.text("${env:SECRET}") == "s3cret");
  CHECK(in.text("${webhook_url}") == "http://127.0.0.1:1/hooks/s1");
  std::string u1 = in.text("${uuid}"), u2 = in.text("${uuid}");
  CHECK(u1 != u2);
  CHECK(u1.size() == 36);
  CHECK(u1[14] == '4');
  CHECK_THROWS_WITH(in.text("${env:NOPE}"), "environment variable NOPE is not set");
  CHECK_THROWS_WITH(in.text("${unknown}"), "'${unknown}' is not defined");
  CHECK_THROWS_WITH(in.text("${now}"), "'${now}' is not available on this target");
  CHECK_THROWS(in.text("${pi"));
}

TEST_CASE("references are checked against what is defined", "[runner][interpolate]") {
  auto issues =
      check_references(json{{"a", "${x}"}, {"b", {"${y}", "${env:HOME}", "${today+3d}"}}}, {"x"});
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].pointer == "/b/0");
  CHECK(issues[0].message.find("(defined: x)") != std::string::npos);
  CHECK(check_references("${1abc}", {}).at(0).message.find("not a variable name") !=
        std::string::npos);
}

TEST_CASE("capture paths: JSONPath subset and JSON pointer", "[runner][interpolate]") {
  json doc =
      json::parse(R"({"a": {"b": [10, 20, {"c d": "x"}]}, "Errors": [{"error_code": "200"}]})");
  CHECK(*find_path(doc, "$.a.b[1]") == 20);
  CHECK(*find_path(doc, "$.a.b[-1]['c d']") == "x");
  CHECK(*find_path(doc, "/a/b/0") == 10);
  CHECK(*find_path(doc, "$.Errors[0].error_code") == "200");
  CHECK(*find_path(doc, "$") == doc);
  CHECK(find_path(doc, "$.a.z") == nullptr);
  CHECK(find_path(doc, "$.a.b[7]") == nullptr);
  CHECK_FALSE(parse_path("a.b").error.empty());
  CHECK_FALSE(parse_path("$.a[x]").error.empty());
  CHECK_FALSE(parse_path("$.a[0").error.empty());
}
