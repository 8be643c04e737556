// import-pact's parts without an org: Pact files of each specification
// version read into one shape, each matching rule translated into the
// scenario's matchers (and those matchers tried on answers that keep and
// break the rule), provider states into setup steps, and the written
// scenario loading back.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "commands/pact/pact_file.h"
#include "commands/pact/pact_rules.h"
#include "commands/pact/pact_scenario.h"
#include "commands/record/yaml_emit.h"
#include "eval/matchers.h"
#include "scenario/loader.h"

using namespace runner;
using namespace runner::pact;
using nlohmann::json;

namespace {

RuleSet pact_rule(json matcher) {
  RuleSet r;
  r.matchers.push_back(std::move(matcher));
  return r;
}

// The body expectation of `example` under one rule at `path`.
json pact_expect(const json& example, const std::string& path, json matcher) {
  return body_expectation(example, {{path, pact_rule(std::move(matcher))}});
}

bool pact_holds(const json& expectation, const json& actual) {
  return json_matches(expectation, actual);
}

json pact_v2() {
  return json::parse(R"({
    "consumer": {"name": "donation-form"}, "provider": {"name": "fake-org"},
    "interactions": [{
      "description": "a one-time payment",
      "providerState": "the org takes card payments",
      "request": {"method": "post", "path": "/services/apexrest/cpm/v2/PaymentIntent",
                  "query": "a=1&b=x%20y&a=2",
                  "headers": {"Content-Type": "application/json", "Authorization": "Bearer x"},
                  "body": {"OneTime": {"Amount": 25}}},
      "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                   "body": {"Id": "pi_1", "Items": [{"n": 1}]},
                   "matchingRules": {"$.body.Id": {"match": "regex", "regex": "pi_[0-9a-z]+"},
                                     "$.body.Items": {"min": 1},
                                     "$.headers.Content-Type": {"regex": "application/json.*"}}}
    }],
    "metadata": {"pactSpecification": {"version": "2.0.0"}}})");
}

json pact_v3() {
  return json::parse(R"({
    "consumer": {"name": "c"}, "provider": {"name": "p"},
    "interactions": [{
      "description": "a recurring donation",
      "providerStates": [{"name": "a contact exists", "params": {"lastName": "Weber"}}],
      "request": {"method": "POST", "path": "/x", "query": {"q": ["1", "2"]},
                  "body": {"Payer": {"Id": "003"}},
                  "generators": {"body": {"$.Payer.Id": {"type": "ProviderState", "expression": "${contact}"}}}},
      "response": {"status": 200, "body": {"Id": "pi_1", "When": "2027-03-01"},
                   "matchingRules": {"body": {
                     "$.Id": {"matchers": [{"match": "type"}], "combine": "AND"},
                     "$.When": {"matchers": [{"match": "date", "format": "yyyy-MM-dd"}]}}}}
    }],
    "metadata": {"pactSpecification": {"version": "3.0.0"}}})");
}

json pact_v4() {
  return json::parse(R"({
    "consumer": {"name": "c"}, "provider": {"name": "p"},
    "interactions": [
      {"type": "Asynchronous/Messages", "description": "an event"},
      {"type": "Synchronous/HTTP", "description": "read it",
       "request": {"method": "GET", "path": "/y", "headers": {"Accept": ["application/json"]}},
       "response": {"status": 200, "headers": {"Content-Type": ["application/json"]},
                    "body": {"content": {"Total": 2.5}, "contentType": "application/json", "encoded": false},
                    "matchingRules": {"body": {"$.Total": {"matchers": [{"match": "decimal"}]}},
                                      "status": {"$": {"matchers": [{"match": "statusCode", "status": "success"}]}}}}}
    ],
    "metadata": {"pactSpecification": {"version": "4.0"}}})");
}

}  // namespace

