// The sandbox target over HTTPS: against the stand-in org with a certificate
// the test makes, and against a fake-org started as a separate process, as a
// real org would be reached (OAuth and API only).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include <httplib.h>

#include <unistd.h>

#include <cstdio>

#include "app/embedded.h"
#include "fixture/fixture_loader.h"
#include "net/curl.h"
#include "net/listen_in_background.h"
#include "report/failure_text.h"
#include "run/plan.h"
#include "testing/child_process.h"
#include "testing/mini_org.h"
#include "testing/run_helpers.h"
#include "testing/temp_dir.h"
#include "testing/test_cert.h"

using common_testing::TestCert;
using namespace runner;
using namespace runner::testing;
namespace fs = std::filesystem;

namespace {

std::unique_ptr<MiniOrg> tls_mini_org(const TestCert& cert) {
  return std::make_unique<MiniOrg>(
      std::make_unique<httplib::SSLServer>(cert.cert.get(), cert.key.get()), "https");
}

// What `bash FILE` prints (stdout and stderr), once it and its children exit.
std::string run_bash(const std::string& file) {
  FILE* p = ::popen(("bash " + file + " 2>&1").c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  ::pclose(p);
  return out;
}

const char* kEcho =
    "name: echo over TLS\nsteps:\n  - request: GET /Echo\n    expect: {contract: false}\n";

}  // namespace

TEST_CASE("sandbox target: HTTPS verified against --ca-file, secrets from the environment",
          "[runner][targets]") {
  TestCert cert = TestCert::make();
  auto org = tls_mini_org(cert);
  TempDir dir("runner_targets");
  dir.write("ca.pem", cert.cert_pem);
  setenv("RUNNER_TEST_SECRET", "local-secret", 1);
  setenv("RUNNER_TEST_REFRESH", "rt-1", 1);
  const std::string config = dir.write("sandbox.yaml", "instance_url: " + org->url() + R"(
oauth:
  grant: refresh_token
  client_id: local-client
  client_secret: ${env:RUNNER_TEST_SECRET}
  refresh_token: ${env:RUNNER_TEST_REFRESH}
ca_file: ca.pem
)");
  auto target = make_target(config, {});
  CHECK(target->default_profile() == contracts::Profile::kLenient);
  ScenarioResult ok = run_text(*target, kEcho);
  INFO(ok.error);
  CHECK(ok.outcome == Outcome::kPassed);

  // Admin steps cannot reach a real org: skipped, with the reason.
  ScenarioResult skipped = run_text(
      *target,
      "name: psp\nsteps:\n  - request: GET /Echo\n  - psp: {session: s, outcome: success}\n");
  CHECK(skipped.outcome == Outcome::kSkipped);
  CHECK(skipped.skip_reason.find("step 2 (psp, test0.yaml:4:5) needs the fake's admin API") == 0);

  // A scenario written for another org configuration cannot pass on this one.
  ScenarioResult other =
      run_text(*target, "name: np\nfixture: nonprofit.yaml\nsteps: [{request: GET /Echo}]\n");
  CHECK(other.outcome == Outcome::kSkipped);
  CHECK(other.skip_reason.find("needs fixture nonprofit.yaml") == 0);

  SECTION("without the CA the certificate is refused") {
    const std::string untrusted = dir.write("untrusted.yaml", "instance_url: " + org->url() + R"(
oauth: {grant: client_credentials, client_id: local-client, client_secret: "${env:RUNNER_TEST_SECRET}"}
)");
    auto t = make_target(untrusted, {});
    ScenarioResult r = run_text(*t, kEcho);
    REQUIRE(r.outcome == Outcome::kFailed);
    CHECK(only_failure(r).message.find("not trusted: pass --ca-file with the CA that signed it") !=
          std::string::npos);
    // --ca-file on the command line does the same as ca_file.
    auto trusted = make_target(untrusted, {dir.path.string() + "/ca.pem"});
    CHECK(run_text(*trusted, kEcho).outcome == Outcome::kPassed);
  }
}

TEST_CASE("repeated targets: each scenario runs on the org of its fixture", "[runner][targets]") {
  // Two stand-in orgs, one described as the default org, one as nonprofit.
  MiniOrg def, np;
  TempDir dir("runner_targets");
  setenv("RUNNER_TEST_SECRET", "local-secret", 1);
  auto config = [&](const std::string& name, const MiniOrg& org, const std::string& fixture) {
    return dir.write(name, "instance_url: " + org.url() +
                               "\noauth: {grant: client_credentials, client_id: local-client, "
                               "client_secret: \"${env:RUNNER_TEST_SECRET}\"}\nfixture: " +
                               fixture + "\n");
  };
  std::vector<std::unique_ptr<Target>> targets;
  targets.push_back(make_target(config("def.yaml", def, "default.yaml"), {}));
  targets.push_back(make_target(config("np.yaml", np, "nonprofit.yaml"), {}));
  auto routed = make_routed_target(std::move(targets));
  CHECK(routed->describe() == "sandbox " + def.url() + " + sandbox " + np.url());

  ScenarioResult on_np =
      run_text(*routed,
               "name: np\nfixture: nonprofit.yaml\nsteps: [{request: GET /Echo, expect: "
               "{contract: false}}]\n");
  INFO(on_np.error);
  CHECK(on_np.outcome == Outcome::kPassed);
  CHECK(np.tokens_issued() == 1);
  CHECK(def.tokens_issued() == 0);
  ScenarioResult on_def =
      run_text(*routed, "name: d\nsteps: [{request: GET /Echo, expect: {contract: false}}]\n");
  CHECK(on_def.outcome == Outcome::kPassed);
  CHECK(def.tokens_issued() == 1);

  // A fixture no target serves: skipped, naming every target's configuration.
  ScenarioResult none = run_text(*routed,
                                 "name: f\nfixture: fundraising.yaml\nsteps: [{request: "
                                 "GET /Echo}]\n");
  CHECK(none.outcome == Outcome::kSkipped);
  CHECK(contains(none.skip_reason, "no --target fits its fixture"));
  CHECK(contains(none.skip_reason, "describes the org as default.yaml"));
  CHECK(contains(none.skip_reason, "describes the org as nonprofit.yaml"));
  // The fitting target's own reasons still apply (admin steps).
  ScenarioResult admin =
      run_text(*routed, "name: a\nfixture: nonprofit.yaml\nsteps: [{clock: {advance: 1d}}]\n");
  CHECK(admin.outcome == Outcome::kSkipped);
  CHECK(contains(admin.skip_reason, "needs the fake's admin API"));
}

TEST_CASE("sandbox configuration mistakes are reported with positions", "[runner][targets]") {
  TempDir dir("runner_targets");
  const std::string config = dir.write("bad.yaml", R"(instance_url: ftp://x
oauth:
  grant: password
  client_id: a
  client_secret: literal-secret
  refresh_token: ${env:RUNNER_TEST_UNSET_VAR}
extra: 1
)");
  try {
    make_target(config, {});
    FAIL("expected a TargetError");
  } catch (const TargetError& e) {
    std::string m = e.what();
    INFO(m);
    CHECK(m.find("bad.yaml:1:15: instance_url must be an http(s) URL") != std::string::npos);
    CHECK(m.find("bad.yaml:3:10: oauth.grant is refresh_token or client_credentials") !=
          std::string::npos);
    CHECK(m.find("bad.yaml:5:18: oauth.client_secret is a secret") != std::string::npos);
    CHECK(m.find("bad.yaml:7:1: unknown key 'extra'") != std::string::npos);
  }
  CHECK_THROWS_AS(make_target(dir.path.string() + "/missing.yaml", {}), TargetError);
}

TEST_CASE("embedded target: a fresh org per scenario, in parallel", "[runner][targets]") {
  auto target = make_target("embedded", {});
  const std::string text = R"(name: records stay apart
steps:
  - clock: {advance: 1d}
  - request: GET /PaymentMethods
    expect: {json: {PaymentMethods: {$contains: {Name: CreditCard}}}}
)";
  SuiteOptions o;
  o.jobs = 3;
  RunResult r = run_texts(*target, {text, text, text, text}, o);
  for (const auto& s : r.scenarios) {
    INFO(s.error);
    CHECK(s.outcome == Outcome::kPassed);
  }
  // Each org started from its own clock: one day on, not four.
  auto day = [](const ScenarioResult& s) { return s.steps[0].detail.substr(13, 10); };
  CHECK(day(r.scenarios[3]) == day(r.scenarios[0]));

