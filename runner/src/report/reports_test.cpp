#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

#include "eval/json_diff.h"
#include "report/console_report.h"
#include "report/failure_text.h"
#include "report/json_report.h"
#include "report/junit_report.h"
#include "testing/run_helpers.h"

using namespace runner;

namespace {

// Enough of XML to catch what breaks CI parsers: balanced tags, quoted
// attributes, no raw '<' or '&' in text.
bool well_formed_xml(const std::string& x, std::string* why) {
  std::vector<std::string> stack;
  size_t i = x.rfind("<?xml", 0) == 0 ? x.find("?>") + 2 : 0;
  while (i < x.size()) {
    if (x[i] == '&') {
      size_t semi = x.find(';', i);
      std::string ent = x.substr(i, semi == std::string::npos ? 1 : semi - i + 1);
      if (ent != "&amp;" && ent != "&lt;" && ent != "&gt;" && ent != "&quot;" && ent != "&apos;") {
        *why = "bad entity at " + std::to_string(i);
        return false;
      }
      i = semi + 1;
      continue;
    }
    if (x[i] != '<') {
      ++i;
      continue;
    }
    size_t end = i + 1;
    bool quoted = false;
    for (; end < x.size() && (quoted || x[end] != '>'); ++end) {
      if (x[end] == '"') quoted = !quoted;
      if (!quoted && x[end] == '<') {
        *why = "'<' inside a tag at " + std::to_string(end);
        return false;
      }
    }
    if (end >= x.size()) {
      *why = "unclosed tag";
      return false;
    }
    std::string tag = x.substr(i + 1, end - i - 1);
    if (tag[0] == '/') {
      if (stack.empty() || stack.back() != tag.substr(1)) {
        *why = "mismatched </" + tag.substr(1) + ">";
        return false;
      }
      stack.pop_back();
    } else if (tag.back() != '/') {
      stack.push_back(tag.substr(0, tag.find_first_of(" \n")));
    }
    i = end + 1;
  }
  if (!stack.empty()) *why = "unclosed <" + stack.back() + ">";
  return stack.empty();
}

RunResult sample_run() {
  RunResult run;
  run.target = "embedded";
  run.profile = "strict";
  run.ms = 1234;
  ScenarioResult pass;
  pass.file = "scenarios/info.yaml";
  pass.name = "info <endpoints> & \"more\"";
  pass.outcome = Outcome::kPassed;
  StepResult ok;
  ok.name = "GET /PaymentMethods";
  ok.outcome = Outcome::kPassed;
  ok.detail = "200 in 3 ms";
  pass.steps = {ok};
  ScenarioResult fail;
  fail.file = "scenarios/pay/one_time.yaml";
  fail.name = "one-time";
  fail.outcome = Outcome::kFailed;
  StepResult bad;
  bad.index = 0;
  bad.name = "POST /PaymentIntent";
  bad.pos = {"scenarios/pay/one_time.yaml", 7, 5};
  bad.outcome = Outcome::kFailed;
  bad.failures = {{"json",
                   "/Status: expected \"Matched\", got \"New\"",
                   {{"/Status", "\"Matched\"", "\"New\""}},
                   "--- expected\n+++ actual\n- a\n+ b\n"}};
  Exchange ex;
  ex.request = {"POST",
                "http://127.0.0.1:1/x",
                {{"Authorization", "Bearer secret-token"}},
                "{\"a\":\"<&>\"}"};
  ex.response = HttpResponse{422, {}, "{\"Errors\":[]}", 1};
  ex.curl = "curl -H 'Authorization: Bearer '\"$TOKEN\"";
  bad.exchange = ex;
  StepResult later;
  later.index = 1;
  later.name = "GET /x";
  later.outcome = Outcome::kSkipped;
  fail.steps = {bad, later};
  ScenarioResult skip;
  skip.file = "scenarios/psp.yaml";
  skip.name = "psp";
  skip.outcome = Outcome::kSkipped;
  skip.skip_reason = "step 2 (psp) needs the fake's admin API";
  ScenarioResult broken;
  broken.file = "scenarios/x.yaml";
  broken.name = "setup error";
  broken.outcome = Outcome::kFailed;
  broken.error = "target embedded: cannot start\x01";
  run.scenarios = {pass, fail, skip, broken};
  return run;
}

}  // namespace

