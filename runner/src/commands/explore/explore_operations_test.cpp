// The operation table against the route table, the chains that reach deep
// operations, and the Bulk rows' requests, without an org.
#include <set>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "commands/explore/checks.h"
#include "commands/explore/coverage.h"
#include "commands/explore/operations.h"
#include "commands/explore/route_scope.h"
#include "commands/explore/sequences.h"

using namespace runner;
using namespace runner::explore;
using nlohmann::json;

namespace {

TargetFacts ops_facts() {
  TargetFacts f;
  f.methods = {{"CreditCard", "Stripe", true, true}, {"PayPal", "Adyen", false, false}};
  f.account_fields = {{"Description", 255}};
  f.account_external_id = "Legacy_Account_Id__c";
  return f;
}

const RequestSpec* ops_request(const Case& c, size_t i) {
  const auto* rs = std::get_if<RequestStep>(&c.scenario.steps[i].body);
  return rs ? &rs->request : nullptr;
}

}  // namespace

TEST_CASE("explore: every org route has an operation or a stated reason", "[explore]") {
  INFO(json(route_scope_gaps()).dump(1));
  CHECK(route_scope_gaps().empty());
  for (const auto& u : unexplored_routes()) CHECK(u.reason.size() > 20);
}

TEST_CASE("explore: every operation is reached along the links from a root", "[explore]") {
  for (const auto& op : operations()) {
    INFO(op.name);
    const auto c = valid_case_to(ops_facts(), 7, 3, op.name);
    REQUIRE(c);
    bool reached = false;
    for (const auto& m : c->meta) reached = reached || m.op == op.name;
    CHECK(reached);
    // Every variable a step uses was captured by an earlier step.
    std::set<std::string> captured;
    for (const auto& s : c->scenario.steps) {
      const auto* r = std::get_if<RequestStep>(&s.body);
      const auto* p = std::get_if<PollStep>(&s.body);
      const std::string path = r ? r->request.path : p ? p->request.path : "";
      for (size_t at = path.find("${"); at != std::string::npos; at = path.find("${", at + 2)) {
        const std::string var = path.substr(at + 2, path.find('}', at) - at - 2);
        CHECK(captured.count(var));
      }
      for (const auto& cap : s.captures) captured.insert(cap.var);
    }
  }
  TargetFacts none = ops_facts();
  none.account_external_id.clear();
  CHECK_FALSE(valid_case_to(none, 7, 3, "upsertAccount"));
}

TEST_CASE("explore: a Bulk upload follows its job's delimiter and line ending", "[explore]") {
  size_t seen = 0;
  for (size_t index = 0; index < 40; ++index) {
    const auto c = valid_case_to(ops_facts(), 11, index, "uploadIngestJob");
    REQUIRE(c);
    const json job = ops_request(*c, 0)->json;
    const RequestSpec* upload = ops_request(*c, 1);
    REQUIRE(upload);
    CHECK(upload->body == RequestSpec::Body::kRaw);
    const std::string delimiter =
        json{{"COMMA", ","},     {"TAB", "\t"},  {"PIPE", "|"},
             {"SEMICOLON", ";"}, {"CARET", "^"}, {"BACKQUOTE", "`"}}[job["columnDelimiter"]
                                                                         .get<std::string>()];
    const std::string le = job["lineEnding"] == "CRLF" ? "\r\n" : "\n";
    INFO(job.dump() << " " << json(upload->raw).dump());
    // An upsert's rows carry its external id field last.
    const std::string key = job.value("externalIdFieldName", "");
    CHECK(upload->raw.rfind(
              "Name" + delimiter + "Description" + (key.empty() ? "" : delimiter + key) + le, 0) ==
          0);
    if (!key.empty()) CHECK(job["operation"] == "upsert");
    CHECK(upload->raw.size() >= le.size());
    CHECK(upload->raw.compare(upload->raw.size() - le.size(), le.size(), le) == 0);
    if (job["lineEnding"] == "LF") CHECK(upload->raw.find('\r') == std::string::npos);
    seen += job["lineEnding"] == "CRLF" ? 1 : 0;
  }
  CHECK(seen > 0);
}

TEST_CASE("explore: a Bulk job is not uploaded again or aborted once closed", "[explore]") {
  size_t closed = 0;
  for (size_t index = 0; index < 3000; ++index) {
    const Case c = valid_case(ops_facts(), 5, index);
    bool was_closed = false, was_uploaded = false;
    for (const auto& m : c.meta) {
      if (was_closed) CHECK(m.op != "uploadIngestJob");
      if (was_closed) CHECK(m.op != "abortIngestJob");
      if (was_uploaded) CHECK(m.op != "uploadIngestJob");
      was_closed = was_closed || m.op == "closeIngestJob";
      was_uploaded = was_uploaded || m.op == "uploadIngestJob";
    }
    closed += was_closed;
  }
  CHECK(closed > 0);
}

TEST_CASE("explore: a valid case's wait for a job that fails is a finding", "[explore]") {
  const auto c = valid_case_to(ops_facts(), 1, 0, "awaitIngestJob");
  REQUIRE(c);
  const size_t at = c->meta.size() - 1;
  REQUIRE(c->scenario.steps[at].kind == StepKind::kPoll);
  StepResult r;
  r.kind = StepKind::kPoll;
  r.outcome = Outcome::kFailed;
  r.failures.push_back({});
  r.failures.back().message = "halted: state Failed";
  StepView v{*c, at, c->meta[at], r, nullptr, nullptr, nullptr, 0};
  const Check* check = find_check("job_completes");
  REQUIRE(check);
  REQUIRE(check->applies(v));
  const auto msg = check->judge(v);
  REQUIRE(msg);
  CHECK(msg->find("halted: state Failed") != std::string::npos);
  r.outcome = Outcome::kPassed;
  CHECK_FALSE(check->judge(v));
}