  Scenario bad = load_text("name: x\nfixture: nope.yaml\nsteps: [{request: GET /x}]\n");
  auto t2 = make_target("embedded", {});
  auto errors = t2->prepare({&bad});
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].pos.line == 2);
  CHECK(errors[0].message.find("embedded fixtures: ") != std::string::npos);
}

TEST_CASE("embedded target: a contract violation by the fake fails the scenario readably",
          "[runner][targets][contracts]") {
  // An org answering wrong data with 418, a status no contract lists; the
  // step itself accepts it (contract: false), so only the fake's own monitor
  // can fail the scenario. The same step on the default org passes.
  TempDir dir("runner_targets");
  dir.write("broken.yaml", "extends: default.yaml\norg:\n  error_status: {\"200\": 418}\n");
  const std::string scenario = R"(
steps:
  - request:
      method: POST
      path: /PaymentIntent
      json: {SuccessURL: "https://shop.example/ok", FailureURL: "https://shop.example/ko",
             OneTime: {Amount: 5}, PaymentMethod: {Name: NoSuchMethod},
             Payer: {Contact: {CrmFields: {FirstName: Ada, LastName: Lovelace}}}}
    expect: {status: [418, 422], contract: false}
)";
  LoadResult broken = load_scenario_file(dir.write(
      "broken_org.yaml", "name: the fake breaks its contract\nfixture: broken.yaml" + scenario));
  LoadResult fine =
      load_scenario_file(dir.write("fine_org.yaml", "name: the fake keeps it" + scenario));
  REQUIRE(broken.ok());
  REQUIRE(fine.ok());
  auto target = make_target("embedded", {});
  REQUIRE(target->prepare({&*broken.scenario, &*fine.scenario}).empty());
  RunResult r = run_suite({*broken.scenario, *fine.scenario}, *target, {});
  REQUIRE(r.scenarios.size() == 2);
  const ScenarioResult& s = r.scenarios[0];
  INFO(s.error);
  CHECK(s.outcome == Outcome::kFailed);
  REQUIRE(s.steps.size() == 1);
  CHECK(s.steps[0].outcome == Outcome::kPassed);
  CHECK(contains(s.error, "the embedded fake org broke its own contract 1 time(s)"));
  CHECK(contains(s.error, "POST /services/apexrest/cpm/v2/PaymentIntent -> 418"));
  CHECK(contains(s.error, "HTTP 418 is not in the strict contract"));
  INFO(r.scenarios[1].error);
  CHECK(r.scenarios[1].outcome == Outcome::kPassed);
}

