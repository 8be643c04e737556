// Each step kind passing, and failing with a readable message, against a
// stand-in org (testing/mini_org.h) reached through the url target.
#include <catch2/catch.hpp>

#include "net/webhook_receiver.h"
#include "report/failure_text.h"
#include "report/json_report.h"
#include "report/junit_report.h"
#include "testing/mini_org.h"
#include "testing/run_helpers.h"

using namespace runner;
using namespace runner::testing;

namespace {

struct Fixture {
  MiniOrg org;
  std::unique_ptr<Target> target = make_url_target(org.url(), {});
};

}  // namespace

TEST_CASE("request steps: interpolation, captures, expectations that hold", "[runner][steps]") {
  Fixture f;
  ScenarioResult r = run_text(*f.target, R"(name: requests pass
vars: {trace: t-1, n: 3}
steps:
  - request:
      path: /Echo
      query: {page: "${n}", q: "a b"}
      headers: {X-Trace: "${trace}"}
    expect:
      status: 200
      headers: {X-Request-Id: {$regex: "^req-"}}
      json: {query: {page: "3", q: "a b"}, trace: t-1}
      contract: false
    capture:
      rid: {header: X-Request-Id}
      num: {header: X-Request-Id, regex: "-([0-9]+)$"}
  - request:
      method: POST
      path: /Echo
      json: {id: "${rid}", count: "${n}", n: "${num}"}
    expect:
      json: {body: {id: req-42, count: 3, n: "42"}, content_type: application/json}
      contract: false
  - request:
      method: POST
      path: /Echo
      form: {a: "1 2"}
    expect:
      json: {body: "a=1%202", content_type: application/x-www-form-urlencoded}
      contract: false
  - request: GET /Text
    expect: {body: {$regex: "^plain"}, contract: false}
)");
  INFO(r.error);
  for (const auto& s : r.steps)
    for (const auto& fl : s.failures) INFO(fl.kind + ": " + fl.message);
  CHECK(r.outcome == Outcome::kPassed);
  CHECK(f.org.resets() == 1);  // the url target resets the org before each scenario
}

TEST_CASE("a wrong status fails readably and stops the scenario", "[runner][steps]") {
  Fixture f;
  ScenarioResult r = run_text(*f.target, R"(name: wrong status
steps:
  - request: GET /Echo
    expect: {status: 201, contract: false}
  - request: GET /Echo
)");
  REQUIRE(r.outcome == Outcome::kFailed);
  const Failure& fl = only_failure(r);
  CHECK(fl.kind == "status");
  CHECK(contains(fl.message, "expected status 201, got 200"));
  CHECK(r.steps[1].outcome == Outcome::kSkipped);
  REQUIRE(r.steps[0].exchange);
  CHECK(contains(r.steps[0].exchange->curl, "\"$TOKEN\""));
  CHECK_FALSE(contains(r.steps[0].exchange->curl, "tok-"));
}

TEST_CASE("a wrong JSON expectation fails with pointer and diff", "[runner][steps]") {
  Fixture f;
  ScenarioResult r = run_text(*f.target, R"(name: wrong json
steps:
  - request: GET /Echo?x=1
    expect: {json: {query: {x: "2"}}, contract: false}
)");
  const Failure& fl = only_failure(r);
  CHECK(fl.kind == "json");
  CHECK(contains(fl.message, R"(/query/x: expected "2", got "1")"));
  CHECK(contains(fl.diff, "-     \"x\": \"2\""));
  CHECK(contains(fl.diff, "+     \"x\": \"1\""));
}

TEST_CASE("header and raw body expectations fail readably", "[runner][steps]") {
  Fixture f;
  ScenarioResult h = run_text(*f.target, R"(name: header
steps:
  - request: GET /Echo
    expect: {headers: {X-Request-Id: req-1}, contract: false}
)");
  CHECK(only_failure(h).message == R"(header X-Request-Id: expected "req-1", got "req-42")");
  ScenarioResult b = run_text(*f.target, R"(name: body
steps:
  - request: GET /Text
    expect: {body: {$contains: "prose"}, contract: false}
)");
  CHECK(only_failure(b).kind == "body");
  CHECK(contains(only_failure(b).message, "expected a value containing \"prose\""));
}

TEST_CASE("a contract violation fails the step", "[runner][steps]") {
  Fixture f;
  ScenarioResult r = run_text(*f.target, R"(name: contract
steps:
  - request: GET /PaymentIntent/pi_bogus
    expect: {json: {Status: Bogus}}
)");
  const Failure& fl = only_failure(r);
  CHECK(fl.kind == "contract");
  CHECK(contains(fl.message, "strict profile"));
  CHECK_FALSE(fl.mismatches.empty());
  // contract: false turns it off for a deliberately odd exchange.
  CHECK(run_text(*f.target, R"(name: no contract
steps:
  - request: GET /PaymentIntent/pi_bogus
    expect: {contract: false}
)")
            .outcome == Outcome::kPassed);
}

