#pragma once
// Running the selected scenarios on a target with N workers.
#include <functional>
#include <optional>
#include <vector>

#include "checker/checker.h"
#include "report/results.h"
#include "targets/target.h"

namespace runner {

struct SuiteOptions {
  int jobs = 1;            // a target that is not parallel() runs one at a time regardless
  bool fail_fast = false;  // after a failure, start nothing new (the rest are skipped)
  std::optional<contracts::Profile> profile;  // default: the target's
};

// Called as each scenario ends, from the worker that ran it, one call at a time.
using ProgressFn = std::function<void(const ScenarioResult&, size_t done, size_t total)>;

// Called as a worker starts a scenario, from that worker (the live progress
// line names what is running).
using StartFn = std::function<void(const Scenario&)>;

// Results come back in the order of `scenarios`. Throws std::runtime_error
// when the webhook receiver or the contract checker cannot start.
RunResult run_suite(const std::vector<Scenario>& scenarios, Target& target,
                    const SuiteOptions& options, const ProgressFn& progress = nullptr,
                    const StartFn& started = nullptr);

}  // namespace runner