TEST_CASE("a scenario fails when the embedded fake stored what its catalogue cannot hold",
          "[runner][targets]") {
  // The fixture narrows a field the org fills itself: every step passes, but
  // no real org could have saved the inbound report.
  TempDir dir("runner_targets");
  dir.write("narrow.yaml",
            "extends: default.yaml\nobjects:\n  cpm__Inbound_Report__c:\n    fields:\n"
            "      cpm__Source_Connector__c: {type: text, length: 3, system: true}\n");
  const std::string steps = R"(
steps:
  - request:
      method: POST
      path: /PaymentIntent
      json: {SuccessURL: "https://shop.example/ok", FailureURL: "https://shop.example/ko",
             OneTime: {Amount: 5}, PaymentMethod: {Name: CreditCard},
             Payer: {Contact: {CrmFields: {LastName: Narrow}}}}
    expect: {status: 200}
)";
  LoadResult narrow = load_scenario_file(
      dir.write("narrow_org.yaml", "name: too narrow\nfixture: narrow.yaml" + steps));
  LoadResult fine = load_scenario_file(dir.write("fine_org.yaml", "name: fits" + steps));
  REQUIRE(narrow.ok());
  REQUIRE(fine.ok());
  auto target = make_target("embedded", {});
  REQUIRE(target->prepare({&*narrow.scenario, &*fine.scenario}).empty());
  RunResult r = run_suite({*narrow.scenario, *fine.scenario}, *target, {});
  REQUIRE(r.scenarios.size() == 2);
  const ScenarioResult& s = r.scenarios[0];
  INFO(s.error);
  CHECK(s.outcome == Outcome::kFailed);
  REQUIRE(s.steps.size() == 1);
  CHECK(s.steps[0].outcome == Outcome::kPassed);
  CHECK(contains(s.error, "the embedded fake org stored values its own catalogue cannot hold"));
  CHECK(contains(s.error,
                 "cpm__Source_Connector__c is too long: 10 characters, at most 3 "
                 "allowed (stored: \"cpm_Native\")"));
  INFO(r.scenarios[1].error);
  CHECK(r.scenarios[1].outcome == Outcome::kPassed);
}

