// The near-misses the request schemas drive, and the coverage of a run's
// cases against the route table and the schemas' properties.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "checker/checker.h"
#include "commands/explore/checks.h"
#include "commands/explore/coverage.h"
#include "commands/explore/explore_test_facts.h"
#include "commands/explore/explorer.h"
#include "commands/explore/mutations.h"
#include "commands/explore/operations.h"
#include "commands/explore/optional_members.h"
#include "commands/explore/schema_facts.h"
#include "commands/explore/shrink.h"

using namespace runner;
using namespace runner::explore;
using nlohmann::json;

namespace {

TargetFacts sf_facts() {
  return default_org_facts();
}

std::vector<Case> sf_default_run() {
  const ExploreOptions defaults;
  std::vector<Case> cases;
  for (size_t i = 0; i < defaults.cases; ++i)
    cases.push_back(make_case(sf_facts(), defaults.seed, i, defaults.near_miss_percent));
  return cases;
}

bool sf_lower_equal(std::string a, std::string b) {
  for (auto* s : {&a, &b})
    for (auto& ch : *s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return a == b;
}

bool sf_near_spelling(const json& value, const std::vector<json>& members) {
  const std::string v = value.get<std::string>();
  for (const auto& m : members) {
    const std::string e = m.get<std::string>();
    if (sf_lower_equal(v, e) || (v.size() + 1 == e.size() && e.compare(0, v.size(), v) == 0))
      return true;
  }
  return false;
}

}  // namespace

TEST_CASE("explore: schema rules follow $ref and the combinators", "[explore]") {
  const ValueRules root = value_rules("payment_intent_request", "");
  CHECK(root.known);
  CHECK(root.closed);
  CHECK(root.required == std::vector<std::string>{"SuccessURL", "FailureURL", "Payer", "OneTime",
                                                  "PaymentMethod", "Recurring"});
  const ValueRules amount = value_rules("payment_intent_request", "/OneTime/Amount");
  REQUIRE(amount.minimum);
  CHECK(*amount.minimum == 0);
  CHECK(amount.exclusive_minimum);
  CHECK(value_rules("payment_intent_request", "/PaymentMethod/Name").min_length == 1u);
  CHECK(value_rules("payment_intent_request", "/Recurring").closed);
  CHECK(value_rules("bulk_ingest_job_request", "/lineEnding").enums ==
        std::vector<json>{"LF", "CRLF"});
  CHECK_FALSE(value_rules("payment_intent_request", "/Nope").known);
  CHECK_FALSE(value_rules("no_such_schema", "").known);
  CHECK(request_schema_name("POST", "/services/data/v62.0/jobs/query") == "bulk_query_job_request");
}

TEST_CASE("explore: a value just outside the schema is one the checker refuses", "[explore]") {
  const auto checker = contracts::Checker::embedded(contracts::Profile::kStrict);
  const std::vector<std::pair<std::string, json>> bodies = {
      {"payment_intent_request",
       {{"SuccessURL", "https://a.example/ok"},
        {"FailureURL", "https://a.example/ko"},
        {"Payer", {{"Contact", {{"CrmFields", {{"LastName", "X"}}}}}}},
        {"OneTime", {{"Amount", 5}}},
        {"PaymentMethod", {{"Name", "CreditCard"}}}}},
      {"bulk_ingest_job_request",
       {{"object", "Account"}, {"operation", "insert"}, {"lineEnding", "CRLF"}}},
      {"bulk_query_job_request",
       {{"operation", "queryAll"},
        {"query", "SELECT Id FROM Account"},
        {"columnDelimiter", "TAB"}}},
  };
  size_t tried = 0;
  for (const auto& [schema, body] : bodies) {
    REQUIRE(checker->validate(schema, body).ok());
    for (const auto& p : value_pointers(body)) {
      const json& v = body.at(json::json_pointer(p));
      for (const auto& o : just_outside(value_rules(schema, p), v)) {
        json changed = body;
        changed.at(json::json_pointer(p)) = o.value;
        INFO(schema << " " << p << " " << o.rule << " " << o.value.dump());
        CHECK_FALSE(checker->validate(schema, changed).ok());
        // A near spelling of a member (its case, or one letter short), not a letter appended.
        if (o.rule.rfind("enum", 0) == 0)
          CHECK(sf_near_spelling(o.value, value_rules(schema, p).enums));
        ++tried;
      }
    }
  }
  CHECK(tried >= 8);
}

TEST_CASE("explore: the default budget covers every route and sent property", "[explore]") {
  const std::vector<Case> cases = sf_default_run();
  const Coverage full = coverage(cases);
  INFO(json(coverage_gaps(full)).dump(1));
  CHECK(coverage_gaps(full).empty());
  CHECK(full.properties.at("payment_intent_request#/Payer/Contact/CrmFields").valid);
  CHECK(full.properties.at("bulk_query_job_request#/operation").near_miss);
  // By construction: without the cases that start with a query job, its
  // routes and its schema's properties are reported as left out.
  std::vector<Case> fewer;
  for (const auto& c : cases)
    if (c.root() != "createQueryJob") fewer.push_back(c);
  const auto gaps = coverage_gaps(coverage(fewer));
  CHECK(std::count(gaps.begin(), gaps.end(), "postQueryJob: no valid request") == 1);
  CHECK(std::count(gaps.begin(), gaps.end(), "getQueryJob: no near-miss") == 1);
}

TEST_CASE("explore: the default budget sends every request-schema property or says why not",
          "[explore]") {
  const Coverage full = coverage(sf_default_run());
  size_t sent = 0;
  for (const auto& [key, p] : full.properties) {
    INFO(key);
    bool reason = false;
    for (const auto& u : unsent_properties()) reason = reason || u.property == key;
    CHECK((p.valid || reason));
    if (p.valid) CHECK(p.near_miss);
    sent += p.valid;
  }
  // Every reason names a property of a request schema, and says why in words.
  for (const auto& u : unsent_properties()) {
    INFO(u.property);
    CHECK(full.properties.count(u.property));
    CHECK(u.reason.size() > 40);
  }
  CHECK(full.properties.size() >= 89);
  CHECK(sent + unsent_properties().size() == full.properties.size());
  // Map members (CrmFields' field names) are data, not the contract's properties.
  CHECK_FALSE(full.properties.count("payment_intent_request#/Payer/Contact/CrmFields/LastName"));
}

TEST_CASE("explore: a valid /Payment answered IsSuccess false is not accepted", "[explore]") {
  Case c = make_case(sf_facts(), 1, 0, 0);
  c.scenario.steps.resize(1);
  c.meta = {StepMeta{"createLegacyPayment", "", false}};
  ScenarioResult r;
  r.outcome = Outcome::kPassed;
  StepResult s;
  s.outcome = Outcome::kPassed;
  Exchange e;
  e.request.method = "POST";
  e.request.url = "http://h/services/apexrest/cpm/v2/Payment";
  HttpResponse answer;
  answer.status = 200;
  answer.body = R"({"IsSuccess": false, "ResponseCode": "010", "Message": "no method"})";
  e.response = answer;
  s.exchange = e;
  r.steps = {s};
  Judgement j = judge_case(c, r, nullptr);
  REQUIRE(j.failures.size() == 1);
  CHECK(j.failures[0].check == "valid_accepted");
  answer.body = R"({"IsSuccess": true, "ResponseCode": "200"})";
  r.steps[0].exchange->response = answer;
  CHECK(judge_case(c, r, nullptr).failures.empty());
}

TEST_CASE("explore: the shrinker cuts a raw body's members, the duplicate kept", "[explore]") {
  RequestSpec r;
  r.method = "POST";
  r.path = "/PaymentIntent";
  r.body = RequestSpec::Body::kJson;
  r.json = {{"A", "x"}, {"B", {{"C", 5}}}, {"D", 1}};
  Rng rng(1);
  for (const auto& f : families())
    if (f.name == "duplicate_key") f.apply(r, rng);
  REQUIRE(r.raw == R"({"A":"duplicate","A":"x","B":{"C":5},"D":1})");
  Case c;
  Step s;
  s.name = "bad";
  s.body = RequestStep{r, {}};
  c.scenario.steps = {s};
  c.meta = {StepMeta{"createOneTime", "", true}};
  auto fails = [](const Case& k) {
    const auto& raw = std::get<RequestStep>(k.scenario.steps[0].body).request.raw;
    return raw.find("\"D\"") != std::string::npos;
  };
  ShrinkStats stats;
  Case out = shrink_case(c, "bad", fails, 100, stats);
  CHECK(std::get<RequestStep>(out.scenario.steps[0].body).request.raw ==
        R"({"A":"duplicate","A":"x","D":1})");
  // A JSON text sent as text/plain: its members go the same way.
  r.raw = R"({"B":{"C":5},"D":1})";
  c.scenario.steps[0].body = RequestStep{r, {}};
  out = shrink_case(c, "bad", fails, 100, stats);
  CHECK(std::get<RequestStep>(out.scenario.steps[0].body).request.raw == R"({"D":1})");
}