TEST_CASE("JUnit XML is well formed, one test case per scenario", "[runner][reports]") {
  std::string x = junit_xml(sample_run(), false);
  std::string why;
  INFO(x);
  CHECK(well_formed_xml(x, &why));
  INFO(why);
  CHECK(x.find("tests=\"4\" failures=\"2\" errors=\"0\" skipped=\"1\"") != std::string::npos);
  CHECK(x.find("classname=\"scenarios.pay.one_time\"") != std::string::npos);
  CHECK(x.find("name=\"info &lt;endpoints&gt; &amp; &quot;more&quot;\"") != std::string::npos);
  CHECK(x.find("<skipped message=\"step 2 (psp) needs the fake&apos;s admin API\"/>") !=
        std::string::npos);
  CHECK(x.find("ok   1 GET /PaymentMethods  (200 in 3 ms)") !=
        std::string::npos);  // steps in system-out
  CHECK(x.find("secret-token") == std::string::npos);
  CHECK(x.find('\x01') == std::string::npos);
  // The CI view's one line is the first mismatch and where it is.
  CHECK(x.find("<failure message=\"step 1 &apos;POST /PaymentIntent&apos;: /Status: expected "
               "&quot;Matched&quot;, got &quot;New&quot;\"") != std::string::npos);
  CHECK(x.find("interrupted") == std::string::npos);
  RunResult stopped = sample_run();
  stopped.interrupted = "SIGTERM";
  CHECK(junit_xml(stopped, false).find("<property name=\"interrupted\" value=\"SIGTERM\"/>") !=
        std::string::npos);
  CHECK(json_report(stopped)["partial"] == true);
}

TEST_CASE("JUnit classnames never start with a dot, and read relative under the current directory",
          "[runner][reports]") {
  RunResult run = sample_run();
  run.scenarios.resize(1);
  auto classname_of = [&](const std::string& file) {
    run.scenarios[0].file = file;
    const std::string x = junit_xml(run, false);
    const size_t at = x.find("classname=\"") + 11;
    return x.substr(at, x.find('"', at) - at);
  };
  const std::string cwd = std::filesystem::current_path().generic_string();
  CHECK(classname_of(cwd + "/scenarios/admin/injected_fault.yaml") ==
        "scenarios.admin.injected_fault");
  CHECK(classname_of(cwd + "/./scenarios/../scenarios/a.yaml") == "scenarios.a");
  CHECK(classname_of("/nonexistent-root-dir/s/a.yaml") == "nonexistent-root-dir.s.a");
  CHECK(classname_of("../up/b.yaml") == "up.b");
  CHECK(classname_of("./scenarios/c.yaml") == "scenarios.c");
}

TEST_CASE("JUnit XML per step: a test case for each step", "[runner][reports]") {
  std::string x = junit_xml(sample_run(), true);
  std::string why;
  CHECK(well_formed_xml(x, &why));
  INFO(why);
  // 1 + 2 steps + 0 (skipped scenario has no steps here) + 1 setup case.
  CHECK(x.find("<testsuites name=\"scenario-runner\" tests=\"4\" failures=\"2\"") !=
        std::string::npos);
  CHECK(x.find("name=\"1 POST /PaymentIntent\"") != std::string::npos);
  CHECK(x.find("line=\"7\"") != std::string::npos);
  CHECK(x.find("not run after an earlier failure") != std::string::npos);
  CHECK(x.find("name=\"setup\"") != std::string::npos);
}