TEST_CASE(
    "the suite passes against a separately started fake-org, as a sandbox over TLS and by URL",
    "[runner][targets][process]") {
  const std::string bin = std::string(FAKE_ORG_BIN_DIR) + "/fake-org";
  if (!fs::exists(bin)) {
    WARN("fake-org is not built; build the fake-org target to run this test");
    return;
  }
  TempDir dir("runner_targets");
  TestCert cert = TestCert::make();
  cert.write((dir.path / "cert.pem").string(), (dir.path / "key.pem").string());
  ChildProcess tls_org({bin, "--port", "0", "--log-level", "quiet", "--tls-cert",
                        (dir.path / "cert.pem").string(), "--tls-key",
                        (dir.path / "key.pem").string()});
  std::string line = tls_org.read_line();
  REQUIRE(line.rfind("listening on https://", 0) == 0);
  const std::string url = line.substr(std::string("listening on ").size());
  setenv("RUNNER_TEST_SECRET", "local-secret", 1);
  const std::string config = dir.write("sandbox.yaml", "instance_url: " + url + R"(
oauth: {grant: client_credentials, client_id: local-client, client_secret: "${env:RUNNER_TEST_SECRET}"}
ca_file: cert.pem
)");
  Plan plan = load_plan({std::string(PROJECT_SOURCE_DIR) + "/runner/testdata/pass"});
  REQUIRE(plan.errors.empty());
  auto sandbox = make_target(config, {});
  std::vector<const Scenario*> ptrs;
  for (const auto& s : plan.scenarios) ptrs.push_back(&s);
  REQUIRE(sandbox->prepare(ptrs).empty());
  SuiteOptions two;
  two.jobs = 2;
  RunResult r = run_suite(plan.scenarios, *sandbox, two);
  REQUIRE(r.scenarios.size() == 2);
  CHECK(r.scenarios[0].outcome == Outcome::kPassed);   // informational
  CHECK(r.scenarios[1].outcome == Outcome::kSkipped);  // clock steps: fake only

  ChildProcess plain_org({bin, "--port", "0", "--log-level", "quiet"});
  line = plain_org.read_line();
  REQUIRE(line.rfind("listening on http://", 0) == 0);
  auto by_url = make_target(line.substr(std::string("listening on ").size()), {});
  REQUIRE(by_url->prepare(ptrs).empty());
  RunResult u = run_suite(plan.scenarios, *by_url, two);
  for (const auto& s : u.scenarios) {
    INFO(s.name << ": " << s.error);
    CHECK(s.outcome == Outcome::kPassed);
  }
}

