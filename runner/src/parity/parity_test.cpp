// Parity: body comparison rules, the allow list, and two fixtures that differ
// on purpose (invalid data answered 400 instead of 422) reporting exactly
// those differences.
#include <set>

#include <catch2/catch.hpp>

#include "parity/allow_list.h"
#include "parity/parity_report.h"
#include "parity/parity_runner.h"
#include "scenario/loader.h"

using namespace runner;
using namespace runner::parity;
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

TEST_CASE("parity between the default fixture and one answering 400 reports exactly those statuses",
          "[parity]") {
  const std::string root = PROJECT_SOURCE_DIR;
  const std::string errors_file = root + "/scenarios/errors/invalid_data.yaml";
  ParityOptions o;
  o.a = "embedded";
  o.b = "embedded:" + root + "/fixtures/parity/error_status_400.yaml";
  o.paths = {errors_file, root + "/scenarios/info/payment_methods.yaml",
             root + "/scenarios/payment_intent/sepa_inline.yaml",
             root + "/scenarios/payment_intent/pay_existing_installment.yaml"};
  o.jobs = 2;
  std::vector<std::string> errors;
  ParityResult r = run_parity(o, errors);
  std::string all;
  for (const auto& e : errors) all += e + "\n";
  INFO(all);
  REQUIRE(errors.empty());
  CHECK(r.scenarios == 4);

  // Every step of invalid_data.yaml that the default org answers 422.
  LoadResult loaded = load_scenario_file(errors_file);
  REQUIRE(loaded.ok());
  std::set<size_t> expected_steps;
  for (size_t i = 0; i < loaded.scenario->steps.size(); ++i) {
    const auto* step = std::get_if<RequestStep>(&loaded.scenario->steps[i].body);
    if (step && step->expect.status && *step->expect.status == 422) expected_steps.insert(i + 1);
  }
  REQUIRE_FALSE(expected_steps.empty());

  std::ostringstream table;
  print_table(r, table);
  INFO(table.str());
  std::set<size_t> reported;
  for (const auto& d : r.differences) {
    CHECK(d.file == errors_file);
    CHECK(d.kind == "status");
    CHECK(d.a == "422");
    CHECK(d.b == "400");
    reported.insert(d.step);
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