TEST_CASE("the JSON report carries outcomes, failures and no token", "[runner][reports]") {
  nlohmann::json j = json_report(sample_run());
  std::string text = j.dump();
  CHECK(nlohmann::json::parse(text) == j);
  CHECK(j["summary"] ==
        nlohmann::json{
            {"passed", 1}, {"failed", 2}, {"skipped", 1}, {"not_run", 0}, {"duration_ms", 1234.0}});
  const auto& failed = j["scenarios"][1];
  CHECK(failed["outcome"] == "failed");
  CHECK(failed["steps"][0]["location"] == "scenarios/pay/one_time.yaml:7:5");
  CHECK(failed["steps"][0]["failures"][0]["mismatches"][0]["pointer"] == "/Status");
  CHECK(failed["steps"][0]["request"]["headers"]["Authorization"] == "Bearer $TOKEN");
  CHECK(failed["steps"][0]["request"]["body"] == nlohmann::json{{"a", "<&>"}});
  CHECK(failed["steps"][0]["response"]["status"] == 422);
  CHECK(failed["steps"][1]["outcome"] == "skipped");
  CHECK(j["scenarios"][2]["skip_reason"] == "step 2 (psp) needs the fake's admin API");
  CHECK(text.find("secret-token") == std::string::npos);
}

TEST_CASE("every key of the JSON report is documented in scenarios/README.md",
          "[runner][reports]") {
  // The format is an interface for tools: a key added here must be described.
  std::ifstream in(std::string(PROJECT_SOURCE_DIR) + "/scenarios/README.md");
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string readme = buf.str();
  const size_t from = readme.find("### The JSON report");
  REQUIRE(from != std::string::npos);
  const std::string section = readme.substr(from, readme.find("\n### ", from + 1) - from);
  RunResult run = sample_run();
  run.scenarios[1].steps[0].exchange->curl_setup = "build/bin/fake-org ...";
  std::set<std::string> keys;
  std::function<void(const nlohmann::json&, bool)> walk = [&](const nlohmann::json& j,
                                                              bool free_form) {
    if (j.is_array())
      for (const auto& v : j) walk(v, false);
    if (!j.is_object()) return;
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (!free_form) keys.insert(it.key());
      // headers and bodies hold the org's own keys
      walk(it.value(), it.key() == "headers" || it.key() == "body");
    }
  };
  walk(json_report(run), false);
  for (const auto& k : keys) {
    INFO(k);
    CHECK(std::regex_search(section, std::regex("[{ ,(]" + k + "[?,:} ]")));
  }
}

TEST_CASE("the console ends with the summary line and shows each failure", "[runner][reports]") {
  std::ostringstream out;
  ConsoleReport console(out, true);
  RunResult run = sample_run();
  for (size_t i = 0; i < run.scenarios.size(); ++i) console.progress(run.scenarios[i], i + 1, 4);
  console.finish(run);
  std::string text = out.str();
  CHECK(text.find("[2/4] FAIL  scenarios/pay/one_time.yaml  one-time") != std::string::npos);
  CHECK(text.find("[3/4] SKIP  scenarios/psp.yaml  psp") != std::string::npos);
  CHECK(text.find("step 1 'POST /PaymentIntent' (scenarios/pay/one_time.yaml:7:5, request)") !=
        std::string::npos);
  CHECK(text.find("- a\n") != std::string::npos);
  CHECK(text.find("curl -H") != std::string::npos);
  CHECK(text.find("target embedded: cannot start") != std::string::npos);
  CHECK(text.substr(text.rfind('\n', text.size() - 2) + 1) == "1 passed, 2 failed, 1 skipped\n");
}