TEST_CASE("url target: the API base path is the one the running fake-org reports",
          "[runner][targets]") {
  // A fixture that moves the API (org.base_path): the runner must follow the
  // fake's health answer, not assume /services/apexrest/cpm/v2.
  TempDir dir("runner_base_path");
  fs::create_directories(dir.path / "fixtures");  // the plan leaves fixtures/ out
  const std::string fixture =
      dir.write("fixtures/acme.yaml",
                "extends: default.yaml\norg:\n  base_path: /services/apexrest/acme/v2\n");
  dir.write("moved.yaml", R"(name: moved API
fixture: fixtures/acme.yaml
steps:
  - request: GET /PaymentMethods
    expect: {json: {PaymentMethods: {$contains: {Name: CreditCard}}}}
)");
  auto config = fake_org::load_fixture_file(fixture);
  REQUIRE(config.ok());
  auto org = fake_org::EmbeddedOrg::start(*config.config);
  Plan plan = load_plan({dir.path.string()});
  std::string errors;
  for (const auto& e : plan.errors) errors += e.str() + "\n";
  INFO(errors);
  REQUIRE(plan.errors.empty());
  REQUIRE(plan.scenarios.size() == 1);
  auto target = make_target(org->base_url(), {});
  REQUIRE(target->prepare({&plan.scenarios[0]}).empty());
  RunResult r = run_suite(plan.scenarios, *target, {});
  std::string why = r.scenarios[0].error;
  for (const auto& step : r.scenarios[0].steps)
    for (const auto& f : step.failures) why += f.message + "\n";
  INFO(why);
  CHECK(r.scenarios[0].outcome == Outcome::kPassed);
}

TEST_CASE("url target: a throwaway org per scenario, of its fixture, in parallel",
          "[runner][targets][orgs]") {
  // A fake-org that creates orgs: every scenario gets one of its own fixture
  // (nonprofit here, not what the server's first org serves), runs beside the
  // others, and its org is deleted when it ends.
  auto config = fake_org::load_embedded_fixture("default.yaml");
  REQUIRE(config.ok());
  fake_org::EmbeddedOptions options;
  options.max_orgs = 10;
  auto org = fake_org::EmbeddedOrg::start(*config.config, options);
  auto target = make_target(org->base_url(), {});
  CHECK(target->parallel());
  const std::string text = R"(name: an org of its own
fixture: nonprofit.yaml
steps:
  - clock: {advance: 1d}
  - request: GET /PaymentMethods
    expect: {json: {PaymentMethods: {$contains: {Name: CreditCard}}}}
  - request: GET /__admin/health
    expect: {json: {org: Riverside Food Bank}}
)";
  SuiteOptions o;
  o.jobs = 4;
  RunResult r = run_texts(*target, {text, text, text, text, text, text}, o);
  for (const auto& s : r.scenarios) {
    INFO(s.error);
    CHECK(s.outcome == Outcome::kPassed);
  }
  // Each org started from its own clock, and none is left behind.
  auto day = [](const ScenarioResult& s) { return s.steps[0].detail.substr(13, 10); };
  CHECK(day(r.scenarios[5]) == day(r.scenarios[0]));
  CHECK(org->sites().size() == 1);
}

TEST_CASE("url target: an API URL instead of the instance URL is named as the mistake",
          "[runner][targets]") {
  CHECK_THROWS_WITH(make_target("http://127.0.0.1:1/services/apexrest/cpm/v2", {}),
                    Catch::Contains("give the instance URL (scheme://host:port), not the API base: "
                                    "--target http://127.0.0.1:1"));
  CHECK_THROWS_WITH(make_target("https://h.example/services/apexrest/acme/v2/", {}),
                    Catch::Contains("--target https://h.example"));
  CHECK_NOTHROW(make_target("http://127.0.0.1:1", {}));
}

