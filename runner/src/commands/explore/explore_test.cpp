// The explorer's parts without an org: cases from a seed, the near-miss
// families, the checks on made-up answers, the shrinker with a made-up
// failure, and the written scenario loading back.
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "commands/explore/checks.h"
#include "commands/explore/explore_command.h"
#include "commands/explore/explorer.h"
#include "commands/explore/mutations.h"
#include "commands/explore/operations.h"
#include "commands/explore/scenario_writer.h"
#include "commands/explore/sequences.h"
#include "commands/explore/shrink.h"
#include "scenario/loader.h"

using namespace runner;
using namespace runner::explore;
using nlohmann::json;

namespace {

TargetFacts test_facts() {
  TargetFacts f;
  f.methods = {{"CreditCard", "Stripe", true, true}, {"PayPal", "Adyen", false, false}};
  return f;
}

json case_json(const Case& c) {
  json steps = json::array();
  for (const auto& s : c.scenario.steps) {
    json j = {{"name", s.name}};
    if (const auto* r = std::get_if<RequestStep>(&s.body))
      j["request"] = {{"method", r->request.method},
                      {"path", r->request.path},
                      {"json", r->request.json},
                      {"raw", r->request.raw}};
    steps.push_back(j);
  }
  return {{"mutation", c.mutation}, {"steps", steps}};
}

StepResult answered(size_t index, const std::string& method, const std::string& url, int status,
                    const std::string& body) {
  StepResult s;
  s.index = index;
  s.outcome = Outcome::kPassed;
  Exchange e;
  e.request.method = method;
  e.request.url = url;
  HttpResponse r;
  r.status = status;
  r.body = body;
  e.response = r;
  s.exchange = e;
  return s;
}

}  // namespace

TEST_CASE("explore: a case is the same for the same seed and index", "[explore]") {
  const TargetFacts f = test_facts();
  for (size_t i = 0; i < 30; ++i)
    CHECK(case_json(make_case(f, 7, i, 70)) == case_json(make_case(f, 7, i, 70)));
  size_t differ = 0;
  for (size_t i = 0; i < 30; ++i)
    differ += case_json(make_case(f, 7, i, 70)) != case_json(make_case(f, 8, i, 70)) ? 1 : 0;
  CHECK(differ > 15);
}

TEST_CASE("explore: valid cases follow the links table", "[explore]") {
  const TargetFacts f = test_facts();
  for (size_t i = 0; i < 200; ++i) {
    const Case c = valid_case(f, 3, i);
    REQUIRE(!c.meta.empty());
    CHECK(find_operation(c.meta.front().op)->root);
    for (size_t k = 1; k < c.meta.size(); ++k) {
      // The rules' own steps: the create again (replay, deduplicated payer).
      if (c.meta[k].op == c.meta.front().op) continue;
      bool linked = false;
      for (const auto& l : links())
        for (size_t p = 0; p < k; ++p)
          linked = linked || (l.to == c.meta[k].op && l.from == c.meta[p].op);
      CHECK(linked);
    }
  }
}

TEST_CASE("explore: the facts keep methods a request can name bare", "[explore]") {
  std::ifstream in(std::string(PROJECT_SOURCE_DIR) +
                   "/contracts/examples/payment_methods_response/valid/card_and_sepa.json");
  const TargetFacts f = facts_from_payment_methods(json::parse(in));
  REQUIRE(f.methods.size() == 1);  // SEPA needs an IBAN
  CHECK(f.methods[0].name == "CreditCard");
  CHECK(f.methods[0].processor == "Stripe");
  CHECK(f.methods[0].recurring);
  CHECK(f.methods[0].initial_required);
  std::ifstream sc(std::string(PROJECT_SOURCE_DIR) +
                   "/contracts/examples/source_connectors_response/valid/" +
                   "native_and_fundraising.json");
  REQUIRE(sc);
  CHECK(facts_from_source_connectors(json::parse(sc), f).frequencies ==
        std::vector<std::string>{"Daily", "Weekly", "Monthly", "Yearly"});
}

