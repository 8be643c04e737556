#include "steps/captures.h"
#include "steps/expectation.h"
#include "steps/http_exchange.h"

namespace runner {

void run_request_step(const RequestStep& step, StepContext& ctx, StepResult& out) {
  SentRequest sent = send_request(step.request, ctx);
  out.exchange = to_exchange(sent);
  out.detail = std::to_string(sent.response.status) + " in " +
               std::to_string(static_cast<long>(sent.response.elapsed_ms)) + " ms" +
               (sent.refreshed ? " (after a token refresh)" : "");
  out.failures = check_expectation(step.expect, ctx.interp(), sent.response);
  if (step.expect.contract)
    if (auto f = check_contract(ctx.checker, sent.request, sent.response))
      out.failures.push_back(std::move(*f));
}

}  // namespace runner
