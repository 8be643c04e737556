#include <catch2/catch.hpp>

#include "eval/matchers.h"
#include "scenario/loader.h"

using namespace runner;

namespace {

std::string all_errors(const LoadResult& r) {
  std::string s;
  for (const auto& e : r.errors) s += e.str() + "\n";
  return s;
}

bool has_error(const LoadResult& r, int line, const std::string& fragment) {
  for (const auto& e : r.errors)
    if (e.pos.line == line && e.message.find(fragment) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("a well-formed scenario loads with every step kind", "[runner][loader]") {
  const char* text = R"(name: one-time card payment
description: pays and waits
tags: [smoke, card]
fixture: default.yaml
vars:
  amount: 10.5
  key: ${uuid}
  code: 010
steps:
  - request: GET /PaymentMethods
    expect: {status: 200}
  - name: create
    request:
      method: post
      path: /PaymentIntent
      headers: {X-Trace: "${key}"}
      json:
        OneTime: {Amount: "${amount}"}
        WebhookURL: ${webhook_url}
    expect:
      status: [200, 201]
      json: {Id: {$regex: "^pi_"}}
    capture:
      pi: $.Id
      redirect: {path: /RedirectURL}
  - psp: {redirect: "${redirect}", outcome: success}
  - await_webhook:
      type: installment.status_change
      match: {data: {PaymentIntentId: "${pi}"}}
      timeout: 5s
    capture: {inst: $.data.Id}
  - clock: {advance: 30d}
  - poll:
      request: GET /Installment/${inst}
      expect: {json: {Status: Collected}}
      halt: {json: {Status: Failed}}
      interval: 100ms
)";
  LoadResult r = load_scenario_text(text, "t.yaml");
  INFO(all_errors(r));
  REQUIRE(r.ok());
  const Scenario& s = *r.scenario;
  CHECK(s.name == "one-time card payment");
  CHECK(s.tags == std::vector<std::string>{"smoke", "card"});
  CHECK(s.fixture == "default.yaml");
  CHECK(s.fixture_path.empty());
  REQUIRE(s.vars.size() == 3);
  CHECK(s.vars[0].second == 10.5);
  CHECK(s.vars[2].second == "010");  // leading zero keeps it text, like an error code
  REQUIRE(s.steps.size() == 6);
  CHECK(s.steps[0].name == "GET /PaymentMethods");
  const auto& create = std::get<RequestStep>(s.steps[1].body);
  CHECK(create.request.method == "POST");
  CHECK(create.request.json["OneTime"]["Amount"] == "${amount}");
  CHECK(s.steps[1].captures.size() == 2);
  CHECK(s.steps[1].pos.line == 12);
  CHECK(s.steps[2].kind == StepKind::kPsp);
  CHECK(std::get<AwaitWebhookStep>(s.steps[3].body).timeout == Millis(5000));
  CHECK(std::get<PollStep>(s.steps[5].body).interval == Millis(100));
  REQUIRE(s.first_admin_step());
  CHECK(*s.first_admin_step() == 2);
}

TEST_CASE("a malformed YAML file reports its line and column", "[runner][loader]") {
  LoadResult r = load_scenario_text("name: x\nsteps:\n  - request: {method: GET\n", "bad.yaml");
  REQUIRE_FALSE(r.ok());
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].pos.file == "bad.yaml");
  CHECK(r.errors[0].pos.line >= 3);
  CHECK(r.errors[0].str().rfind("bad.yaml:", 0) == 0);
}

