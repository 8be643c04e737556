// Parity: body comparison rules, the allow list, and two fixtures that differ
// on purpose (invalid data answered 400 instead of 422) reporting exactly
// those differences.
#include <set>
#include <sstream>

#include <catch2/catch.hpp>

#include "app/embedded.h"
#include "commands/parity/allow_list.h"
#include "commands/parity/parity_report.h"
#include "commands/parity/parity_runner.h"
#include "fixture/fixture_loader.h"
#include "run/plan.h"
#include "scenario/loader.h"
#include "targets/fixture_cache.h"
#include "testing/child_process.h"

using namespace runner;
using namespace runner::parity;

namespace {

// run_parity that must not refuse its options; the refusals, if it does.
ParityResult run_parity_ok(const ParityOptions& o) {
  std::vector<std::string> errors;
  ParityResult r = run_parity(o, errors);
  std::string all;
  for (const auto& e : errors) all += e + "\n";
  INFO(all);
  REQUIRE(errors.empty());
  return r;
}

}  // namespace
using nlohmann::json;

TEST_CASE("bodies differ by fields, types and enums, not by generated values", "[parity]") {
  json a = json::parse(
      R"j({"Id":"pi_abc","Status":"New","Amount":10,"CreatedDate":"2026-11-22T06:00:00Z",
                          "Items":[{"Name":"CreditCard"},{"Name":"SEPA"}],"Message":"a long text that may differ freely"})j");
  json b = json::parse(
      R"j({"Id":"pi_xyz","Status":"New","Amount":10.0,"CreatedDate":"2027-01-01T00:00:00Z",
                          "Items":[{"Name":"SEPA"},{"Name":"CreditCard"}],"Message":"other words entirely here now"})j");
  CHECK(compare_bodies(a, b).empty());

  b["Status"] = "Processing";
  b["Amount"] = "10";
  b.erase("Message");
  b["Extra"] = true;
  auto d = compare_bodies(a, b);
  REQUIRE(d.size() == 4);
  CHECK(
      (d[0].kind == "type" && d[0].path == "/Amount" && d[0].a == "number" && d[0].b == "string"));
  CHECK((d[1].kind == "field" && d[1].path == "/Message" && d[1].b == "absent"));
  CHECK(
      (d[2].kind == "enum" && d[2].path == "/Status" && d[2].a == "New" && d[2].b == "Processing"));
  CHECK((d[3].kind == "field" && d[3].path == "/Extra" && d[3].a == "absent"));
}

TEST_CASE("a random token that reads like a word on one side is no enum difference", "[parity]") {
  // CI saw a PSP reference with no digit and no four-consonant run; shorter
  // ones still slip past high_entropy().
  const json word = {{"Name", "psp_qezaponizbamca"}};
  const json token = {{"Name", "psp_k2j9x0q7r3m8wz"}};
  CHECK(compare_bodies(word, token).empty());
  CHECK(compare_bodies(token, word).empty());
  CHECK(compare_bodies(json{{"Name", json::array({"psp_qezaponizbamca", "psp_k2j9x0q7r3m8wz"})}},
                       json{{"Name", json::array({"psp_h3k9x0q7r3m8wz"})}})
            .empty());
  // A real enum against a generated value of another shape still differs.
  auto d = compare_bodies(json{{"Name", "Paid"}}, token);
  REQUIRE(d.size() == 1);
  CHECK((d[0].kind == "enum" && d[0].a == "Paid" && d[0].b.empty()));
  CHECK(compare_bodies(json{{"Name", "psp_qezaponizbamca"}}, json{{"Name", "ref_qezaponizbamca"}})
            .size() == 1);
}