TEST_CASE("explore: facts read booleans sent as text, and survive odd answers", "[explore]") {
  const json methods = json::parse(R"({"PaymentMethods": [
    {"Name": "Card", "Processors": [{"Name": "P", "IsDefault": "true", "SupportsRecurring": "true",
                                     "Parameters": [{"Name": "x", "Required": "false"}]}]},
    {"Name": 5}, {"Name": "NoProcessors", "Processors": "none"}]})");
  const TargetFacts f = facts_from_payment_methods(methods);
  REQUIRE(f.methods.size() == 1);
  CHECK(f.methods[0].recurring);
  const json connectors = json::parse(
      R"({"SourceConnectors": [{"IsDefault": "true", "Frequencies": ["Monthly"]},
                               {"IsDefault": true, "Frequencies": "Weekly"}]})");
  CHECK(facts_from_source_connectors(connectors, f).frequencies ==
        std::vector<std::string>{"Monthly"});
  CHECK(facts_from_payment_methods(json("x")).methods.empty());
}

TEST_CASE("explore: describe gives the account's other text fields", "[explore]") {
  const json describe = json::parse(R"({"fields": [
    {"name": "Name", "type": "string", "length": 255, "createable": true, "updateable": true},
    {"name": "Site", "type": "string", "length": 80, "createable": true, "updateable": true},
    {"name": "Description", "type": "textarea", "length": 32000, "createable": true,
     "updateable": true},
    {"name": "Total", "type": "string", "length": 10, "createable": true, "updateable": true,
     "calculated": true},
    {"name": "Phone", "type": "phone", "length": 40, "createable": true, "updateable": true},
    {"name": "Code", "type": "string", "length": 5, "createable": false, "updateable": true},
    {"name": "Odd", "type": "string", "length": "80", "createable": true, "updateable": true},
    {"name": "LastName", "type": "string", "length": 80, "createable": true, "updateable": true},
    {"name": "PersonTitle", "type": "string", "length": 80, "createable": true,
     "updateable": true}]})");
  const TargetFacts f = facts_from_describe(describe, {});
  REQUIRE(f.account_fields.size() == 2);
  CHECK(f.account_fields[0].name == "Site");
  CHECK(f.account_fields[0].length == 80);
  CHECK(f.account_fields[1].name == "Description");
}

TEST_CASE("explore: value pointers, parents first", "[explore]") {
  CHECK(value_pointers(json{{"a", {{"b", 1}}}, {"c", json::array({2, 3})}}) ==
        std::vector<std::string>{"/a", "/a/b", "/c", "/c/0", "/c/1"});
}

TEST_CASE("explore: each family changes the request as named", "[explore]") {
  RequestSpec base;
  base.method = "POST";
  base.path = "/PaymentIntent";
  base.body = RequestSpec::Body::kJson;
  base.json = {{"A", "x"}, {"B", {{"C", 5}}}};
  auto family = [](const std::string& name) {
    for (const auto& f : families())
      if (f.name == name) return f;
    FAIL(name);
    return families().front();
  };
  Rng rng(1);
  RequestSpec r = base;
  CHECK(family("duplicate_key").apply(r, rng) == "duplicate key /A");
  CHECK(r.raw == R"({"A":"duplicate","A":"x","B":{"C":5}})");
  r = base;
  CHECK(family("unknown_field").apply(r, rng) == "unknown field /ExploreUnknown");
  CHECK(r.json == json{{"A", "x"}, {"B", {{"C", 5}}}, {"ExploreUnknown", "x"}});
  r = base;
  family("wrong_content_type").apply(r, rng);
  CHECK(r.headers == StringPairs{{"Content-Type", "text/plain"}});
  CHECK(r.raw == base.json.dump());
  r = base;
  CHECK(family("bad_utf8").apply(r, rng) == "bytes that are not UTF-8 at /A");
  CHECK(r.raw == "{\"A\":\"caf\xC3\x28\",\"B\":{\"C\":5}}");
  r = base;
  const std::string long_one = family("too_long").apply(r, rng);
  CHECK(long_one ==
        "too long at /A (" + std::to_string(r.json["A"].get<std::string>().size()) + " chars)");
  CHECK(r.json["A"].get<std::string>().size() > 80);
  CHECK_FALSE(family("malformed_id").applies(base));
  r = base;
  r.path = "/PaymentIntent/${pi}";
  REQUIRE(family("malformed_id").applies(r));
  family("malformed_id").apply(r, rng);
  CHECK(r.path == "/PaymentIntent/${pi}x");
  for (int i = 0; i < 20; ++i) {
    r = base;
    const std::string what = family("missing").apply(r, rng);
    if (what == "missing /A") CHECK(r.json == json{{"B", {{"C", 5}}}});
    if (what == "missing /B") CHECK(r.json == json{{"A", "x"}});
    if (what == "missing /B/C") CHECK(r.json == json{{"A", "x"}, {"B", json::object()}});
  }
}