TEST_CASE("step labels: a psp step names what the PSP did, a templated path the one sent",
          "[runner][targets]") {
  auto target = make_target("embedded", {});
  ScenarioResult r = run_text(*target, R"(name: declined card
steps:
  - request:
      method: POST
      path: /PaymentIntent
      json:
        SuccessURL: https://shop.example/thanks
        FailureURL: https://shop.example/sorry
        Payer: {Contact: {CrmFields: {FirstName: Grace, LastName: Hopper, Email: grace@example.org}}}
        OneTime: {Amount: "10.50"}
        PaymentMethod: {Name: CreditCard}
    capture: {pi: $.Id, redirect: $.RedirectURL}
  - psp: {redirect: "${redirect}", outcome: success, card_number: "4000 0000 0000 0002"}
  - request: GET /PaymentIntent/${pi}
)");
  INFO(r.error);
  REQUIRE(r.steps.size() == 3);
  CHECK(r.steps[1].name == "psp success -> failed");
  CHECK(contains(r.steps[1].detail, "success -> failed: 200"));
  CHECK(contains(step_line(r.steps[2]),
                 "GET /PaymentIntent/${pi} -> GET /services/apexrest/cpm/v2/PaymentIntent/pi_"));
}

// A step that fails (the org answers 200), so the report has a reproduction.
const char* const kFailingStep = R"(
steps:
  - request: GET /PaymentMethods
    expect: {status: 418}
)";

// A fixture whose connected app has a secret that means something else in a
// form unless URL-encoded (+ & =).
std::string write_secret_app_fixture(TempDir& dir, const std::string& client_id) {
  return dir.write("myapp.yaml",
                   "extends: default.yaml\nauth:\n  connected_apps:\n"
                   "    - name: Mine\n      client_id: " +
                       client_id + "\n      client_secret: \"p+q&r=s\"\n");
}

// Runs the commands a failure report prints for the scenario's failed step
// with bash, as a person would paste them, unchanged: start the fake beside
// the running binary on a free port, take a token, send the request, stop
// the fake. What they printed; "" when fake-org is not built.
std::string run_reproduction(const std::string& scenario) {
  const std::string bin = std::string(FAKE_ORG_BIN_DIR) + "/fake-org";
  if (!fs::exists(bin)) {
    WARN("fake-org is not built; build the fake-org target to run this test");
    return "";
  }
  auto target = make_target("embedded", {});
  ScenarioResult r = run_text(*target, scenario);
  REQUIRE(r.outcome == Outcome::kFailed);
  const Exchange& ex = *r.first_failed_step()->exchange;
  const std::string script = ex.curl_setup + ex.curl + "\n" + ex.curl_teardown;
  INFO(script);
  CHECK(testing::contains(script, bin + " --fixture"));
  TempDir dir("reproduce");
  return run_bash(dir.write("reproduce.sh", script));
}

TEST_CASE("embedded target: the printed reproduction runs as printed and gets the answer",
          "[runner][targets][reproduce]") {
  const std::string out =
      run_reproduction(std::string("name: wrong status\nfixture: nonprofit.yaml") + kFailingStep);
  if (out.empty()) return;
  INFO(out);
  CHECK(testing::contains(out, "HTTP/1.1 200"));
  CHECK(testing::contains(out, "\"PaymentMethods\""));
}

TEST_CASE("embedded target: the reproduction's token request URL-encodes the app's secret",
          "[runner][targets][reproduce]") {
  // + & = in a form value mean something else unless encoded.
  TempDir dir("secret_fixture");
  const std::string fixture = write_secret_app_fixture(dir, "my app");
  const std::string out =
      run_reproduction("name: wrong status\nfixture: " + fixture + kFailingStep);
  if (out.empty()) return;
  INFO(out);
  CHECK(testing::contains(out, "HTTP/1.1 200"));
}