TEST_CASE("allow lists match by kind, scenario, step, path and values", "[parity]") {
  AllowList list = AllowList::load_text(R"(
allow:
  - reason: some orgs answer 400 for invalid data
    kind: status
    scenario: "^errors/"
    a: "422"
    b: "400"
)",
                                        "allow.yaml");
  Difference d;
  d.file = "errors/invalid_data.yaml";
  d.kind = "status";
  d.a = "422";
  d.b = "400";
  Difference other = d;
  other.file = "payment_intent/x.yaml";
  std::vector<Difference> diffs = {d, other};
  list.apply(diffs);
  CHECK(diffs[0].allowed);
  CHECK(diffs[0].reason == "some orgs answer 400 for invalid data");
  CHECK_FALSE(diffs[1].allowed);
  CHECK_THROWS_WITH(AllowList::load_text("allow:\n  - kind: status\n", "a.yaml"),
                    Catch::Contains("a.yaml:2:5: every entry needs a reason"));
  CHECK_THROWS_WITH(AllowList::load_text("allow:\n  - {reason: x, knd: status}\n", "a.yaml"),
                    Catch::Contains("unknown key 'knd'"));
}

TEST_CASE("parity of the embedded target with itself over the whole suite finds no difference",
          "[parity]") {
  // Every id, token, reference and autonumber the fake makes up differs
  // between the two runs; none may be reported.
  ParityOptions o;
  o.a = "embedded";
  o.b = "embedded";
  o.paths = {std::string(PROJECT_SOURCE_DIR) + "/scenarios"};
  o.jobs = 2;
  ParityResult r = run_parity_ok(o);
  std::ostringstream table;
  print_table(r, table);
  INFO(table.str());
  Plan plan = load_plan(o.paths);
  CHECK(r.scenarios == plan.scenarios.size());
  CHECK(r.scenarios > 60);
  CHECK(r.skipped.empty());
  CHECK(r.differences.empty());
}

TEST_CASE("parity between the default fixture and one answering 400 reports exactly those statuses",
          "[parity]") {
  // Three folders with scenarios of several fixtures: those of other
  // fixtures are skipped (the forced fixture extends default.yaml only);
  // every default-fixture scenario runs. (The whole suite runs once, in the
  // test above.)
  const std::string root = PROJECT_SOURCE_DIR;
  ParityOptions o;
  o.a = "embedded";
  o.b = "embedded:" + root + "/fixtures/parity/error_status_400.yaml";
  o.paths = {root + "/scenarios/errors", root + "/scenarios/info", root + "/scenarios/reads"};
  o.jobs = 2;
  ParityResult r = run_parity_ok(o);

  // Every step the default org answers 422 (invalid data), in every
  // default-fixture scenario; the other scenarios are skipped.
  Plan plan = load_plan(o.paths);
  REQUIRE(plan.errors.empty());
  std::set<std::pair<std::string, size_t>> expected_steps;
  std::set<std::string> default_files, other_files;
  for (const auto& sc : plan.scenarios) {
    if (FixtureCache::key(sc) != "default.yaml") {
      other_files.insert(sc.file);
      continue;
    }
    default_files.insert(sc.file);
    for (size_t i = 0; i < sc.steps.size(); ++i) {
      const auto* step = std::get_if<RequestStep>(&sc.steps[i].body);
      if (step && step->expect.status && *step->expect.status == 422)
        expected_steps.insert({sc.file, i + 1});
    }
  }
  REQUIRE(default_files.size() >= 10);
  REQUIRE(other_files.size() >= 8);
  REQUIRE_FALSE(expected_steps.empty());
  CHECK(r.scenarios == plan.scenarios.size());
  std::set<std::string> skipped;
  for (const auto& s : r.skipped) {
    CHECK_THAT(s, Catch::Contains("which extends default.yaml"));
    skipped.insert(s.substr(0, s.find(": ")));
  }
  CHECK(skipped == other_files);

  std::ostringstream table;
  print_table(r, table);
  INFO(table.str());
  std::set<std::pair<std::string, size_t>> reported;
  for (const auto& d : r.differences) {
    INFO(d.file << " #" << d.step << " " << d.kind << " " << d.path);
    CHECK(d.kind == "status");
    CHECK(d.a == "422");
    CHECK(d.b == "400");
    reported.insert({d.file, d.step});
  }
  CHECK(reported == expected_steps);
  CHECK(r.differences.size() == expected_steps.size());
  CHECK(table.str().find("status") != std::string::npos);
  json j = json_report(r);
  CHECK(j["summary"]["unallowed"] == expected_steps.size());

  AllowList allow = AllowList::load_text(
      "allow:\n  - {reason: this org answers 400 for invalid data, kind: status, a: \"422\", b: "
      "\"400\"}\n",
      "allow.yaml");
  allow.apply(r.differences);
  CHECK(r.unallowed() == 0);
}