TEST_CASE("explore: a near-miss write counts records around it", "[explore]") {
  const TargetFacts f = test_facts();
  size_t seen = 0;
  for (size_t i = 0; i < 1000 && !seen; ++i) {
    Case v = valid_case(f, 1, i);
    if (v.root() != "createAccount" || v.meta.size() != 1) continue;
    const Case c = near_miss_case(v, 1, i);
    if (c.mutation.empty()) continue;
    ++seen;
    REQUIRE(c.scenario.steps.size() == 3);
    CHECK(c.scenario.steps[0].name == "Account count before");
    CHECK(c.meta[1].focus);
    CHECK(c.scenario.steps[2].name == "Account count unchanged");
    CHECK(c.meta[2].rule == "refused_write_unchanged");
  }
  CHECK(seen == 1);
}

TEST_CASE("explore: declared statuses come from the route table", "[explore]") {
  CHECK(declared_statuses("POST", "http://127.0.0.1:1/services/apexrest/cpm/v2/PaymentIntent") ==
        std::vector<int>{200, 400, 401, 404, 409, 413, 422, 500});
  CHECK(declared_statuses("GET", "/__admin/records/Account").empty());
}

TEST_CASE("explore: the checks judge made-up answers", "[explore]") {
  Case c = valid_case(test_facts(), 1, 0);
  c.scenario.steps.resize(1);
  c.meta = {StepMeta{"listPaymentMethods", "", false}};
  ScenarioResult r;
  r.outcome = Outcome::kPassed;
  const std::string url = "http://h/services/apexrest/cpm/v2/PaymentMethods";
  r.steps = {answered(0, "GET", url, 503, "{}")};
  Judgement j = judge_case(c, r, nullptr);
  REQUIRE(j.failures.size() == 2);
  CHECK(j.failures[0].check == "no_5xx");
  CHECK(j.failures[1].check == "valid_accepted");
  r.steps = {answered(0, "GET", url, 418, "{}")};
  j = judge_case(c, r, nullptr);
  REQUIRE(j.failures.size() == 2);
  CHECK(j.failures[0].check == "declared_status");
  CHECK(j.failures[0].message ==
        "answered 418, which the route table does not declare (200, 400, 401, 404, 409, 422, 500)");
  auto checker = contracts::Checker::embedded(contracts::Profile::kStrict);
  r.steps = {answered(0, "GET", url, 200, R"({"PaymentMethods": 5})")};
  j = judge_case(c, r, checker.get());
  REQUIRE(j.failures.size() == 1);
  CHECK(j.failures[0].check == "contract");
  CHECK(j.applied ==
        std::vector<std::string>{"no_5xx", "declared_status", "contract", "valid_accepted"});
}

TEST_CASE("explore: a rule step fails its rule when its expectation does", "[explore]") {
  Case c = valid_case(test_facts(), 1, 0);
  c.scenario.steps.resize(1);
  c.meta = {StepMeta{"readIntent", "payer_deduplicated", false}};
  ScenarioResult r;
  r.outcome = Outcome::kFailed;
  r.steps = {answered(0, "GET", "http://h/services/apexrest/cpm/v2/PaymentIntent/pi_1", 200,
                      R"({"Id": "pi_1", "Status": "Matched"})")};
  r.steps[0].failures.emplace_back("json", "/Payer/Contact/Id: expected \"003a\", got \"003b\"");
  const Judgement j = judge_case(c, r, nullptr);
  REQUIRE(j.failures.size() == 1);
  CHECK(j.failures[0].check == "payer_deduplicated");
  CHECK(j.failures[0].message == "/Payer/Contact/Id: expected \"003a\", got \"003b\"");
  // Not its rule: no failure of it.
  c.meta[0].rule = "amount_survives_read";
  CHECK(judge_case(c, r, nullptr).failures[0].check == "amount_survives_read");
  c.meta[0].rule.clear();
  CHECK(judge_case(c, r, nullptr).failures.empty());
}

