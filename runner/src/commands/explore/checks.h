#pragma once
// What the explorer checks on every answer, one row each: no 5xx, a status
// the route table declares, the contract, a valid request accepted, and the
// spec's rules that generated cases can state (a refused write changed
// nothing, an idempotency key replays the same intent, what was written
// reads back).
#include <optional>
#include <string>
#include <vector>

#include "checker/checker.h"
#include "commands/explore/explore_case.h"
#include "report/results.h"

namespace runner::explore {

// One step's run, as a check sees it.
struct StepView {
  const Case& c;
  size_t index;
  const StepMeta& meta;
  const StepResult& result;
  const HttpResponse* response;  // null: no answer (not run, no request)
  const HttpRequest* request;
  const contracts::Checker* checker;
  int focus_status;  // the near-miss's answer; 0 without one
};

struct Check {
  std::string name;
  std::string what;  // one line for the docs and --list-checks
  // Whether the check looks at this step at all (counted as applied).
  bool (*applies)(const StepView&);
  // A message when the step breaks it.
  std::optional<std::string> (*judge)(const StepView&);
};

const std::vector<Check>& checks();
const Check* find_check(const std::string& name);

struct CheckFailure {
  std::string check;
  size_t step = 0;  // index into the case's steps
  std::string message;
};

struct Judgement {
  std::vector<CheckFailure> failures;
  std::vector<std::string> applied;  // check names, once per step applied
};

Judgement judge_case(const Case& c, const ScenarioResult& r, const contracts::Checker* checker);

// The statuses the route table declares for a request (its row's and its
// area's); empty outside the contract.
std::vector<int> declared_statuses(const std::string& method, const std::string& url);

}  // namespace runner::explore
