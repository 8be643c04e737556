// The bulk step against the embedded fake: a job from creation to its end
// in one step, its result CSVs checked by row and column.
#include <catch2/catch.hpp>

#include "report/failure_text.h"
#include "testing/run_helpers.h"

using namespace runner;
using namespace runner::testing;

TEST_CASE("bulk: a generated CSV is inserted and its results checked", "[runner][bulk]") {
  auto target = make_embedded_target();
  ScenarioResult r = run_text(*target, R"(name: bulk
vars: {tag: "t${uuid}"}
steps:
  - bulk:
      object: Contact
      data:
        - "LastName,Email\n"
        - {repeat: 3, line: "${tag}-${i},c${i}@example.org"}
        - ",nolastname@example.org\n"
      successful:
        csv:
          count: 3
          rows: {$each: {sf__Created: true, LastName: {$regex: "^${tag}-[1-3]$"}}}
      failed:
        csv:
          rows: [{Email: nolastname@example.org, sf__Error: {$regex: "^REQUIRED_FIELD_MISSING:"}}]
    expect:
      json: {state: JobComplete, numberRecordsProcessed: 4, numberRecordsFailed: 1}
    capture: {job: $.id}
  - query: SELECT COUNT() FROM Contact WHERE LastName LIKE '${tag}-%'
    expect: {json: {totalSize: 3}}
)");
  std::string why = r.error;
  for (const auto& s : r.steps) why += failure_text(s);
  INFO(why);
  REQUIRE(r.outcome == Outcome::kPassed);
  CHECK(contains(r.steps[0].detail, " JobComplete after "));
  CHECK(contains(r.steps[0].detail, ": 4 processed, 1 failed, "));
  CHECK(r.steps[0].name == "bulk insert Contact");
}

TEST_CASE("bulk: a result that differs names the stage, the row and the column", "[runner][bulk]") {
  auto target = make_embedded_target();
  ScenarioResult r = run_text(*target, R"(name: bulk fails
steps:
  - bulk:
      object: Contact
      data: "LastName,Email\nA,a@example.org\n,b@example.org\n"
      failed:
        csv:
          rows:
            - {Email: b@example.org,
               sf__Error: {$regex: "^INVALID_EMAIL_ADDRESS:"}}
)");
  REQUIRE(r.outcome == Outcome::kFailed);
  const Failure& f = only_failure(r);
  INFO(f.message);
  CHECK(f.kind == "csv");
  CHECK(contains(f.message,
                 "failedResults: 1 difference in the CSV body:\n  row 1 (line 2), "
                 "column sf__Error: expected a string matching /^INVALID_EMAIL_ADDRESS:/"));
  CHECK(f.pos.line == 10);  // the sf__Error matcher's own line
}

TEST_CASE("bulk: an aborted job ends Aborted with its rows unprocessed", "[runner][bulk]") {
  auto target = make_embedded_target();
  ScenarioResult r = run_text(*target, R"(name: bulk abort
steps:
  - bulk:
      object: Contact
      data: ["LastName\n", {repeat: 20, line: "x-${i}"}]
      abort: true
      unprocessed: {csv: {columns: [LastName], count: 20, rows: {$contains: {LastName: x-20}}}}
    expect: {json: {state: Aborted}}
)");
  const std::string why = r.steps.empty() ? r.error : failure_text(r.steps[0]);
  INFO(why);
  CHECK(r.outcome == Outcome::kPassed);
}

TEST_CASE("bulk: mistakes in the step are named where they are written", "[runner][bulk]") {
  LoadResult r = load_scenario_text(R"(name: bad bulk
steps:
  - bulk:
      object: Contact
      operation: upsert
      delimiter: SPACE
      data: [{repeat: 0, line: "x"}, {file: no-such.csv}]
    expect: {csv: {rows: 3}}
)",
                                    "bad.yaml");
  std::string all;
  for (const auto& e : r.errors) all += e.str() + "\n";
  INFO(all);
  CHECK(contains(all, "bulk.external_id (the field to match on) goes with operation upsert"));
  CHECK(contains(all, "bad.yaml:6:18: bulk.delimiter is COMMA, TAB"));
  CHECK(contains(all, "repeat is a number of lines from 1 to 1000000"));
  CHECK(contains(all, "cannot read "));
  CHECK(contains(all, "expect.csv: csv.rows is a list of rows or a matcher"));
}
