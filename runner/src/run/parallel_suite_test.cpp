// The runner's own threads: scenarios run by several workers at once on the
// embedded target, each with its org, HTTP client and webhook slot, all
// sharing the run's webhook receiver, contract checker and result list.
// ci/tsan runs this under ThreadSanitizer (runner_concurrency_tests).
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "testing/run_helpers.h"

using namespace runner;
using namespace runner::testing;

namespace {

// A scenario that pays on the hosted page and waits for the webhook of its
// own intent; `who` makes each payer, and so each expected event, distinct.
std::string paying_scenario(int who) {
  const std::string name = "Payer" + std::to_string(who);
  return R"(name: parallel payer )" + std::to_string(who) + R"(
steps:
  - request:
      method: POST
      path: /PaymentIntent
      json:
        SuccessURL: https://shop.example/thanks
        FailureURL: https://shop.example/sorry
        WebhookURL: ${webhook_url}
        Payer: {Contact: {CrmFields: {FirstName: Ada, LastName: )" +
         name + R"(, Email: ")" + name + R"(@example.org"}}}
        OneTime: {Amount: )" +
         std::to_string(10 + who) + R"(}
        PaymentMethod: {Name: CreditCard}
    capture: {pi: $.Id, redirect: $.RedirectURL}
  - psp: {redirect: "${redirect}", outcome: success}
  - await_webhook:
      type: installment.status_change
      match: {data: {PaymentIntentId: "${pi}", Status: Collected, Amount: )" +
         std::to_string(10 + who) + R"(}}
      timeout: 30s
  - request: GET /PaymentIntent/${pi}
    expect:
      json: {OneTime: {Status: Collected}}
)";
}

}  // namespace

TEST_CASE("parallel workers: each scenario sees its own org, events and results",
          "[runner][parallel]") {
  auto target = make_target("embedded", {});
  std::vector<std::string> texts;
  for (int i = 0; i < 12; ++i) texts.push_back(paying_scenario(i));
  SuiteOptions o;
  o.jobs = 4;
  std::set<size_t> seen;
  size_t calls = 0;
  RunResult r = run_texts(*target, texts, o, [&](const ScenarioResult&, size_t done, size_t) {
    ++calls;  // one call at a time, by the run's promise
    seen.insert(done);
  });
  REQUIRE(r.scenarios.size() == 12);
  for (size_t i = 0; i < r.scenarios.size(); ++i) {
    INFO(r.scenarios[i].error);
    CHECK(r.scenarios[i].outcome == Outcome::kPassed);
    CHECK(r.scenarios[i].name == "parallel payer " + std::to_string(i));  // in input order
  }
  CHECK(calls == 12);
  CHECK(seen.size() == 12);
  CHECK(*seen.rbegin() == 12);
}