TEST_CASE("explore: the shrinker keeps only what the failure needs", "[explore]") {
  Case c = valid_case(test_facts(), 1, 0);
  RequestSpec r;
  r.method = "POST";
  r.path = "/PaymentIntent";
  r.body = RequestSpec::Body::kJson;
  r.json = {{"A", 1}, {"B", {{"C", 2}, {"D", 3}}}};
  Step s;
  s.name = "bad";
  s.body = RequestStep{r, {}};
  Step other = s;
  other.name = "other";
  c.scenario.steps = {other, s, other};
  c.scenario.steps[2].name = "other2";
  c.meta = {StepMeta{"x", "", false}, StepMeta{"x", "", true}, StepMeta{"x", "", false}};
  // Fails while the step named "bad" sends B.D.
  auto fails = [](const Case& k) {
    const size_t at = step_named(k, "bad");
    if (at >= k.scenario.steps.size()) return false;
    const auto& j = std::get<RequestStep>(k.scenario.steps[at].body).request.json;
    return j.contains("B") && j["B"].contains("D");
  };
  ShrinkStats stats;
  const Case out = shrink_case(c, "bad", fails, 100, stats);
  REQUIRE(out.scenario.steps.size() == 1);
  CHECK(std::get<RequestStep>(out.scenario.steps[0].body).request.json == json{{"B", {{"D", 3}}}});
  CHECK(stats.cuts == 4);  // two steps, A, B/C
  ShrinkStats none;
  shrink_case(c, "bad", fails, 0, none);
  CHECK(none.tries == 0);
}

TEST_CASE("explore: a written case loads back with the check as its expectation", "[explore]") {
  Case c;
  for (size_t i = 0; i < 2000 && c.mutation.empty(); ++i) {
    c = make_case(test_facts(), 1, i, 100);
    if (c.family != "missing" || c.root() != "createOneTime") c.mutation.clear();
  }
  REQUIRE(!c.mutation.empty());
  size_t focus = 0;
  while (!c.meta[focus].focus) ++focus;
  std::string error;
  const std::string yaml =
      scenario_yaml(c, {"no_5xx", focus, "answered 500"}, {"explore --seed 1", 0}, error);
  INFO(yaml << error);
  REQUIRE(error.empty());
  LoadResult back = load_scenario_text(yaml, "written.yaml");
  REQUIRE(back.ok());
  const auto& rs = std::get<RequestStep>(back.scenario->steps[focus].body);
  CHECK(*rs.expect.status == json{{"$range", {0, 499}}});
  CHECK_FALSE(rs.expect.contract);
  CHECK(back.scenario->tags == std::vector<std::string>{"explore", "no_5xx"});
  Case bad = c;
  bad.unwritable = true;
  CHECK(scenario_yaml(bad, {"no_5xx", focus, ""}, {}, error).empty());
  CHECK(error == "the request holds bytes that are not UTF-8, which a YAML file cannot carry");
}

TEST_CASE("explore: budgets in cases or seconds", "[explore]") {
  size_t cases = 0;
  double seconds = 0;
  CHECK(parse_budget("40", cases, seconds));
  CHECK(cases == 40);
  CHECK(parse_budget("30s", cases, seconds));
  CHECK(seconds == 30);
  CHECK_FALSE(parse_budget("0", cases, seconds));
  CHECK_FALSE(parse_budget("x", cases, seconds));
  CHECK_FALSE(parse_budget("s", cases, seconds));
}

TEST_CASE("explore: a cut that drops a capture still in use is refused", "[explore]") {
  Case c;
  Step create;
  create.name = "create";
  RequestStep rs;
  rs.request.path = "/PaymentIntent";
  create.body = rs;
  Capture cap;
  cap.var = "pi";
  cap.path = "$.Id";
  create.captures.push_back(cap);
  Step read;
  read.name = "read";
  rs.request.path = "/PaymentIntent/${pi}";
  rs.request.json = {{"Key", "${uuid}"}};
  read.body = rs;
  c.scenario.steps = {create, read};
  CHECK(references_defined(c));
  c.scenario.steps = {read};
  CHECK_FALSE(references_defined(c));
  c.scenario.steps = {read, create};
  CHECK_FALSE(references_defined(c));
}