TEST_CASE("a capture that finds nothing fails", "[runner][steps]") {
  Fixture f;
  ScenarioResult r = run_text(*f.target, R"(name: capture
steps:
  - request: GET /Echo
    expect: {contract: false}
    capture: {id: $.Id}
)");
  const Failure& fl = only_failure(r);
  CHECK(fl.kind == "capture");
  CHECK(contains(fl.message, "capture 'id' (test0.yaml:5:15): path $.Id finds nothing"));
}

TEST_CASE("await_webhook receives, matches and captures, a missing one times out",
          "[runner][steps]") {
  Fixture f;
  const std::string create = R"(
  - request:
      method: POST
      path: /PaymentIntent
      json: {WebhookURL: "${webhook_url}"}
    expect: {contract: false}
    capture: {pi: $.Id}
)";
  ScenarioResult ok = run_text(*f.target, "name: webhook\nsteps:" + create + R"(
  - await_webhook:
      type: paymentIntent.created
      match: {data: {Id: "${pi}", Status: {$oneOf: [New, Processing]}}}
      contract: false
    capture: {status: $.data.Status}
  - request: GET /Echo?s=${status}
    expect: {json: {query: {s: New}}, contract: false}
)");
  INFO(ok.error);
  CHECK(ok.outcome == Outcome::kPassed);

  ScenarioResult late = run_text(*f.target, "name: no webhook\nsteps:" + create + R"(
  - await_webhook: {type: installment.created, timeout: 200ms, contract: false}
)");
  const Failure& fl = only_failure(late);
  CHECK(fl.kind == "timeout");
  CHECK(contains(fl.message, "no webhook of type \"installment.created\" arrived within 200 ms"));
  CHECK(contains(fl.message, "1 event(s) received for this scenario"));
  CHECK(contains(fl.message, "paymentIntent.created"));

  ScenarioResult other = run_text(*f.target, "name: other body\nsteps:" + create + R"(
  - await_webhook:
      type: paymentIntent.created
      match: {data: {Status: Matched}}
      timeout: 200ms
      contract: false
)");
  const Failure& mismatch = only_failure(other);
  CHECK(contains(mismatch.diff, "-     \"Status\": \"Matched\""));

  // The stand-in's event lacks what the webhook contract requires.
  ScenarioResult contract = run_text(*f.target, "name: webhook contract\nsteps:" + create + R"(
  - await_webhook: {type: paymentIntent.created}
)");
  CHECK(only_failure(contract).kind == "contract");
}

TEST_CASE("webhooks of parallel scenarios stay apart", "[runner][steps]") {
  Fixture f;
  WebhookReceiver hooks;  // its own, apart from the run's
  std::string a = hooks.new_slot("a"), b = hooks.new_slot("b");
  CHECK(a != b);
  auto any = [](const ReceivedWebhook&) { return true; };
  HttpClient http;
  http.send({"POST", hooks.url_for(a), {}, R"({"type":"x"})"});
  CHECK_FALSE(hooks.await(b, any, Millis(0)));
  auto got = hooks.await(a, any, Millis(0));
  REQUIRE(got);
  CHECK(got->body["type"] == "x");
  CHECK_FALSE(hooks.await(a, any, Millis(0)));  // taken once only
  CHECK(hooks.url_for(a, "https://tunnel.example/") == "https://tunnel.example/hooks/" + a);
}

TEST_CASE("a webhook arriving after its scenario forgot the slot is dropped", "[runner][steps]") {
  WebhookReceiver hooks;
  std::string a = hooks.new_slot("a");
  hooks.forget(a);
  HttpClient http;
  CHECK(http.send({"POST", hooks.url_for(a), {}, R"({"type":"late"})"}).status == 200);
  CHECK(hooks.events(a).empty());  // not reopened
  CHECK(hooks.events("s99-never-opened").empty());
}

TEST_CASE("psp steps complete a session or fail readably", "[runner][steps]") {
  Fixture f;
  ScenarioResult ok = run_text(*f.target, R"(name: psp
steps:
  - request: {method: POST, path: /PaymentIntent, json: {}}
    expect: {contract: false}
    capture: {redirect: $.RedirectURL}
  - psp: {redirect: "${redirect}", outcome: success}
  - psp: {session: "sess-x", outcome: cancel}
)");
  INFO(ok.error);
  CHECK(ok.outcome == Outcome::kPassed);
  CHECK(contains(ok.steps[1].detail, "session sess-pi_mini1 success: 200"));
  ScenarioResult bad = run_text(*f.target, R"(name: psp unknown
steps:
  - psp: {session: nope, outcome: failure}
)");
  CHECK(contains(only_failure(bad).message, "completing PSP session nope answered 404"));
}

