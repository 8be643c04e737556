// contracts/examples/<schema>/{valid,invalid,lenient_only}/*.json through the
// embedded checker of both profiles. valid/ bodies pass both; invalid/ and
// lenient_only/ files are {"why", "expect": [{"pointer", "keyword"}], "body"}:
// invalid ones fail both profiles, lenient_only ones fail strict and pass
// lenient, and every expected (pointer, keyword) must be among the violations,
// so a body cannot fail for a reason other than the one it was written for.
// contracts/tools/ajv_check.js holds ajv to the same files.
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>

#include "checker.h"

namespace fs = std::filesystem;
using contracts::Checker;
using contracts::CheckResult;
using contracts::Profile;
using nlohmann::json;

namespace {

const fs::path kExamples = fs::path(PROJECT_SOURCE_DIR) / "contracts/examples";

json read_json(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return json::parse(s.str());
}

struct Example {
  std::string schema;
  std::string kind;  // valid | invalid | lenient_only
  fs::path file;
};

std::vector<Example> all_examples() {
  std::vector<Example> out;
  for (const auto& entry : fs::recursive_directory_iterator(kExamples)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    fs::path rel = fs::relative(entry.path(), kExamples);
    auto it = rel.begin();
    Example e;
    e.schema = (it++)->string();
    e.kind = (it++)->string();
    e.file = entry.path();
    out.push_back(e);
  }
  return out;
}

bool has(const CheckResult& r, const std::string& pointer, const std::string& keyword) {
  for (const auto& v : r.violations) {
    if (v.pointer == pointer && v.keyword == keyword) return true;
  }
  return false;
}

void check_expectations(const CheckResult& r, const json& expect) {
  REQUIRE(expect.is_array());
  REQUIRE(!expect.empty());
  for (const json& e : expect) {
    INFO("expected violation " << e.dump() << "\n" << r.report());
    CHECK(has(r, e.at("pointer").get<std::string>(), e.at("keyword").get<std::string>()));
  }
}

// Every violation of a known schema says where and why.
void check_detail(const CheckResult& r) {
  for (const auto& v : r.violations) {
    INFO(r.report());
    CHECK(!v.keyword.empty());
    CHECK(!v.schema_location.empty());
    CHECK(!v.expected.empty());
    CHECK(!v.message.empty());
  }
}

}  // namespace

TEST_CASE("every example gets the verdict its folder states, in both profiles", "[examples]") {
  auto strict = Checker::embedded(Profile::kStrict);
  auto lenient = Checker::embedded(Profile::kLenient);
  std::vector<Example> examples = all_examples();
  REQUIRE(examples.size() >= 60);
  std::set<std::string> names;
  for (const auto& n : strict->schema_names()) names.insert(n);

  for (const Example& e : examples) {
    INFO(fs::relative(e.file, kExamples).string());
    REQUIRE(names.count(e.schema) == 1);
    json file = read_json(e.file);
    if (e.kind == "valid") {
      CheckResult s = strict->validate(e.schema, file);
      CheckResult l = lenient->validate(e.schema, file);
      INFO(s.report() << "\n" << l.report());
      CHECK(s.ok());
      CHECK(l.ok());
    } else if (e.kind == "invalid") {
      REQUIRE(file.contains("body"));
      CHECK(!file.value("why", "").empty());
      CheckResult s = strict->validate(e.schema, file["body"]);
      CheckResult l = lenient->validate(e.schema, file["body"]);
      CHECK_FALSE(s.ok());
      CHECK_FALSE(l.ok());
      check_expectations(s, file["expect"]);
      check_detail(s);
      check_detail(l);
    } else if (e.kind == "lenient_only") {
      REQUIRE(file.contains("body"));
      CHECK(!file.value("why", "").empty());
      CheckResult s = strict->validate(e.schema, file["body"]);
      CheckResult l = lenient->validate(e.schema, file["body"]);
      INFO(l.report());
      CHECK_FALSE(s.ok());
      CHECK(l.ok());
      check_expectations(s, file["expect"]);
      check_detail(s);
    } else {
      FAIL("unknown example folder " << e.kind << " (valid, invalid or lenient_only)");
    }
  }
}

TEST_CASE("every schema has a valid and an invalid example", "[examples]") {
  std::map<std::string, std::set<std::string>> kinds;
  for (const Example& e : all_examples()) kinds[e.schema].insert(e.kind);
  for (const auto& name : Checker::embedded(Profile::kStrict)->schema_names()) {
    INFO(name);
    CHECK(kinds[name].count("valid") == 1);
    CHECK(kinds[name].count("invalid") == 1);
  }
}

TEST_CASE("the schemas folder and the embedded copy are the same schemas", "[examples]") {
  for (Profile p : {Profile::kStrict, Profile::kLenient}) {
    auto from_dir =
        Checker::from_directory((fs::path(PROJECT_SOURCE_DIR) / "contracts/schemas").string(), p);
    CHECK(from_dir->schema_names() == Checker::embedded(p)->schema_names());
    CHECK(from_dir->profile() == p);
  }
}