TEST_CASE("pact v2: flat $.body rules, a query string, one provider state", "[pact]") {
  const Pact p = read_pact(pact_v2());
  REQUIRE(p.version == 2);
  REQUIRE(p.interactions.size() == 1);
  const Interaction& i = p.interactions[0];
  CHECK(i.states.at(0).name == "the org takes card payments");
  CHECK(i.request.method == "POST");
  REQUIRE(i.request.query.size() == 2);
  CHECK(i.request.query[0].second == std::vector<std::string>{"1", "2"});
  CHECK(i.request.query[1].second == std::vector<std::string>{"x y"});
  const json e = body_expectation(i.response.body, i.response.body_rules);
  CHECK(pact_holds(e, {{"Id", "pi_abc9"}, {"Items", {{{"n", 7}}, {{"n", 8}}}}, {"More", 1}}));
  CHECK_FALSE(pact_holds(e, {{"Id", "pi_ABC"}, {"Items", {{{"n", 7}}}}}));
  CHECK_FALSE(pact_holds(e, {{"Id", "pi_1"}, {"Items", json::array()}}));   // min 1
  CHECK_FALSE(pact_holds(e, {{"Id", "pi_1"}, {"Items", {{{"n", "7"}}}}}));  // type
  const json ct = header_expectation("Content-Type", "application/json", i.response.header_rules);
  CHECK(pact_holds(ct, "application/json;charset=UTF-8"));
}

TEST_CASE("pact v3: categories, params, query lists, a ProviderState generator", "[pact]") {
  const Pact p = read_pact(pact_v3());
  REQUIRE(p.version == 3);
  const Interaction& i = p.interactions.at(0);
  CHECK(i.states.at(0).params == json{{"lastName", "Weber"}});
  CHECK(i.request.query.at(0).second.size() == 2);
  const json e = body_expectation(i.response.body, i.response.body_rules);
  CHECK(pact_holds(e, {{"Id", "anything"}, {"When", "2031-12-31"}}));
  CHECK_FALSE(pact_holds(e, {{"Id", 5}, {"When", "2031-12-31"}}));
  CHECK_FALSE(pact_holds(e, {{"Id", "x"}, {"When", "31/12/2031"}}));

  auto load = fake_org::parse_provider_states(R"(states:
  a contact exists:
    fixture: default.yaml
    clock: "2027-01-31T09:00:00Z"
    params: {lastName: Doe, email: a@example.org}
    records:
      - {object: Contact, fields: {LastName: "${lastName}", Email: "${email}"}, as: contact}
)",
                                              "states.yaml");
  REQUIRE(load.errors.empty());
  const auto scenarios = pact_scenarios(p, &*load.states, {"v3.json", "59.0"});
  const json sc = scenarios.at(0).scenario;
  CHECK(sc["fixture"] == "default.yaml");
  CHECK(sc["vars"] == json{{"email", "a@example.org"}, {"lastName", "Weber"}});  // the pact's wins
  CHECK(sc["steps"][0]["clock"] == json{{"set", "2027-01-31T09:00:00Z"}});
  CHECK(sc["steps"][1]["request"]["path"] == "/services/data/v59.0/sobjects/Contact");
  CHECK(sc["steps"][1]["request"]["json"]["LastName"] == "Weber");
  CHECK(sc["steps"][1]["capture"] == json{{"contact", "$.id"}});
  CHECK(sc["steps"][2]["request"]["path"] == "/x?q=1&q=2");
  CHECK(sc["steps"][2]["request"]["json"]["Payer"]["Id"] == "${contact}");
  // The written file loads back as a scenario.
  const auto loaded = load_scenario_text(record::to_yaml(scenarios[0].scenario), "pact.yaml");
  CHECK(loaded.errors.empty());
}

