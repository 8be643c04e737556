// SIGINT in the middle of a run against a running fake-org: no new scenario
// starts, the running ones stop, every throwaway org is deleted, the reports
// of what ran are written and marked partial, and the exit status is 130.
// Also: every exit writes the JUnit report (a target that does not answer,
// an empty shard).
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <thread>

#include <nlohmann/json.hpp>

#include "commands/cli/run_command.h"
#include "net/http_client.h"
#include "testing/child_process.h"
#include "testing/temp_dir.h"

using runner::testing::ChildProcess;
using runner::testing::read_file;
using runner::testing::TempDir;

namespace {

const std::string kInterruptBin = FAKE_ORG_BIN_DIR;

// A scenario that waits for what never comes: its poll is what SIGINT stops.
std::string endless_scenario(int n) {
  return "name: waits " + std::to_string(n) + R"(
fixture: default.yaml
steps:
  - request: GET /PaymentMethods
    expect: {status: 200}
  - poll:
      request: GET /PaymentMethods
      expect: {status: 299}
      timeout: 120s
      interval: 200ms
  - request: GET /PaymentMethods
)";
}

// The orgs a fake-org serves besides its root one.
size_t throwaway_orgs(const std::string& url) {
  runner::HttpClient http;
  auto res = http.send({"GET", url + "/__admin/orgs", {{"Accept", "application/json"}}, ""});
  auto j = res.json();
  REQUIRE(j);
  REQUIRE(j->contains("orgs"));
  return (*j)["orgs"].size() - 1;
}

}  // namespace

TEST_CASE("SIGINT stops the run, deletes its orgs and writes partial reports",
          "[runner][cli][process]") {
  const std::string fake = kInterruptBin + "/fake-org";
  const std::string runner_bin = kInterruptBin + "/scenario-runner";
  if (!std::filesystem::exists(fake) || !std::filesystem::exists(runner_bin)) {
    WARN("fake-org or scenario-runner is not built");
    return;
  }
  TempDir dir("runner_sigint");
  for (int i = 1; i <= 6; ++i) dir.write("s" + std::to_string(i) + ".yaml", endless_scenario(i));
  ChildProcess org({fake, "--port", "0", "--log-level", "quiet"});
  const std::string line = org.read_line();
  REQUIRE(line.rfind("listening on ", 0) == 0);
  const std::string url = line.substr(std::string("listening on ").size());
  const std::string junit = (dir.path / "junit.xml").string();
  const std::string json = (dir.path / "report.json").string();
  ChildProcess run({runner_bin, dir.path.string(), "--target", url, "-j", "2", "--no-progress",
                    "--report-junit", junit, "--report-json", json});
  // Two scenarios running: two throwaway orgs exist.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (throwaway_orgs(url) < 2 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  REQUIRE(throwaway_orgs(url) == 2);
  run.signal(SIGINT);
  const std::string said = run.read_rest();
  INFO(said);
  CHECK(run.wait() == 130);
  CHECK(throwaway_orgs(url) == 0);

  const auto report = nlohmann::json::parse(read_file(json));
  CHECK(report["partial"] == true);
  CHECK(report["interrupted"] == "SIGINT");
  CHECK(report["summary"]["not_run"] == 4);
  CHECK(report["summary"]["failed"] == 2);  // the two stopped mid-way
  size_t stopped = 0;
  for (const auto& s : report["scenarios"])
    if (s.value("error", "").rfind("interrupted by SIGINT ", 0) == 0) ++stopped;
  CHECK(stopped == 2);
  const std::string xml = read_file(junit);
  CHECK(xml.find("<property name=\"interrupted\" value=\"SIGINT\"/>") != std::string::npos);
  CHECK(xml.find("not run: interrupted by SIGINT") != std::string::npos);
}

TEST_CASE("a run that cannot start still writes its JUnit report", "[runner][cli]") {
  TempDir dir("runner_noreach");
  dir.write("s.yaml", endless_scenario(1));
  runner::RunOptions o;
  o.paths = {dir.path.string()};
  o.targets = {"http://127.0.0.1:9"};
  o.report_junit = (dir.path / "junit.xml").string();
  std::ostringstream out, err;
  CHECK(runner::run_command(o, out, err) == 2);
  const std::string xml = read_file(o.report_junit);
  INFO(xml);
  CHECK(xml.find("failures=\"1\"") != std::string::npos);
  CHECK(xml.find("127.0.0.1:9") != std::string::npos);

  // An empty shard of a matrix wider than the suite: nothing to run, exit 0.
  o.targets.clear();
  o.shard = "2/2";
  o.allow_all_skipped = true;
  std::remove(o.report_junit.c_str());
  CHECK(runner::run_command(o, out, err) == 0);
  CHECK(read_file(o.report_junit).find("tests=\"0\"") != std::string::npos);
}
