// A poll repeats its request until the expectation holds; the halt condition
// ends it early as a failure, so a poll for "Collected" does not wait out its
// timeout once the installment is "Failed".
#include "net/interrupt.h"
#include "steps/expectation.h"
#include "steps/http_exchange.h"

namespace runner {

void run_poll_step(const PollStep& step, StepContext& ctx, StepResult& out) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + step.timeout;
  int attempts = 0;
  while (true) {
    ++attempts;
    SentRequest sent = send_request(step.request, ctx);
    out.exchange = to_exchange(sent);
    const std::string tries = std::to_string(attempts) + " attempt" + (attempts == 1 ? "" : "s");
    out.detail = tries + ", last " + std::to_string(sent.response.status);
    if (step.expect.contract)
      if (auto f = check_contract(ctx.checker, sent.request, sent.response)) {
        out.failures = {std::move(*f)};
        return;
      }
    if (step.halt && check_expectation(*step.halt, ctx.interp(), sent.response, false).empty()) {
      std::string body = sent.response.body.substr(0, 600);
      out.failures = {{"halt", "the halt condition holds after " + tries + ": " + body, {}, ""}};
      return;
    }
    auto failures = check_expectation(step.expect, ctx.interp(), sent.response);
    if (failures.empty()) return;
    if (clock::now() + step.interval > deadline) {
      failures.insert(failures.begin(), {"timeout",
                                         "the expectation did not hold within " +
                                             std::to_string(step.timeout.count()) + " ms (" +
                                             tries + "); the last response:",
                                         {},
                                         ""});
      out.failures = std::move(failures);
      return;
    }
    // Ended early by SIGINT/SIGTERM: the scenario stops after this step.
    if (interrupt::wait(step.interval)) {
      failures.insert(failures.begin(), {"interrupted",
                                         "interrupted by " + interrupt::received_name() +
                                             " while polling (" + tries + "); the last response:",
                                         {},
                                         ""});
      out.failures = std::move(failures);
      return;
    }
  }
}

}  // namespace runner