TEST_CASE("pact v4: HTTP interactions only, body content, header lists, statusCode", "[pact]") {
  const Pact p = read_pact(pact_v4());
  REQUIRE(p.version == 4);
  REQUIRE(p.interactions.size() == 1);
  CHECK(p.notes.size() == 1);
  const Interaction& i = p.interactions[0];
  CHECK(i.request.headers["Accept"] == "application/json");
  const json e = body_expectation(i.response.body, i.response.body_rules);
  CHECK(pact_holds(e, {{"Total", 9.75}}));
  CHECK_FALSE(pact_holds(e, {{"Total", 9}}));
  const json status = status_expectation(i.response.status, i.response.status_rule);
  CHECK(pact_holds(status, 201));
  CHECK_FALSE(pact_holds(status, 404));
}

TEST_CASE("pact: a provider state the states file lacks is named", "[pact]") {
  const Pact p = read_pact(pact_v2());
  auto load = fake_org::parse_provider_states("states:\n  other: {}\n", "s.yaml");
  REQUIRE(load.states);
  CHECK_THROWS_WITH(pact_scenarios(p, &*load.states, {"v2.json", "59.0"}),
                    Catch::Contains("no provider state 'the org takes card payments'") &&
                        Catch::Contains("'other'"));
  CHECK_THROWS_WITH(pact_scenarios(p, nullptr, {"v2.json", "59.0"}), Catch::Contains("--states"));
}

TEST_CASE("pact rule: type cascades to children, equality and own rules override it", "[pact]") {
  const json example = {{"a", "x"}, {"b", {{"c", 1}, {"d", "fixed"}}}};
  const Rules rules = {{"$", pact_rule({{"match", "type"}})},
                       {"$.b.d", pact_rule({{"match", "equality"}})}};
  const json e = body_expectation(example, rules);
  CHECK(pact_holds(e, {{"a", "y"}, {"b", {{"c", 2.5}, {"d", "fixed"}}}, {"extra", true}}));
  CHECK_FALSE(pact_holds(e, {{"a", "y"}, {"b", {{"c", 2}, {"d", "other"}}}}));
  CHECK_FALSE(pact_holds(e, {{"a", 1}, {"b", {{"c", 2}, {"d", "fixed"}}}}));
  CHECK_FALSE(pact_holds(e, {{"a", "y"}}));  // a key the example has is required
}

TEST_CASE("pact rule: eachLike with min and max counts only its own list", "[pact]") {
  const json example = {{"list", {{{"id", 1}, {"tags", {"t"}}}}}};
  const json e = pact_expect(example, "$.list", {{"match", "type"}, {"min", 1}, {"max", 2}});
  CHECK(pact_holds(e, {{"list", {{{"id", 2}, {"tags", json::array()}}}}}));
  CHECK(pact_holds(
      e, {{"list", {{{"id", 2}, {"tags", {"a", "b", "c"}}}, {{"id", 3}, {"tags", {"x"}}}}}}));
  CHECK_FALSE(pact_holds(e, {{"list", json::array()}}));
  CHECK_FALSE(pact_holds(
      e, {{"list",
           {{{"id", 1}, {"tags", {}}}, {{"id", 2}, {"tags", {}}}, {{"id", 3}, {"tags", {}}}}}}));
  CHECK_FALSE(pact_holds(e, {{"list", {{{"id", "1"}, {"tags", {"t"}}}}}}));
  // [*] in a path names every item.
  const Rules star = {{"$.list", pact_rule({{"match", "type"}, {"min", 0}})},
                      {"$.list[*].id", pact_rule({{"match", "integer"}})}};
  const json s = body_expectation(example, star);
  CHECK(pact_holds(s, {{"list", {{{"id", 4}, {"tags", {"q"}}}}}}));
  CHECK_FALSE(pact_holds(s, {{"list", {{{"id", 4.5}, {"tags", {"q"}}}}}}));
}