TEST_CASE("every mistake is reported with its position", "[runner][loader]") {
  const char* text = R"(name: mistakes
stpes: []
steps:
  - request:
      method: FETCH
      path: PaymentMethods
      jsno: {}
    expect:
      status: 700
      json: {Id: {$regexp: "x"}}
  - request: GET /PaymentIntent/${missing}
    capture:
      "bad name": $.Id
      ok: Id
  - psp: {outcome: refund}
  - clock: {advance: soon}
  - await_webhook: {type: x, timeout: forever}
  - request: GET /x
    expect:
      json: {A: {$range: [1]}, B: {$regex: "(", $type: string}, C: {$type: text}}
  - request: GET /x
    psp: {}
)";
  LoadResult r = load_scenario_text(text, "m.yaml");
  INFO(all_errors(r));
  REQUIRE_FALSE(r.ok());
  CHECK(has_error(r, 2, "did you mean 'steps'"));
  CHECK(has_error(r, 5, "unknown HTTP method 'FETCH'"));
  CHECK(has_error(r, 6, "starts with '/'"));
  CHECK(has_error(r, 7, "did you mean 'json'"));
  CHECK(has_error(r, 9, "HTTP status"));
  CHECK(has_error(r, 10, "$regexp: unknown matcher"));
  CHECK(has_error(r, 11, "'${missing}' is not defined"));
  CHECK(has_error(r, 13, "cannot be a variable name"));
  CHECK(has_error(r, 14, "starts with '$' (JSONPath) or '/'"));
  CHECK(has_error(r, 15, "psp needs either redirect"));
  CHECK(has_error(r, 15, "success, failure or cancel"));
  CHECK(has_error(r, 16, "clock.advance is a duration"));
  CHECK(has_error(r, 17, "await_webhook.timeout must be a duration"));
  CHECK(has_error(r, 20, "$range: needs [min, max]"));
  CHECK(has_error(r, 20, "$regex: invalid regular expression"));
  CHECK(has_error(r, 20, "$type: needs one of"));
  CHECK(has_error(r, 21, "several kinds"));
  // Sorted by position, so the report reads top to bottom.
  for (size_t i = 1; i < r.errors.size(); ++i)
    CHECK(r.errors[i - 1].pos.line <= r.errors[i].pos.line);
}

TEST_CASE("a query step is SOQL text or {soql, all, version}", "[runner][loader][query]") {
  const char* text = R"(name: queries
vars: {email: ada@example.org}
steps:
  - query: SELECT Id FROM Contact WHERE Email = '${email}'
    expect: {json: {totalSize: 1}}
    capture:
      contact: $.records[0].Id
  - query: {soql: "SELECT Id FROM Contact WHERE Id = '${contact}'", all: true, version: "58.0"}
)";
  LoadResult r = load_scenario_text(text, "q.yaml");
  INFO(all_errors(r));
  REQUIRE(r.ok());
  const auto& steps = r.scenario->steps;
  REQUIRE(steps.size() == 2);
  CHECK(steps[0].kind == StepKind::kQuery);
  CHECK_FALSE(steps[0].needs_admin());
  const auto& first = std::get<QueryStep>(steps[0].body);
  CHECK(first.soql == "SELECT Id FROM Contact WHERE Email = '${email}'");
  CHECK_FALSE(first.all);
  CHECK(first.expect.json == nlohmann::json{{"totalSize", 1}});
  CHECK(steps[0].name == "query SELECT Id FROM Contact WHERE Email = '${email}'");
  const auto& second = std::get<QueryStep>(steps[1].body);
  CHECK(second.all);
  CHECK(second.version == "58.0");
  CHECK(steps[1].name.rfind("queryAll ", 0) == 0);
}

TEST_CASE("a query step's mistakes are reported with their position", "[runner][loader][query]") {
  const char* text = R"(name: bad queries
steps:
  - query: "  "
  - query: {soql: "SELECT Id FROM Contact WHERE Id = '${nope}'", version: v59}
  - query: {all: yes please}
  - query: SELECT Id FROM Contact
    clock: {advance: 1d}
)";
  LoadResult r = load_scenario_text(text, "q.yaml");
  INFO(all_errors(r));
  REQUIRE_FALSE(r.ok());
  CHECK(has_error(r, 3, "query is SOQL text"));
  CHECK(has_error(r, 4, "'${nope}' is not defined"));
  CHECK(has_error(r, 4, "query.version is an API version such as 59.0"));
  CHECK(has_error(r, 5, "query needs soql"));
  CHECK(has_error(r, 6, "several kinds"));
}

TEST_CASE("a variable is visible only after the step that captures it", "[runner][loader]") {
  const char* text = R"(name: order
steps:
  - request: GET /PaymentIntent/${pi}
  - request: POST /PaymentIntent
    capture: {pi: $.Id}
  - request: GET /PaymentIntent/${pi}
)";
  LoadResult r = load_scenario_text(text, "o.yaml");
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].pos.line == 3);
}

