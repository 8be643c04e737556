#pragma once
// Running one scenario: open a session on the target, evaluate vars, run the
// steps in order, stop at the first failing step (later steps are reported as
// not run).
#include "checker/checker.h"
#include "net/webhook_receiver.h"
#include "report/results.h"
#include "targets/target.h"

namespace runner {

struct ExecEnv {
  Target& target;
  WebhookReceiver& hooks;
  const contracts::Checker* checker = nullptr;  // null: contract checks off
};

ScenarioResult run_scenario(const Scenario& scenario, ExecEnv& env);

}  // namespace runner