TEST_CASE("clock steps move the org clock or fail readably", "[runner][steps]") {
  Fixture f;
  ScenarioResult ok = run_text(*f.target, R"(name: clock
steps:
  - clock: {advance: 30d}
  - request: GET /Echo?d=${today}&d2=${today+1d}
    expect: {json: {query: {d: "2027-01-31", d2: "2027-02-01"}}, contract: false}
)");
  CHECK(ok.outcome == Outcome::kPassed);
  CHECK(ok.steps[0].detail == "org time now 2027-03-02T09:00:00.000Z");
  ScenarioResult bad = run_text(*f.target, R"(name: clock set refused
steps:
  - clock: {set: "2027-01-01T00:00:00Z"}
)");
  CHECK(contains(only_failure(bad).message, "POST /__admin/clock answered 422"));
}

TEST_CASE("poll repeats until the expectation holds, halts, or times out", "[runner][steps]") {
  Fixture f;
  ScenarioResult ok = run_text(*f.target, R"(name: poll
steps:
  - poll:
      request: GET /PaymentIntent/pi_ok
      expect: {json: {Status: Matched}, contract: false}
      interval: 10ms
    capture: {st: $.Status}
)");
  CHECK(ok.outcome == Outcome::kPassed);
  CHECK(ok.steps[0].detail == "3 attempts, last 200");

  ScenarioResult halted = run_text(*f.target, R"(name: poll halts
steps:
  - poll:
      request: GET /PaymentIntent/pi_fail
      expect: {json: {Status: Collected}, contract: false}
      halt: {json: {Status: Failed}}
      interval: 10ms
)");
  const Failure& h = only_failure(halted);
  CHECK(h.kind == "halt");
  CHECK(contains(h.message, "the halt condition holds after 3 attempts"));

  ScenarioResult timed_out = run_text(*f.target, R"(name: poll times out
steps:
  - poll:
      request: GET /PaymentIntent/pi_slow
      expect: {json: {Status: Never}, contract: false}
      timeout: 100ms
      interval: 20ms
)");
  const StepResult* s = timed_out.first_failed_step();
  REQUIRE(s);
  REQUIRE(s->failures.size() == 2);
  CHECK(s->failures[0].kind == "timeout");
  CHECK(contains(s->failures[1].message, R"(/Status: expected "Never")"));
}

TEST_CASE("a 401 makes the runner refresh its token once and retry", "[runner][steps]") {
  MiniOrg org;
  auto tokens = std::make_shared<TokenProvider>(
      OAuthGrant{org.url() + "/services/oauth2/token", "client_credentials", "local-client",
                 "local-secret", ""},
      TlsOptions{});
  OrgSession session(
      {org.url(), org.url() + "/services/apexrest/cpm/v2", true, "", {}, std::nullopt}, tokens);
  HttpRequest req{"GET", session.url_for("/Echo"), {}, ""};
  SentRequest first = session.send(req, true, Millis(5000));
  CHECK(first.response.status == 200);
  CHECK_FALSE(first.refreshed);
  org.revoke_all_tokens();
  SentRequest second = session.send(req, true, Millis(5000));
  CHECK(second.response.status == 200);
  CHECK(second.refreshed);
  CHECK(org.tokens_issued() == 2);
  // A request carrying its own Authorization is sent as written, never retried.
  HttpRequest own{"GET", session.url_for("/Echo"), {{"Authorization", "Bearer stale"}}, ""};
  SentRequest third = session.send(own, true, Millis(5000));
  CHECK(third.response.status == 401);
  CHECK_FALSE(third.refreshed);
  CHECK(session.url_for("/services/oauth2/token") == org.url() + "/services/oauth2/token");
  CHECK(session.url_for("/__admin/health") == org.url() + "/__admin/health");
}

TEST_CASE("a target that cannot connect fails the scenario with the reason", "[runner][steps]") {
  std::unique_ptr<Target> target;
  std::string url;
  {
    MiniOrg gone;
    url = gone.url();
    target = make_url_target(url, {});
    Scenario s = load_text("name: x\nsteps: [{request: GET /Echo}]\n");
    REQUIRE(target->prepare({&s}).empty());
  }
  Scenario s = load_text("name: x\nsteps: [{request: GET /Echo}]\n");
  RunResult r = run_suite({s}, *target, {});
  REQUIRE(r.scenarios.size() == 1);
  CHECK(r.scenarios[0].outcome == Outcome::kFailed);
  CHECK(contains(r.scenarios[0].error, "target " + url));
}