TEST_CASE("url target: the reproduction takes a token from that org and sends the request there",
          "[runner][targets][reproduce]") {
  // The runner's token is not printed, so the report's commands take one
  // with the fixture's connected app (its secret URL-encoded), then send the
  // request to the same URL; the org is still running.
  TempDir dir("url_reproduce");
  const std::string fixture = write_secret_app_fixture(dir, "my-app");
  auto config = fake_org::load_fixture_file(fixture);
  REQUIRE(config.ok());
  auto org = fake_org::EmbeddedOrg::start(*config.config);
  auto target = make_target(org->base_url(), {});
  ScenarioResult r = run_text(*target, "name: wrong status\nfixture: " + fixture + kFailingStep);
  REQUIRE(r.outcome == Outcome::kFailed);
  const StepResult& step = *r.first_failed_step();
  const std::string text = failure_text(step, "x.yaml");
  INFO(text);
  CHECK(testing::contains(text,
                          "  reproduce (take a token, send the request):\n    TOKEN=$(curl -sS '" +
                              org->base_url() + "/services/oauth2/token'"));
  CHECK(testing::contains(text, "--data-urlencode 'client_secret=p+q&r=s'"));
  CHECK_FALSE(testing::contains(text, "fake-org --fixture"));
  CHECK_FALSE(testing::contains(text, "TOKEN is the runner's bearer token"));
  const std::string out =
      run_bash(dir.write("again.sh", step.exchange->curl_setup + step.exchange->curl + "\n"));
  INFO(out);
  CHECK(testing::contains(out, "HTTP/1.1 200"));
}

TEST_CASE("url target with throwaway orgs: the reproduction deletes its repro org after",
          "[runner][targets][reproduce]") {
  // Left behind, the repro org would count against --max-orgs run after run.
  auto config = fake_org::load_embedded_fixture("default.yaml");
  REQUIRE(config.ok());
  fake_org::EmbeddedOptions options;
  options.max_orgs = 4;
  auto org = fake_org::EmbeddedOrg::start(*config.config, options);
  auto target = make_target(org->base_url(), {});
  ScenarioResult r = run_text(*target, std::string("name: wrong status") + kFailingStep);
  REQUIRE(r.outcome == Outcome::kFailed);
  const Exchange& ex = *r.first_failed_step()->exchange;
  CHECK(ex.curl_teardown ==
        "curl -s -o /dev/null -X DELETE " + org->base_url() + "/__admin/orgs/repro\n");
  TempDir dir("url_reproduce_orgs");
  const std::string out =
      run_bash(dir.write("again.sh", ex.curl_setup + ex.curl + "\n" + ex.curl_teardown));
  INFO(ex.curl_setup + ex.curl + "\n" + ex.curl_teardown);
  INFO(out);
  CHECK(testing::contains(out, "HTTP/1.1 200"));
  CHECK(org->sites().size() == 1);  // only the server's first org is left
  CHECK(testing::contains(failure_text(*r.first_failed_step(), "x.yaml"),
                          "reproduce (take a token, send the request, delete what it made):"));
}

TEST_CASE("url target over HTTPS: every printed curl trusts the --ca-file the runner trusted",
          "[runner][targets][reproduce]") {
  TestCert cert = TestCert::make();
  TempDir dir("url_reproduce_tls");
  const std::string ca = (dir.path / "ca.pem").string();
  cert.write(ca, (dir.path / "key.pem").string());
  auto config = fake_org::load_embedded_fixture("default.yaml");
  REQUIRE(config.ok());
  fake_org::EmbeddedOptions options;
  options.tls_cert_file = ca;
  options.tls_key_file = (dir.path / "key.pem").string();
  auto org = fake_org::EmbeddedOrg::start(*config.config, options);
  REQUIRE(org->base_url().rfind("https://", 0) == 0);
  auto target = make_target(org->base_url(), {ca});
  ScenarioResult r = run_text(*target, std::string("name: wrong status") + kFailingStep);
  REQUIRE(r.outcome == Outcome::kFailed);
  const Exchange& ex = *r.first_failed_step()->exchange;
  INFO(ex.curl_setup + ex.curl);
  CHECK(testing::contains(ex.curl_setup, "TOKEN=$(curl -sS --cacert " + shell_quote(ca) + " '"));
  CHECK(ex.curl.rfind("curl -sS -i --cacert " + shell_quote(ca) + " '", 0) == 0);
  const std::string out = run_bash(dir.write("again.sh", ex.curl_setup + ex.curl + "\n"));
  INFO(out);
  CHECK(testing::contains(out, "HTTP/1.1 200"));
}

