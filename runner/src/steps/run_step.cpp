#include <chrono>

#include "steps/captures.h"
#include "steps/step_context.h"

namespace runner {
namespace {

void capture(const Step& step, StepContext& ctx, StepResult& out) {
  if (step.captures.empty() || !out.exchange) return;
  nlohmann::json body;
  CaptureSource src;
  if (step.kind == StepKind::kAwaitWebhook) {
    // The event arrived as a request to the receiver.
    body = nlohmann::json::parse(out.exchange->request.body, nullptr, false);
    src.headers = &out.exchange->request.headers;
  } else if (out.exchange->response) {
    auto j = out.exchange->response->json();
    body = j ? *j : nlohmann::json(nlohmann::json::value_t::discarded);
    src.headers = &out.exchange->response->headers;
    src.status = out.exchange->response->status;
  }
  if (!body.is_discarded()) src.body = &body;
  auto failures = apply_captures(step.captures, src, ctx.vars);
  out.failures.insert(out.failures.end(), failures.begin(), failures.end());
}

}  // namespace

StepResult run_step(const Step& step, size_t index, StepContext& ctx) {
  StepResult out;
  out.index = index;
  out.name = step.name;
  out.kind = step.kind;
  out.pos = step.pos;
  const auto start = std::chrono::steady_clock::now();
  try {
    switch (step.kind) {
      case StepKind::kRequest:
        run_request_step(std::get<RequestStep>(step.body), ctx, out);
        break;
      case StepKind::kPoll:
        run_poll_step(std::get<PollStep>(step.body), ctx, out);
        break;
      case StepKind::kAwaitWebhook:
        run_await_webhook_step(std::get<AwaitWebhookStep>(step.body), ctx, out);
        break;
      case StepKind::kPsp:
        run_psp_step(std::get<PspStep>(step.body), ctx, out);
        break;
      case StepKind::kClock:
        run_clock_step(std::get<ClockStep>(step.body), ctx, out);
        break;
      case StepKind::kQuery:
        run_query_step(std::get<QueryStep>(step.body), ctx, out);
        break;
      case StepKind::kBulk:
        run_bulk_step(std::get<BulkStep>(step.body), ctx, out);
        break;
    }
    if (out.failures.empty()) capture(step, ctx, out);
  } catch (const std::exception& e) {
    // Transport errors, missing tokens, undefined variables: the step failed
    // without an answer to compare.
    out.failures.push_back({"error", e.what(), {}, ""});
  }
  out.outcome = out.failures.empty() ? Outcome::kPassed : Outcome::kFailed;
  out.ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace runner
