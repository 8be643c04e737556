#pragma once
// What a run produced, for the reports: per scenario, per step, with every
// failure in a form a person can act on.
#include <optional>
#include <string>
#include <vector>

#include "eval/matchers.h"
#include "net/http_types.h"
#include "scenario/model.h"

namespace runner {

enum class Outcome { kPassed, kFailed, kSkipped };
const char* to_string(Outcome o);

struct Failure {
  Failure() = default;
  // Most failures have no structured mismatches, no diff, no place of their own.
  Failure(std::string kind_, std::string message_, std::vector<Mismatch> mismatches_ = {},
          std::string diff_ = "", SourcePos pos_ = {})
      : kind(std::move(kind_)),
        message(std::move(message_)),
        mismatches(std::move(mismatches_)),
        diff(std::move(diff_)),
        pos(std::move(pos_)) {}

  // status | headers | json | body | csv | contract | capture | halt | timeout | error
  std::string kind;
  std::string message;               // one or more lines
  std::vector<Mismatch> mismatches;  // for json/headers/status, structured
  std::string diff;                  // expected versus actual, when there is one
  // Where the failed assertion is written (the field under `expect.json`, the
  // status line); line 0: the step's own position is the closest.
  SourcePos pos;
};

// The last HTTP exchange of a step (the one a failure is about).
struct Exchange {
  HttpRequest request;
  std::optional<HttpResponse> response;
  std::string curl;  // reproduces the request; the token is $TOKEN
  // Shell lines to run before `curl`: set $TOKEN, after starting an org like
  // the scenario's when it is gone (org_stopped, the embedded fake). Empty:
  // $TOKEN is the runner's bearer token, which the report does not show.
  std::string curl_setup;
  std::string curl_teardown;  // shell lines after `curl`: what curl_setup made goes again
  // Why the request may not reproduce alone: the values of earlier steps it
  // uses, the earlier steps that changed the org; empty when it stands alone.
  std::string depends_on;
  bool org_stopped = false;
  bool token_refreshed = false;
};

struct StepResult {
  size_t index = 0;
  std::string name;
  StepKind kind = StepKind::kRequest;
  SourcePos pos;
  Outcome outcome = Outcome::kSkipped;  // skipped: not run after an earlier failure
  std::vector<Failure> failures;
  std::optional<Exchange> exchange;
  std::string detail;  // what happened, e.g. "200 in 12 ms", "3 attempts"
  double ms = 0;
};

struct ScenarioResult {
  std::string file;
  std::string name;
  std::vector<std::string> tags;
  Outcome outcome = Outcome::kSkipped;
  std::string skip_reason;
  bool not_run = false;  // skipped because the run stopped (--fail-fast, an interrupt)
  std::string error;     // setup failure (target, vars) outside any step
  std::vector<StepResult> steps;
  double ms = 0;

  const StepResult* first_failed_step() const;
};

struct RunSummary {
  size_t passed = 0, failed = 0, skipped = 0;
  double ms = 0;
};

struct RunResult {
  std::string target;
  std::string profile;
  std::vector<ScenarioResult> scenarios;  // in the run's order (sorted by file)
  // "SIGINT" or "SIGTERM" when the run was interrupted: the results are
  // partial (scenarios not started are skipped, `not_run`).
  std::string interrupted;
  RunSummary summary() const;
  double ms = 0;
};

}  // namespace runner