TEST_CASE("pact rule: regex matches the whole value, include a part", "[pact]") {
  const json r = pact_expect("pi_1", "$", {{"match", "regex"}, {"regex", "pi_[0-9]+"}});
  CHECK(pact_holds(r, "pi_42"));
  CHECK_FALSE(pact_holds(r, "xpi_42"));
  CHECK_FALSE(pact_holds(r, "pi_42x"));
  const json i = pact_expect("a checkout page", "$", {{"match", "include"}, {"value", "checkout"}});
  CHECK(pact_holds(i, "/psp/checkout/cs_1"));
  CHECK_FALSE(pact_holds(i, "/psp/pay/cs_1"));
}

TEST_CASE("pact rule: number, integer, decimal, boolean, null, notEmpty, semver", "[pact]") {
  CHECK(pact_holds(pact_expect(1, "$", {{"match", "number"}}), 2.5));
  CHECK_FALSE(pact_holds(pact_expect(1, "$", {{"match", "number"}}), "2"));
  CHECK(pact_holds(pact_expect(1, "$", {{"match", "integer"}}), 7));
  CHECK_FALSE(pact_holds(pact_expect(1, "$", {{"match", "integer"}}), 7.5));
  CHECK(pact_holds(pact_expect(1.5, "$", {{"match", "decimal"}}), 7.25));
  CHECK_FALSE(pact_holds(pact_expect(1.5, "$", {{"match", "decimal"}}), 7));
  CHECK(pact_holds(pact_expect(true, "$", {{"match", "boolean"}}), false));
  CHECK_FALSE(pact_holds(pact_expect(true, "$", {{"match", "boolean"}}), "true"));
  CHECK(pact_holds(pact_expect(nullptr, "$", {{"match", "null"}}), nullptr));
  CHECK_FALSE(pact_holds(pact_expect(nullptr, "$", {{"match", "null"}}), 0));
  CHECK(pact_holds(pact_expect("x", "$", {{"match", "notEmpty"}}), "y"));
  CHECK_FALSE(pact_holds(pact_expect("x", "$", {{"match", "notEmpty"}}), ""));
  CHECK(pact_holds(pact_expect("1.0.0", "$", {{"match", "semver"}}), "2.10.3-rc.1"));
  CHECK_FALSE(pact_holds(pact_expect("1.0.0", "$", {{"match", "semver"}}), "2.10"));
}