TEST_CASE("await_webhook timeout: each arrived event shows its type, --report-json keeps it whole",
          "[runner][steps][reports]") {
  // The fake's events are long and their sorted keys put `data` before
  // `type`: a cut body would hide which event arrived.
  auto target = make_embedded_target();
  ScenarioResult r = run_text(*target, R"(name: webhook that never comes
steps:
  - request:
      method: POST
      path: /PaymentIntent
      json:
        SuccessURL: https://example.org/ok
        FailureURL: https://example.org/ko
        WebhookURL: ${webhook_url}
        Payer: {Contact: {CrmFields: {LastName: Doe, Email: jane@example.org}}}
        OneTime: {Amount: 25}
        PaymentMethod: {Name: CreditCard}
  - await_webhook: {type: paymentIntent.created}
  - await_webhook: {type: no.such.event, timeout: 200ms}
)");
  REQUIRE(r.outcome == Outcome::kFailed);
  const StepResult& step = *r.first_failed_step();
  REQUIRE(step.index == 2);
  const std::string text = failure_text(step);
  INFO(text);
  CHECK(contains(text, "\n    (taken) type: paymentIntent.created, body: {\"data\":"));
  CHECK(contains(text, " more characters; --report-json keeps them)"));
  RunResult run;
  run.scenarios = {r};
  const std::string message =
      json_report(run)["scenarios"][0]["steps"][2]["failures"][0]["message"].get<std::string>();
  INFO(message);
  // The whole event, up to the type at the end of its body.
  CHECK(contains(message, ",\"type\":\"paymentIntent.created\"}"));
  CHECK_FALSE(contains(message, "more characters"));
}

TEST_CASE("a failure points at its own assertion's line, not the step's", "[runner][steps]") {
  Fixture f;
  ScenarioResult r = run_text(*f.target, R"(name: lines
steps:
  - name: post items
    request:
      method: POST
      path: /Echo
      json: {items: [{n: 1, s: ok}, {n: 2, s: bad}]}
    expect:
      contract: false
      json:
        content_type: application/json
        body:
          items:
            $each:
              n: {$type: integer}
              s: ok
)");
  const Failure& fl = only_failure(r);
  CHECK(fl.pos.line == 16);  // `s: ok` under $each, not the step at line 3
  CHECK(fl.pos.column == 18);
  const std::string text = failure_text(*r.first_failed_step());
  INFO(text);
  CHECK(contains(text, "json (test0.yaml:16:18): 1 difference"));
  CHECK(json_report(RunResult{
            "t", "strict", {r}, "", 0})["scenarios"][0]["steps"][0]["failures"][0]["location"] ==
        "test0.yaml:16:18");
  // A CI view opens the assertion, not the step.
  CHECK(contains(junit_xml(RunResult{"t", "strict", {r}, "", 0}, true),
                 "name=\"1 post items\" file=\"test0.yaml\" line=\"16\""));

  ScenarioResult s = run_text(*f.target, R"(name: status line
steps:
  - request: GET /Echo
    expect:
      contract: false
      headers: {X-Request-Id: req-42}
      status: 201
)");
  CHECK(only_failure(s).pos.line == 7);
  ScenarioResult h = run_text(*f.target, R"(name: header line
steps:
  - request: GET /Echo
    expect:
      contract: false
      headers:
        X-Request-Id: req-1
)");
  CHECK(only_failure(h).pos.line == 7);
}

TEST_CASE("a failed request that depends on earlier steps says so above its reproduction",
          "[runner][steps][reproduce]") {
  Fixture f;
  ScenarioResult r = run_text(*f.target, R"(name: depends
steps:
  - name: create
    request:
      method: POST
      path: /Echo
      json: {id: e-1}
    expect: {contract: false}
    capture: {id: $.body.id}
  - request: GET /Echo
    expect: {contract: false}
  - name: read it
    request: GET /Echo?id=${id}
    expect: {status: 201, contract: false}
)");
  const StepResult* s = r.first_failed_step();
  REQUIRE(s != nullptr);
  REQUIRE(s->exchange);
  CHECK(s->exchange->depends_on ==
        "it uses ${id} from step 1 'create'; step 1 'create' changed the org before it");
  CHECK(contains(failure_text(*s),
                 "  the request depends on earlier steps (it uses ${id} from "
                 "step 1 'create'; step 1 'create' changed the org before it)"));
  ScenarioResult alone = run_text(*f.target, R"(name: alone
steps:
  - request: GET /Echo
    expect: {contract: false}
  - request: GET /Echo
    expect: {status: 201, contract: false}
)");
  REQUIRE(alone.first_failed_step() != nullptr);
  CHECK(alone.first_failed_step()->exchange->depends_on.empty());
}
