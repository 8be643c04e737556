#include "steps/http_exchange.h"

namespace runner {

void run_clock_step(const ClockStep& step, StepContext& ctx, StepResult& out) {
  Interpolator in = ctx.interp();
  nlohmann::json body = step.advance.empty() ? nlohmann::json{{"set", in.text(step.set)}}
                                             : nlohmann::json{{"advance", in.text(step.advance)}};
  SentRequest sent = ctx.org.admin("POST", "/clock", body);
  out.exchange = to_exchange(sent);
  auto j = sent.response.json();
  out.detail = "org time now " + (j && j->contains("now") ? to_text((*j)["now"]) : "?");
  if (sent.response.status != 200)
    out.failures.push_back({"status",
                            "POST /__admin/clock answered " + std::to_string(sent.response.status) +
                                ": " + sent.response.body.substr(0, 600),
                            {},
                            ""});
}

}  // namespace runner