TEST_CASE("pact rule: date, time and timestamp formats", "[pact]") {
  const json d = pact_expect("2027-03-01", "$", {{"match", "date"}, {"format", "yyyy-MM-dd"}});
  CHECK(pact_holds(d, "2031-12-31"));
  CHECK_FALSE(pact_holds(d, "2031-12-31T00:00:00Z"));
  const json t = pact_expect("09:30", "$", {{"match", "time"}, {"time", "HH:mm"}});  // v3 key
  CHECK(pact_holds(t, "23:59"));
  CHECK_FALSE(pact_holds(t, "9h30"));
  const json ts =
      pact_expect("x", "$", {{"match", "timestamp"}, {"format", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX"}});
  CHECK(pact_holds(ts, "2027-01-31T09:00:00.000Z"));
  CHECK(pact_holds(ts, "2027-01-31T09:00:00.123+01:00"));
  CHECK_FALSE(pact_holds(ts, "2027-01-31 09:00:00"));
  const json dt = pact_expect("x", "$", {{"match", "datetime"}});  // the default: ISO 8601
  CHECK(pact_holds(dt, "2027-01-31T09:00:00Z"));
  CHECK(format_regex("dd/MM/yy") == "^\\d{2}\\/\\d{2}\\/\\d{2}$");
  CHECK_THROWS_AS(format_regex("yyyy-BB"), PactError);
}

TEST_CASE("pact rule: OR, AND, arrayContains, and a rule import-pact cannot state", "[pact]") {
  RuleSet any;
  any.any = true;
  any.matchers = {{{"match", "integer"}}, {{"match", "null"}}};
  const json o = body_expectation(1, {{"$", any}});
  CHECK(pact_holds(o, nullptr));
  CHECK_FALSE(pact_holds(o, "1"));
  RuleSet all;
  all.matchers = {{{"match", "regex"}, {"regex", "a.*"}}, {{"match", "regex"}, {"regex", ".*z"}}};
  const json a = body_expectation("az", {{"$", all}});
  CHECK(pact_holds(a, "abcz"));
  CHECK_FALSE(pact_holds(a, "abc"));
  const json contains = pact_expect(
      json::array({{{"k", "x"}}, {{"k", "y"}}}), "$",
      {{"match", "arrayContains"},
       {"variants",
        {{{"index", 1}, {"rules", {{"$.k", {{"matchers", {{{"match", "type"}}}}}}}}}}}});
  CHECK(pact_holds(contains, json::array({{{"k", "q"}}})));
  CHECK_FALSE(pact_holds(contains, json::array({{{"k", 1}}})));
  CHECK_THROWS_WITH(
      pact_expect({{"a", "x"}}, "$.a", {{"match", "contentType"}, {"value", "image/png"}}),
      Catch::Contains("'contentType' rule at $") && Catch::Contains("not supported"));
}

TEST_CASE("pact: literal values keep ${ and $-keys as text", "[pact]") {
  const json e = body_expectation({{"t", "cost ${x}"}, {"o", {{"$ref", 1}}}}, {});
  CHECK(e["t"] == "cost $${x}");
  CHECK(e["o"] == json{{"$eq", {{"$ref", 1}}}});
}

TEST_CASE("provider-states file: mistakes are named with their place", "[pact]") {
  auto load = fake_org::parse_provider_states(R"(states:
  s:
    clock: yesterday
    records:
      - {fields: {A: 1}}
    colour: red
)",
                                              "s.yaml");
  REQUIRE_FALSE(load.states);
  std::string all;
  for (const auto& e : load.errors) all += e.to_string() + "\n";
  CHECK_THAT(all, Catch::Contains("s.yaml:3:") &&
                      Catch::Contains("clock: 'set' must be an ISO 8601 instant") &&
                      Catch::Contains("needs 'object'") && Catch::Contains("unknown key 'colour'"));
}

TEST_CASE("pact: a path from a provider state's steps, a Uuid header, a text body", "[pact]") {
  const Pact p = read_pact(json::parse(R"({
    "consumer": {"name": "c"}, "provider": {"name": "p"},
    "interactions": [{
      "description": "read the intent",
      "providerStates": [{"name": "an intent exists"}],
      "request": {"method": "GET", "path": "/PaymentIntent/pi_1",
                  "headers": {"X-Key": "k", "Authorization": "Bearer consumer-token"},
                  "generators": {"path": {"type": "ProviderState", "expression": "/PaymentIntent/${pi}"},
                                 "header": {"X-Key": {"type": "Uuid"}}}},
      "response": {"status": 200, "headers": {"Content-Type": "text/plain"}, "body": "ok ${x}"}
    }],
    "metadata": {"pactSpecification": {"version": "3.0.0"}}})"));
  auto load = fake_org::parse_provider_states(R"(states:
  an intent exists:
    steps:
      - request: {method: POST, path: /PaymentIntent, json: {OneTime: {Amount: 5}}}
        capture: {pi: $.Id}
)",
                                              "s.yaml");
  REQUIRE(load.states);
  const json sc = pact_scenarios(p, &*load.states, {"x.json", "59.0"}).at(0).scenario;
  CHECK(sc.count("fixture") == 0);  // any org
  REQUIRE(sc["steps"].size() == 2);
  CHECK(sc["steps"][0]["capture"] == json{{"pi", "$.Id"}});
  const json& req = sc["steps"][1]["request"];
  CHECK(req["path"] == "/PaymentIntent/${pi}");
  CHECK(req["headers"] == json{{"X-Key", "${uuid}"}});  // no consumer token: the runner's
  CHECK(sc["steps"][1]["expect"]["body"] == "ok $${x}");
  CHECK(load_scenario_text(record::to_yaml(sc), "p.yaml").errors.empty());
}
