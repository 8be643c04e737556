#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>

#include <unistd.h>

#include "run/plan.h"

using namespace runner;
namespace fs = std::filesystem;

namespace {

Scenario named(const std::string& file, const std::string& name,
               std::vector<std::string> tags = {}) {
  Scenario s;
  s.file = file;
  s.name = name;
  s.tags = std::move(tags);
  return s;
}

}  // namespace

TEST_CASE("shards cover every scenario exactly once", "[runner][plan]") {
  std::vector<Scenario> all;
  for (int i = 0; i < 23; ++i)
    all.push_back(named("s/" + std::to_string(100 + (i * 7) % 23) + ".yaml", "n"));
  for (int n = 1; n <= 5; ++n) {
    std::multiset<std::string> seen;
    for (int k = 1; k <= n; ++k) {
      Selection sel;
      sel.shard = Shard{k, n};
      auto part = select(all, sel);
      CHECK(part.size() >= size_t(23 / n));
      CHECK(part.size() <= size_t(23 / n + 1));
      for (const auto& s : part) seen.insert(s.file);
      // Deterministic: the same shard twice is the same list.
      auto again = select(all, sel);
      REQUIRE(again.size() == part.size());
      for (size_t i = 0; i < part.size(); ++i) CHECK(again[i].file == part[i].file);
    }
    CHECK(seen.size() == all.size());
    for (const auto& s : all) CHECK(seen.count(s.file) == 1);
  }
}

TEST_CASE("shard text is K/N", "[runner][plan]") {
  CHECK(parse_shard("1/2")->index == 1);
  CHECK(parse_shard("2/2")->count == 2);
  CHECK_FALSE(parse_shard("0/2"));
  CHECK_FALSE(parse_shard("3/2"));
  CHECK_FALSE(parse_shard("1-2"));
  CHECK_FALSE(parse_shard("/2"));
}

TEST_CASE("tag and name filters, applied before sharding", "[runner][plan]") {
  std::vector<Scenario> all = {named("b.yaml", "refund flow", {"psp"}),
                               named("a.yaml", "one-time card", {"psp", "smoke"}),
                               named("c.yaml", "oauth refresh", {"oauth"})};
  Selection by_tag;
  by_tag.tags = {"psp"};
  auto psp = select(all, by_tag);
  REQUIRE(psp.size() == 2);
  CHECK(psp[0].file == "a.yaml");  // sorted by file
  Selection by_name;
  by_name.name = std::regex("^o");
  CHECK(select(all, by_name).size() == 2);
  Selection any_tag;
  any_tag.tags = {"oauth", "smoke"};
  CHECK(select(all, any_tag).size() == 2);
}

TEST_CASE("scenario files are found under folders, skipping schema/ and fixtures/",
          "[runner][plan]") {
  fs::path dir = fs::temp_directory_path() / ("runner_plan_" + std::to_string(::getpid()));
  fs::create_directories(dir / "sub");
  fs::create_directories(dir / "schema");
  fs::create_directories(dir / "sub" / "fixtures");
  std::ofstream(dir / "b.yaml") << "name: b\nsteps: [{request: GET /x}]\n";
  std::ofstream(dir / "sub" / "a.yml") << "name: a\nsteps: [{request: GET /x}]\n";
  std::ofstream(dir / "schema" / "example.yaml") << "not: a scenario\n";
  std::ofstream(dir / "sub" / "fixtures" / "org.yaml") << "extends: default.yaml\n";
  std::ofstream(dir / "notes.md") << "# not yaml\n";
  std::vector<LoadError> errors;
  auto files =
      find_scenario_files({dir.string(), (dir / "b.yaml").string(), "/no/such/dir"}, errors);
  REQUIRE(files.size() == 2);
  CHECK(files[0] == (dir / "b.yaml").string());
  CHECK(files[1] == (dir / "sub" / "a.yml").string());
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].str() == "/no/such/dir: no such file or folder");
  Plan plan = load_plan({dir.string()});
  CHECK(plan.errors.empty());
  CHECK(plan.scenarios.size() == 2);
  fs::remove_all(dir);
}

TEST_CASE("a sandbox configuration in a folder is a target, left out of the plan",
          "[runner][plan][init]") {
  fs::path dir = fs::temp_directory_path() / ("runner_plan_sandbox_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "first.yaml") << "name: first\nsteps: [{request: GET /x}]\n";
  std::ofstream(dir / "sandbox.yaml") << "instance_url: https://x.example\noauth: {}\n";
  // A scenario with a stray instance_url is still a scenario, with its error.
  std::ofstream(dir / "odd.yaml") << "name: odd\ninstance_url: x\nsteps: [{request: GET /x}]\n";
  Plan plan = load_plan({dir.string()});
  REQUIRE(plan.scenarios.size() == 1);
  CHECK(plan.scenarios[0].name == "first");
  REQUIRE(plan.errors.size() == 1);
  CHECK(plan.errors[0].message.find("unknown key 'instance_url'") != std::string::npos);

  const std::string named = (dir / "sandbox.yaml").string();
  Plan direct = load_plan({named});
  CHECK(direct.scenarios.empty());
  REQUIRE(direct.errors.size() == 1);
  CHECK(direct.errors[0].str() == named +
                                      ":1:1: this is a sandbox configuration (a target), not a "
                                      "scenario: pass it with --target " +
                                      named);
  fs::remove_all(dir);
}
