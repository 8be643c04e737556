// The CLI end to end on the embedded target: exit codes, the last console
// line, reports written, selection by tag and shard.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <unistd.h>
#include <nlohmann/json.hpp>
#include <regex>

#include <CLI/CLI.hpp>

#include "app/embedded.h"
#include "commands/cli/run_command.h"
#include "fixture/fixture_loader.h"
#include "project_version.h"
#include "testing/temp_dir.h"

using namespace runner;

using runner::testing::read_file;

namespace {

const std::string kData = std::string(PROJECT_SOURCE_DIR) + "/runner/testdata";

struct Run {
  int code;
  std::string out, err;
  std::string last_line() const {
    std::string t = out;
    while (!t.empty() && t.back() == '\n') t.pop_back();
    return t.substr(t.rfind('\n') + 1);
  }
};

Run run(RunOptions o) {
  std::ostringstream out, err;
  int code = run_command(o, out, err);
  return {code, out.str(), err.str()};
}

}  // namespace

TEST_CASE("CLI: passing scenarios exit 0 and write both reports", "[runner][cli]") {
  RunOptions o;
  o.paths = {kData + "/pass"};
  o.jobs = 2;
  const std::string base =
      std::filesystem::temp_directory_path().string() + "/runner_cli_" + std::to_string(::getpid());
  o.report_junit = base + ".xml";
  o.report_json = base + ".json";
  Run r = run(o);
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(r.last_line() == "2 passed, 0 failed, 0 skipped");
  auto j = nlohmann::json::parse(read_file(o.report_json));
  CHECK(j["summary"]["passed"] == 2);
  CHECK(j["contract_profile"] == "strict");
  CHECK(read_file(o.report_junit)
            .find("<testsuites name=\"scenario-runner\" tests=\"2\" failures=\"0\"") !=
        std::string::npos);
  std::remove(o.report_junit.c_str());
  std::remove(o.report_json.c_str());
}

TEST_CASE("CLI: a failing scenario exits 1 with a readable failure", "[runner][cli]") {
  RunOptions o;
  o.paths = {kData + "/fail"};
  Run r = run(o);
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  CHECK(r.last_line() == "0 passed, 2 failed, 0 skipped");
  CHECK(r.out.find("(no item of /PaymentMethods is ") != std::string::npos);
  CHECK(r.out.find("--- expected") != std::string::npos);
  CHECK(r.out.find("curl -sS -i ") != std::string::npos);
  CHECK(r.out.find("completing PSP session no-such-session answered 404") != std::string::npos);
}

TEST_CASE("CLI: load and usage errors exit 2 with positions", "[runner][cli]") {
  RunOptions o;
  o.paths = {kData + "/bad", kData + "/pass"};
  Run r = run(o);
  CHECK(r.code == 2);
  CHECK(r.err.find("malformed.yaml:6:7: unknown key 'jsom' in expect; did you mean 'json'?") !=
        std::string::npos);
  CHECK(r.err.find("malformed.yaml:7:14: '${never_captured}' is not defined") != std::string::npos);
  CHECK(r.err.find("nothing was run") != std::string::npos);
  CHECK(r.out.empty());

  RunOptions shard;
  shard.paths = {kData + "/pass"};
  shard.shard = "3/2";
  CHECK(run(shard).code == 2);
  RunOptions target;
  target.paths = {kData + "/pass"};
  target.targets = {"ftp://nowhere"};
  CHECK(run(target).code == 2);
  RunOptions nowhere;
  nowhere.paths = {kData + "/no-such-folder"};
  CHECK(run(nowhere).code == 2);
}

TEST_CASE("CLI: --list, --tag and --shard select", "[runner][cli]") {
  RunOptions o;
  o.paths = {kData + "/pass", kData + "/fail"};
  o.list = true;
  o.tags = {"oauth", "psp"};
  Run r = run(o);
  CHECK(r.code == 0);
  CHECK(r.last_line() == "2 scenario(s)");
  RunOptions s1 = o, s2 = o;
  s1.tags = s2.tags = {};
  s1.shard = "1/2";
  s2.shard = "2/2";
  Run a = run(s1), b = run(s2);
  CHECK(a.last_line() == "2 scenario(s)");
  CHECK(b.last_line() == "2 scenario(s)");
  for (const std::string name :
       {"informational", "oauth_and_clock", "wrong_expectation", "psp_unknown"})
    CHECK((a.out.find(name) != std::string::npos) != (b.out.find(name) != std::string::npos));
}