TEST_CASE("parity against a running fake-org lists and counts the scenarios of other fixtures",
          "[parity]") {
  // The url target learns which fixture the fake serves only when prepared;
  // asked before, it fitted everything and the misfits vanished unreported.
  auto config = fake_org::load_embedded_fixture("default.yaml");
  REQUIRE(config.ok());
  auto org = fake_org::EmbeddedOrg::start(*config.config);
  const std::string root = PROJECT_SOURCE_DIR;
  ParityOptions o;
  o.a = "embedded";
  o.b = org->base_url();
  o.paths = {root + "/scenarios/errors", root + "/scenarios/info", root + "/scenarios/reads"};
  o.jobs = 2;
  ParityResult r = run_parity_ok(o);
  Plan plan = load_plan(o.paths);
  std::set<std::string> other_files;
  for (const auto& sc : plan.scenarios)
    if (FixtureCache::key(sc) != "default.yaml") other_files.insert(sc.file);
  REQUIRE_FALSE(other_files.empty());
  std::set<std::string> skipped;
  for (const auto& s : r.skipped) {
    CHECK_THAT(s, Catch::EndsWith("is not what B forces (default.yaml)"));
    skipped.insert(s.substr(0, s.find(": ")));
  }
  CHECK(skipped == other_files);
  CHECK(r.skipped_a == 0);
  CHECK(r.skipped_b == other_files.size());
  CHECK(r.compared == plan.scenarios.size() - other_files.size());

  std::ostringstream table;
  print_table(r, table);
  CHECK_THAT(table.str(),
             Catch::Contains(std::to_string(r.compared) + " compared, " +
                             std::to_string(other_files.size()) + " skipped (A cannot run 0, B " +
                             std::to_string(other_files.size()) + ")"));
  auto j = json_report(r);
  CHECK(j["summary"]["compared"] == r.compared);
  CHECK(j["summary"]["skipped"] == other_files.size());
  CHECK(j["summary"]["skipped_by"]["b"] == other_files.size());
}

TEST_CASE("parity with nothing compared does not say the targets agree", "[parity]") {
  ParityResult r;
  r.a = r.b = "embedded";
  r.scenarios = 1;
  r.skipped = {"x.yaml: needs fixture nonprofit.yaml"};
  r.skipped_b = 1;
  std::ostringstream table;
  print_table(r, table);
  CHECK_THAT(table.str(), Catch::EndsWith("0 difference(s): nothing was compared\n"));
}

TEST_CASE("the parity table keeps step names readable beside a deep path", "[parity]") {
  ParityResult r;
  r.a = r.b = "embedded";
  r.scenarios = r.compared = 1;
  Difference d;
  d.file = "scenarios/recurring/some_rather_long_folder/update_source_connector.yaml";
  d.step = 12;
  d.step_name = "poll GET /Recurring/${recurring} until Active";  // 45 characters
  d.kind = "status";
  d.a = "200";
  d.b = "404";
  r.differences = {d};
  std::ostringstream table;
  print_table(r, table);
  CHECK_THAT(table.str(), Catch::Contains("#12 poll GET /Recurring/${recurring} until Active"));
}

namespace {

// A fake-org started as a process on a free port; its URL.
std::string parity_org_url(runner::testing::ChildProcess& org) {
  const std::string line = org.read_line();
  const std::string prefix = "listening on ";
  REQUIRE(line.rfind(prefix, 0) == 0);
  return line.substr(prefix.size());
}

}  // namespace