TEST_CASE("clock advance takes the units ${today+N} takes, and more", "[runner][loader]") {
  // One set of duration units (fake_org::parse_clock_advance) for the clock step
  // and the fake's POST /__admin/clock; weeks as ${today-1w} has them.
  LoadResult r = load_scenario_text(
      "name: weeks\nsteps:\n  - clock: {advance: 1w}\n  - request: GET /x?d=${today-1w}\n",
      "w.yaml");
  INFO(all_errors(r));
  CHECK(r.ok());
  // A bare number has no unit: the fake refuses it (fake_org::parse_clock_advance), so the
  // loader does before anything runs.
  CHECK(
      has_error(load_scenario_text("name: bare\nsteps:\n  - clock: {advance: \"90\"}\n", "b.yaml"),
                3, "clock.advance is a duration"));
}

TEST_CASE("top-level shape errors name the scenario file", "[runner][loader]") {
  CHECK(has_error(load_scenario_text("- a\n- b\n", "l.yaml"), 1, "mapping"));
  LoadResult r = load_scenario_text("description: x\n", "n.yaml");
  CHECK(has_error(r, 1, "needs a name"));
  CHECK(has_error(r, 1, "needs steps"));
  CHECK(has_error(load_scenario_text("name: x\nsteps: []\n", "e.yaml"), 2, "non-empty list"));
  CHECK(has_error(load_scenario_text("name: x\nfixture: nowhere/f.yaml\nsteps: [{clock: {set: "
                                     "'2027-01-01T00:00:00Z'}}]\n",
                                     "f.yaml"),
                  2, "does not exist"));
  LoadResult missing = load_scenario_file("/nonexistent/scenario.yaml");
  REQUIRE(missing.errors.size() == 1);
  CHECK(missing.errors[0].message == "cannot read the file");
}

TEST_CASE("$type: null written bare in YAML is the type null", "[runner][loader]") {
  // YAML reads `null` as null, not as the name "null"; both mean the type.
  LoadResult r = load_scenario_text(R"(name: null type
steps:
  - request: GET /x
    expect:
      json: {A: {$type: null}, B: {$type: [string, null]}, C: {$type: "null"}}
)",
                                    "n.yaml");
  INFO(all_errors(r));
  REQUIRE(r.ok());
  const nlohmann::json want = nlohmann::json::parse(R"({"A": {"$type": null}})");
  CHECK(validate_expected(want).empty());
  CHECK(json_matches(want, nlohmann::json::parse(R"({"A": null})")));
  CHECK_FALSE(json_matches(want, nlohmann::json::parse(R"({"A": "x"})")));
  CHECK(json_matches(nlohmann::json::parse(R"({"B": {"$type": ["string", null]}})"),
                     nlohmann::json::parse(R"({"B": "x"})")));
}

TEST_CASE("hostile scenario text is an error with its place, never an abort", "[runner][loader]") {
  // Each of these aborted scenario-runner (std::out_of_range from stod, or a
  // JSON dump of a value that is not UTF-8) before the guarded YAML reader.
  auto load = [](const std::string& text) { return load_scenario_text(text, "s.yaml", "."); };
  const std::string head = "name: x\nsteps:\n  - request: GET /PaymentMethods\n";
  LoadResult status = load(head + "    expect: {status: 1e309}\n");
  INFO(all_errors(status));
  CHECK(has_error(status, 4, "the number 1e309 is out of range"));
  LoadResult body = load(head + "    expect: {status: 200, json: {Amount: 1e309}}\n");
  CHECK(has_error(body, 4, "the number 1e309 is out of range"));
  const std::string timed = "name: x\nsteps:\n  - request: {method: GET, path: /x, timeout: ";
  LoadResult timeout = load(timed + "1e309}\n");
  CHECK(has_error(timeout, 3, "must be a duration"));
  LoadResult big_timeout = load(timed + "1e300}\n");
  CHECK(has_error(big_timeout, 3, "at most 7d"));
  LoadResult bytes = load(head + "    expect: {status: 200, json: {Name: \"ab\xff\"}}\n");
  CHECK(has_error(bytes, 4, "byte 0xFF is not UTF-8"));
  LoadResult comma = load(",\n");
  CHECK(has_error(comma, 1, "cannot read on from ','"));
  LoadResult two = load(head + "---\nname: y\n");
  CHECK(has_error(two, 5, "a second YAML document"));
}
