#include "run/scenario_executor.h"

#include <chrono>

#include "net/interrupt.h"
#include "scenario/step_dependence.h"
#include "steps/step_context.h"

namespace runner {

namespace {

// True when an interrupt came while step `i` ran and steps are left: the
// scenario fails saying so (a wait the interrupt cut short fails the step
// itself, "during").
bool stopped_after(size_t i, const Scenario& s, ScenarioResult& r) {
  if (!interrupt::received()) return false;
  const StepResult& step = r.steps.back();
  const bool cut_short = step.outcome == Outcome::kFailed && !step.failures.empty() &&
                         step.failures.front().kind == "interrupted";
  if (!cut_short && (step.outcome == Outcome::kFailed || i + 1 >= s.steps.size())) return false;
  r.error = "interrupted by " + interrupt::received_name() + (cut_short ? " during" : " after") +
            " step " + std::to_string(i + 1) + " of " + std::to_string(s.steps.size());
  return true;
}

}  // namespace

ScenarioResult run_scenario(const Scenario& s, ExecEnv& env) {
  const auto start = std::chrono::steady_clock::now();
  ScenarioResult r;
  r.file = s.file;
  r.name = s.name;
  r.tags = s.tags;
  auto finish = [&](Outcome o) {
    r.outcome = o;
    r.ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return r;
  };
  auto not_run_from = [&](size_t first) {
    for (size_t i = first; i < s.steps.size(); ++i) {
      StepResult sr;
      sr.index = i;
      sr.name = s.steps[i].name;
      sr.kind = s.steps[i].kind;
      sr.pos = s.steps[i].pos;
      sr.outcome = Outcome::kSkipped;
      r.steps.push_back(std::move(sr));
    }
  };
  if (auto why = env.target.skip_reason(s)) {
    r.skip_reason = *why;
    not_run_from(0);
    return finish(Outcome::kSkipped);
  }
  std::unique_ptr<OrgSession> org;
  try {
    org = env.target.open(s);
  } catch (const std::exception& e) {
    r.error = std::string("target ") + env.target.describe() + ": " + e.what();
    not_run_from(0);
    return finish(Outcome::kFailed);
  }
  const std::string slot = env.hooks.new_slot(s.name);
  std::string public_base = org->config().webhook_public_base;
  Builtins builtins;
  builtins.webhook_url = [&] { return env.hooks.url_for(slot, public_base); };
  builtins.api_base = [&] { return org->config().api_base; };
  builtins.instance_url = [&] { return org->config().instance_url; };
  builtins.today = [&] { return org->today(); };
  builtins.now = [&] { return org->now(); };
  Variables vars;
  try {
    // Evaluated once, in order: `key: ${uuid}` is one value for the whole scenario.
    for (const auto& [name, value] : s.vars) vars[name] = Interpolator(vars, builtins).value(value);
  } catch (const std::exception& e) {
    r.error = "vars: " + std::string(e.what());
    env.hooks.forget(slot);
    not_run_from(0);
    return finish(Outcome::kFailed);
  }
  StepContext ctx{*org, env.hooks, slot, env.checker, vars, builtins};
  for (size_t i = 0; i < s.steps.size(); ++i) {
    r.steps.push_back(run_step(s.steps[i], i, ctx));
    // A failed request's report sends it again alone: say what it needs.
    StepResult& last = r.steps.back();
    if (last.outcome == Outcome::kFailed && last.exchange)
      last.exchange->depends_on = earlier_step_dependence(s, i);
    // SIGINT/SIGTERM: the step in progress ends, the scenario stops there,
    // and its org goes with the session (the run must not leave orgs behind).
    if (stopped_after(i, s, r) || r.steps.back().outcome == Outcome::kFailed) {
      not_run_from(i + 1);
      env.hooks.forget(slot);
      return finish(Outcome::kFailed);
    }
  }
  env.hooks.forget(slot);
  // Steps that all passed do not excuse a fake that broke its own contract.
  if (std::string broken = org->self_check(); !broken.empty()) {
    r.error = broken;
    return finish(Outcome::kFailed);
  }
  return finish(Outcome::kPassed);
}

}  // namespace runner
