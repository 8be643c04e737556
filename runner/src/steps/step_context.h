#pragma once
// What a step needs while it runs: the org connection, the webhook receiver
// and this scenario's slot in it, the contract checker, and the scenario's
// variables (which captures extend).
#include <string>

#include "checker/checker.h"
#include "eval/interpolate.h"
#include "net/webhook_receiver.h"
#include "report/results.h"
#include "targets/org_session.h"

namespace runner {

struct StepContext {
  OrgSession& org;
  WebhookReceiver& hooks;
  std::string hook_slot;
  const contracts::Checker* checker = nullptr;  // null: contract checks off
  Variables& vars;
  const Builtins& builtins;

  Interpolator interp() const { return Interpolator(vars, builtins); }
};

// Runs one step; never throws (errors become failures of the step).
StepResult run_step(const Step& step, size_t index, StepContext& ctx);

void run_request_step(const RequestStep& step, StepContext& ctx, StepResult& out);
void run_poll_step(const PollStep& step, StepContext& ctx, StepResult& out);
void run_await_webhook_step(const AwaitWebhookStep& step, StepContext& ctx, StepResult& out);
void run_psp_step(const PspStep& step, StepContext& ctx, StepResult& out);
void run_clock_step(const ClockStep& step, StepContext& ctx, StepResult& out);
void run_query_step(const QueryStep& step, StepContext& ctx, StepResult& out);
void run_bulk_step(const BulkStep& step, StepContext& ctx, StepResult& out);

}  // namespace runner