TEST_CASE("CLI: webhooks the fake still had pending at a scenario's end stay off the console",
          "[runner][cli]") {
  // The intent's webhook URL refuses connections, so its deliveries are
  // waiting for a retry when the scenario's org stops. The fake's notice
  // about them must not interleave with the console report.
  const std::string file = std::filesystem::temp_directory_path().string() + "/runner_cli_hooks_" +
                           std::to_string(::getpid()) + ".yaml";
  std::ofstream(file) << R"(name: leaves webhooks pending
steps:
  - request:
      method: POST
      path: /PaymentIntent
      json:
        SuccessURL: https://shop.example/ok
        FailureURL: https://shop.example/ko
        WebhookURL: http://127.0.0.1:9/refused
        Payer: {Contact: {CrmFields: {LastName: Hooks}}}
        OneTime: {Amount: 5}
        PaymentMethod: {Name: CreditCard}
)";
  std::ostringstream captured;
  std::streambuf* old = std::cerr.rdbuf(captured.rdbuf());
  RunOptions o;
  o.paths = {file};
  Run r = run(o);
  std::cerr.rdbuf(old);
  std::filesystem::remove(file);
  INFO(r.out << r.err << captured.str());
  CHECK(r.code == 0);
  CHECK(r.out.find("abandoned") == std::string::npos);
  CHECK(r.err.find("abandoned") == std::string::npos);
  CHECK(captured.str().find("abandoned") == std::string::npos);
  CHECK(r.last_line() == "1 passed, 0 failed, 0 skipped");
}

TEST_CASE("CLI: a selection of nothing exits 2 naming the filter", "[runner][cli]") {
  RunOptions o;
  o.paths = {kData + "/pass"};
  o.tags = {"nosuchtag"};
  Run r = run(o);
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("no scenario matches --tag nosuchtag (of 2 loaded)"));
  o.list = true;
  CHECK(run(o).code == 2);
}

TEST_CASE("CLI: every scenario skipped exits 3 with a warning unless allowed", "[runner][cli]") {
  // A running fake-org serving another fixture skips every default.yaml scenario.
  auto config = fake_org::load_embedded_fixture("nonprofit.yaml");
  REQUIRE(config.ok());
  auto org = fake_org::EmbeddedOrg::start(*config.config);
  RunOptions o;
  o.paths = {kData + "/pass"};
  o.targets = {org->base_url()};
  Run r = run(o);
  INFO(r.out << r.err);
  CHECK(r.code == 3);
  CHECK(r.last_line() == "0 passed, 0 failed, 2 skipped");
  CHECK_THAT(r.err, Catch::Contains("WARNING: all 2 selected scenario(s) were skipped"));
  o.allow_all_skipped = true;
  Run allowed = run(o);
  CHECK(allowed.code == 0);
  CHECK_THAT(allowed.err, Catch::Contains("WARNING: all 2 selected scenario(s) were skipped"));
}

TEST_CASE("CLI: --version prints the project version", "[runner][cli]") {
  CHECK(version() == FAKE_CRM_ORG_VERSION " (git " FAKE_CRM_ORG_GIT_COMMIT ")");
  CHECK(std::regex_match(version(), std::regex(R"([0-9]+\.[0-9]+\.[0-9]+ \(git .+\))")));
  CLI::App app{"test", "scenario-runner"};
  RunOptions o;
  add_run_options(app, o);
  try {
    app.parse(std::vector<std::string>{"--version"});
    FAIL("--version did not stop the parse");
  } catch (const CLI::CallForVersion& e) {
    CHECK(std::string(e.what()) == "scenario-runner " + version());
  }
}

TEST_CASE("CLI: --help says what -j and --verbose do on every target", "[runner][cli]") {
  CLI::App app{"test", "scenario-runner"};
  RunOptions o;
  add_run_options(app, o);
  const std::string help = app.help();
  INFO(help);
  // -j is not embedded-only: a fake-org URL gives each scenario its own org.
  CHECK_THAT(help, Catch::Contains("Scenarios run at once, on every target (a fake-org URL gives "
                                   "each its own throwaway org"));
  CHECK_THAT(help, Catch::Contains("request and response bodies, secrets redacted"));
}