TEST_CASE("sandbox target: the reproduction takes a token naming the secrets' variables",
          "[runner][targets][reproduce]") {
  MiniOrg org;
  TempDir dir("sandbox_reproduce");
  setenv("RUNNER_REPRO_SECRET", "local-secret", 1);
  setenv("RUNNER_REPRO_REFRESH", "rt-1", 1);
  const std::string config = dir.write("sandbox.yaml", "instance_url: " + org.url() + R"(
oauth:
  grant: refresh_token
  client_id: local-client
  client_secret: ${env:RUNNER_REPRO_SECRET}
  refresh_token: "${env:RUNNER_REPRO_REFRESH}"
)");
  auto target = make_target(config, {});
  ScenarioResult r = run_text(*target, R"(name: wrong status
steps:
  - request: GET /Echo
    expect: {status: 418}
)");
  REQUIRE(r.outcome == Outcome::kFailed);
  const StepResult& step = *r.first_failed_step();
  const std::string text = failure_text(step, "x.yaml");
  INFO(text);
  CHECK(testing::contains(
      text, "reproduce (take a token, send the request):\n    TOKEN=$(curl -sS '" + org.url() +
                "/services/oauth2/token' -d grant_type=refresh_token "
                "--data-urlencode \"client_id=local-client\" "
                "--data-urlencode \"client_secret=${RUNNER_REPRO_SECRET}\" "
                "--data-urlencode \"refresh_token=${RUNNER_REPRO_REFRESH}\" |"));
  CHECK_FALSE(testing::contains(text, "local-secret"));
  CHECK_FALSE(testing::contains(text, "rt-1"));
  CHECK_FALSE(testing::contains(text, "tok-"));  // nor the runner's token
  // The printed commands work where the variables are set.
  const std::string out =
      run_bash(dir.write("again.sh", step.exchange->curl_setup + step.exchange->curl + "\n"));
  INFO(out);
  CHECK(testing::contains(out, "HTTP/1.1 200"));
}

TEST_CASE("env_shell_word: references expand in the shell, everything else stays literal",
          "[runner][targets][reproduce]") {
  setenv("RUNNER_WORD_VAR", "v a$l", 1);
  const std::string text = "a\"b\\c$d`e ${env:RUNNER_WORD_VAR} $${x} ${env:RUNNER_WORD_VAR}!";
  const std::string word = env_shell_word(text);
  CHECK(word == "\"a\\\"b\\\\c\\$d\\`e ${RUNNER_WORD_VAR} \\${x} ${RUNNER_WORD_VAR}!\"");
  TempDir dir("shell_word");
  CHECK(run_bash(dir.write("w.sh", "printf %s " + word + "\n")) == "a\"b\\c$d`e v a$l ${x} v a$l!");
}

TEST_CASE("url target: a server that is not a fake-org is named as such", "[runner][targets]") {
  // A real org's instance, a proxy, any web server: /__admin/health is not
  // a fake-org's there.
  httplib::Server other;
  other.Get("/__admin/health", [](const httplib::Request&, httplib::Response& res) {
    res.status = 404;
    res.set_content("<html>not here</html>", "text/html");
  });
  const int port = other.bind_to_any_port("127.0.0.1");
  std::thread loop = listen_in_background(other);
  const std::string url = "http://127.0.0.1:" + std::to_string(port);
  auto target = make_target(url, {});
  std::string said;
  try {
    target->prepare({});
  } catch (const std::exception& e) {
    said = e.what();
  }
  other.stop();
  loop.join();
  CHECK(said == "GET " + url +
                    "/__admin/health answered 404: this is not a fake-org; for a real org use a "
                    "sandbox .yaml (docs/ci.md)");
}