TEST_CASE("parity between two fake-org URLs compares the fixtures they serve",
          "[parity][process]") {
  // Each URL serves its own fixture: one answers invalid data 422, the other
  // 400. Run each scenario on its own fixture at both URLs and they "agree".
  const std::string bin = std::string(FAKE_ORG_BIN_DIR) + "/fake-org";
  if (!std::filesystem::exists(bin)) {
    WARN("fake-org is not built; build the fake-org target to run this test");
    return;
  }
  const std::string root = PROJECT_SOURCE_DIR;
  // The bare shipped name, as scenarios name it.
  runner::testing::ChildProcess org_a(
      {bin, "--port", "0", "--log-level", "quiet", "--fixture", "default.yaml"});
  // Its throwaway orgs name that file over HTTP: under --fixtures-dir only.
  runner::testing::ChildProcess org_b({bin, "--port", "0", "--log-level", "quiet", "--fixture",
                                       root + "/fixtures/parity/error_status_400.yaml",
                                       "--fixtures-dir", root + "/fixtures"});
  ParityOptions o;
  o.a = parity_org_url(org_a);
  o.b = parity_org_url(org_b);
  o.paths = {root + "/scenarios/payment_intent/amounts_and_currency.yaml"};
  o.jobs = 2;
  ParityResult r = run_parity_ok(o);
  std::ostringstream table;
  print_table(r, table);
  INFO(table.str());
  CHECK(r.compared == 1);
  REQUIRE_FALSE(r.differences.empty());
  for (const auto& d : r.differences) {
    CHECK(d.kind == "status");
    CHECK(d.a == "422");
    CHECK(d.b == "400");
    CHECK(d.step > 0);
  }
  CHECK(r.side_a.fixture == "default.yaml (served at the root)");
  CHECK_THAT(r.side_b.fixture,
             Catch::Contains("error_status_400.yaml, which extends default.yaml"));
  CHECK(r.side_b.api_version == "68.0");
  CHECK_THAT(table.str(),
             Catch::Contains("  B: fixture " + root + "/fixtures/parity/error_status_400.yaml"));
  CHECK_THAT(table.str(), Catch::Contains("; API version 68.0"));
  const json j = json_report(r);
  CHECK(j["sides"]["a"]["target"] == o.a);
  CHECK(j["summary"]["distinct"] == 1);
  CHECK(j["groups"][0]["count"] == r.differences.size());
}

TEST_CASE("parity on a shipped fixture by name follows what it extends", "[parity]") {
  // package.yaml extends default.yaml: the default fixture's scenarios run on it.
  const std::string root = PROJECT_SOURCE_DIR;
  ParityOptions o;
  o.a = "embedded";
  o.b = "embedded:package.yaml";
  o.paths = {root + "/scenarios/payment_intent/campaign_id.yaml"};
  ParityResult r = run_parity_ok(o);
  CHECK(r.skipped.empty());
  CHECK(r.compared == 1);
  CHECK(r.side_b.fixture == "package.yaml, which extends default.yaml");

  o.b = "embedded:nowhere.yaml";
  std::vector<std::string> errors;
  run_parity(o, errors);
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0], Catch::Contains("neither a file nor a shipped fixture: "));
  CHECK_THAT(errors[0], Catch::Contains("package.yaml"));
}

TEST_CASE("the parity table groups repeated differences and names every step", "[parity]") {
  ParityResult r;
  r.a = r.b = "embedded";
  r.scenarios = r.compared = 2;
  for (size_t i = 1; i <= 3; ++i) {
    Difference d;
    d.file = "s" + std::to_string(i) + ".yaml";
    d.step = i;
    d.kind = "status";
    d.a = "422";
    d.b = "400";
    r.differences.push_back(d);
  }
  std::ostringstream table;
  print_table(r, table);
  CHECK_THAT(table.str(), Catch::Contains("s1.yaml #1 "));
  CHECK_THAT(table.str(), Catch::Contains("x3 (first shown)"));
  CHECK_THAT(table.str(), Catch::Contains("3 difference(s), 1 distinct"));
  CHECK(table.str().find("s2.yaml") == std::string::npos);

  // A webhook step has no exchange: its difference keeps its number and name.
  StepResult a, b;
  a.index = b.index = 4;
  a.name = b.name = "await_webhook payment.succeeded";
  a.kind = b.kind = StepKind::kAwaitWebhook;
  a.outcome = Outcome::kPassed;
  b.outcome = Outcome::kFailed;
  auto found = compare_steps(a, b);
  REQUIRE(found.size() == 1);
  CHECK(found[0].step == 5);
  CHECK(found[0].step_name == "await_webhook payment.succeeded");
}
