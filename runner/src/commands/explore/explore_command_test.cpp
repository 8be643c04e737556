// `scenario-runner explore` on the embedded fake: a small budget passes and
// writes its reports; a defect planted through the fake's fault injection
// (--prelude) is found, shrunk, written, and the written scenario fails the
// same way when the runner replays it.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "commands/cli/run_command.h"
#include "commands/explore/explore_command.h"
#include "testing/temp_dir.h"

using namespace runner;
using namespace runner::explore;

namespace {

const std::string kExploreTestdata = std::string(PROJECT_SOURCE_DIR) + "/runner/testdata/explore/";

struct ExploreRan {
  int code;
  std::string out, err;
};

ExploreRan run_explore(const ExploreCommandOptions& o) {
  std::ostringstream out, err;
  const int code = explore_command(o, out, err);
  return {code, out.str(), err.str()};
}

nlohmann::json explore_read_json(const std::filesystem::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("explore command: a small budget on the embedded fake passes", "[explore]") {
  testing::TempDir dir("explore_pass");
  ExploreCommandOptions o;
  o.seed = 1;
  o.budget = "24";
  o.jobs = 2;
  o.out = (dir.path / "found").string();
  o.report_json = (dir.path / "report.json").string();
  o.report_junit = (dir.path / "junit.xml").string();
  const ExploreRan r = run_explore(o);
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("24 passed, 0 failed, 0 skipped"));
  CHECK_THAT(r.out, Catch::Contains("no check failed in 24 case(s)"));
  const auto j = explore_read_json(o.report_json);
  CHECK(j["explore"]["cases"] == 24);
  CHECK(j["explore"]["seed"] == 1);
  CHECK(j["explore"]["findings"].empty());
  CHECK(j["explore"]["by_check"]["no_5xx"]["failed"] == 0);
  CHECK(std::filesystem::file_size(o.report_junit) > 0);
  CHECK_FALSE(std::filesystem::exists(o.out));
}

TEST_CASE("explore command: the default budget sends every request-schema property", "[explore]") {
  // The default run as ci/test makes it, on the facts the embedded org gives.
  testing::TempDir dir("explore_default");
  ExploreCommandOptions o;
  o.jobs = 2;
  o.out = (dir.path / "found").string();
  o.report_json = (dir.path / "report.json").string();
  const ExploreRan r = run_explore(o);
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  const auto j = explore_read_json(o.report_json);
  CHECK(j["explore"]["cases"] == 200);
  const auto& properties = j["explore"]["coverage"]["properties"];
  REQUIRE(properties.size() >= 89);
  for (const auto& [key, p] : properties.items()) {
    INFO(key);
    // Sent by a valid case, or not sent for a reason unsent_properties() states.
    CHECK((p["valid"] == true || p.contains("unsent_reason")));
    if (p["valid"] == true) CHECK(p["near_miss"] == true);
  }
  CHECK(j["explore"]["facts"]["currency"] == "EUR");
}

TEST_CASE("explore command: a planted 500 is found, shrunk and replays", "[explore]") {
  testing::TempDir dir("explore_500");
  ExploreCommandOptions o;
  o.seed = 1;
  o.budget = "16";
  o.prelude = kExploreTestdata + "plant_500.yaml";
  o.out = (dir.path / "found").string();
  o.report_json = (dir.path / "report.json").string();
  const ExploreRan r = run_explore(o);
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  const auto j = explore_read_json(o.report_json);
  bool found = false;
  std::string file;
  for (const auto& f : j["explore"]["findings"])
    if (f["check"] == "no_5xx" && file.empty()) {
      found = true;
      file = f["file"].get<std::string>();
      CHECK(f["shrunk_steps"].get<size_t>() <= f["steps"].get<size_t>());
    }
  REQUIRE(found);
  REQUIRE(std::filesystem::exists(file));
  // The runner replays the written file and fails on its status expectation.
  RunOptions ro;
  ro.paths = {file};
  ro.report_json = (dir.path / "replay.json").string();
  std::ostringstream out, err;
  CHECK(run_command(ro, out, err) == 1);
  const auto replay = explore_read_json(ro.report_json);
  bool status_failure = false;
  for (const auto& s : replay["scenarios"][0]["steps"])
    for (const auto& f : s["failures"]) status_failure = status_failure || f["kind"] == "status";
  CHECK(status_failure);
}

TEST_CASE("explore command: a planted schema break is found", "[explore]") {
  testing::TempDir dir("explore_schema");
  ExploreCommandOptions o;
  o.seed = 2;
  o.budget = "24";
  o.prelude = kExploreTestdata + "plant_schema_break.yaml";
  o.out = (dir.path / "found").string();
  o.report_json = (dir.path / "report.json").string();
  const ExploreRan r = run_explore(o);
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  const auto j = explore_read_json(o.report_json);
  bool found = false;
  for (const auto& f : j["explore"]["findings"])
    found = found || (f["check"] == "contract" && f["operation"] == "listPaymentMethods");
  CHECK(found);
}

TEST_CASE("explore command: usage errors are exit 2", "[explore]") {
  ExploreCommandOptions o;
  o.budget = "ten";
  CHECK(run_explore(o).code == 2);
  o.budget = "5";
  o.profile = "loose";
  CHECK(run_explore(o).code == 2);
}

TEST_CASE("explore command: --against compares the same cases on two targets", "[explore]") {
  testing::TempDir dir("explore_against");
  ExploreCommandOptions o;
  o.seed = 1;
  o.budget = "12";
  o.out = (dir.path / "found").string();
  o.against = "embedded";
  ExploreRan r = run_explore(o);
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  // A Bulk job's state read right after its create may differ (allowed).
  CHECK_THAT(r.out, Catch::Contains("12 compared, 0 skipped (A cannot run 0, B 0); "));
  CHECK_THAT(r.out, Catch::EndsWith(": the targets agree\n"));
  // The package's layouts answer GET /PackageActions in another shape.
  o.budget = "60";
  o.against = "embedded:package.yaml";
  o.report_json = (dir.path / "report.json").string();
  r = run_explore(o);
  CHECK(r.code == 1);
  CHECK_THAT(r.out, Catch::Contains("parity: A = embedded, B = embedded"));
  const auto j = explore_read_json(o.report_json);
  bool packages = false;
  for (const auto& d : j["against"]["differences"])
    packages = packages || (d["step_name"] == "listPackageActions" && d["path"] == "/Packages" &&
                            d["b"] == "absent");
  CHECK(packages);
}