TEST_CASE("an embedded failure reproduces on a fake-org the report says how to start",
          "[runner][reports]") {
  // The scenario's org and its port are gone when the report is read: the
  // commands start one with the scenario's fixture on a free port, take a
  // token with its connected app, and send the request there.
  auto target = make_embedded_target();
  ScenarioResult r = testing::run_text(*target, R"(name: wrong status
fixture: nonprofit.yaml
steps:
  - request: GET /PaymentMethods
    expect: {status: 418}
)");
  REQUIRE(r.outcome == Outcome::kFailed);
  const std::string text = failure_text(*r.first_failed_step(), "scenarios/x.yaml");
  INFO(text);
  // The fake-org beside the running binary (not build/bin relative to
  // wherever the reader is), on a port free when it starts, stopped after.
  const std::string fake_org = std::string(FAKE_ORG_BIN_DIR) + "/fake-org";
  CHECK(testing::contains(text, "\n    ORG_LOG=$(mktemp)\n    " + fake_org +
                                    " --fixture 'embedded:nonprofit.yaml' --port 0 >\"$ORG_LOG\" "
                                    "& ORG_PID=$!\n"));
  CHECK(testing::contains(text,
                          "    TOKEN=$(curl -sS \"$ORG\"'/services/oauth2/token' -d "
                          "grant_type=client_credentials --data-urlencode "
                          "'client_id=local-client' --data-urlencode "
                          "'client_secret=local-secret' | sed -n "));
  CHECK(testing::contains(text,
                          "\n    curl -sS -i \"$ORG\"'/services/apexrest/cpm/v2/PaymentMethods'"));
  CHECK(testing::contains(text, "\n    kill \"$ORG_PID\"; rm -f \"$ORG_LOG\"\n"));
  CHECK(testing::contains(text, "/scenario-runner --target \"$ORG\" 'scenarios/x.yaml'"));
  CHECK_FALSE(testing::contains(text, "8080"));
  CHECK_FALSE(testing::contains(text, "depends on earlier steps"));  // a first step stands alone
  // The ephemeral port appears only in the request line, never in a command.
  const std::string sent = r.first_failed_step()->exchange->request.url;
  CHECK(text.find(sent) == text.find("request: GET ") + 13);
  CHECK(text.find(sent, text.find("reproduce")) == std::string::npos);
  RunResult run;
  run.target = "embedded";
  run.scenarios = {r};
  nlohmann::json j = json_report(run);
  CHECK(testing::contains(j["scenarios"][0]["steps"][0]["curl_setup"].get<std::string>(),
                          "--fixture 'embedded:nonprofit.yaml'"));
}

TEST_CASE("a target whose org outlives the run keeps the plain curl with $TOKEN",
          "[runner][reports]") {
  RunResult run = sample_run();
  const std::string text = failure_text(run.scenarios[1].steps[0]);
  CHECK(testing::contains(text, "reproduce (TOKEN is the runner's bearer token):\n    curl -H"));
  CHECK_FALSE(testing::contains(text, "fake-org --fixture"));
}

TEST_CASE("a failed $contains on a big array shows the closest item, not the array",
          "[runner][reports]") {
  Json actual = {{"records", Json::array()}};
  for (int i = 0; i < 200; ++i)
    actual["records"].push_back({{"Id", "rec" + std::to_string(i)}, {"Name", "n"}, {"Amount", i}});
  const Json want = {{"records", {{"$contains", {{"Name", "NoSuchThing"}}}}}};
  const std::string diff = json_diff(want, &actual);
  INFO(diff);
  CHECK(testing::contains(diff, "-       \"Name\": \"NoSuchThing\""));
  CHECK(testing::contains(diff, "+       \"Name\": \"n\""));
  CHECK_FALSE(testing::contains(diff, "Amount"));
  CHECK(std::count(diff.begin(), diff.end(), '\n') < 40);

  // Any long diff is capped with a count; the response after it too.
  std::string a, b;
  for (int i = 0; i < 300; ++i) {
    a += "a" + std::to_string(i) + "\n";
    b += "b" + std::to_string(i) + "\n";
  }
  const std::string long_diff = line_diff(a, b);
  CHECK(testing::contains(long_diff, "  ... 540 more diff lines elided\n"));

  StepResult step;
  step.name = "GET /records";
  step.outcome = Outcome::kFailed;
  step.failures = {{"json", "/records: expected an array containing ...", {}, diff}};
  Exchange ex;
  ex.request = {"GET", "http://127.0.0.1:1/records", {}, ""};
  ex.response = HttpResponse{200, {}, actual.dump(), 1};
  ex.curl = "curl x";
  step.exchange = ex;
  const std::string text = failure_text(step);
  INFO(text);
  CHECK(testing::contains(text, " more lines elided (--report-json keeps the whole body)\n"));
  CHECK(std::count(text.begin(), text.end(), '\n') < 60);
}
