#include "report/results.h"

namespace runner {

const char* to_string(Outcome o) {
  switch (o) {
    case Outcome::kPassed:
      return "passed";
    case Outcome::kFailed:
      return "failed";
    case Outcome::kSkipped:
      return "skipped";
  }
  return "?";
}

const StepResult* ScenarioResult::first_failed_step() const {
  for (const auto& s : steps)
    if (s.outcome == Outcome::kFailed) return &s;
  return nullptr;
}

RunSummary RunResult::summary() const {
  RunSummary s;
  s.ms = ms;
  for (const auto& r : scenarios) {
    if (r.outcome == Outcome::kPassed) ++s.passed;
    if (r.outcome == Outcome::kFailed) ++s.failed;
    if (r.outcome == Outcome::kSkipped) ++s.skipped;
  }
  return s;
}

}  // namespace runner
