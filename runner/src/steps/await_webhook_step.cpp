#include "eval/json_diff.h"
#include "net/interrupt.h"
#include "steps/step_context.h"

namespace runner {
namespace {

// "type: T, body: {...}": the type first, since the sorted body puts `data`
// before it and the console cuts long lines (failure_text; --report-json
// keeps them whole).
std::string event_line(const ReceivedWebhook& ev) {
  const std::string body = ev.body.is_null() ? ev.raw : ev.body.dump();
  std::string line = ev.claimed ? "(taken) " : "";
  auto t = ev.body.is_object() ? ev.body.find("type") : ev.body.end();
  if (t != ev.body.end())
    line += "type: " + (t->is_string() ? t->get<std::string>() : t->dump()) + ", ";
  return line + "body: " + body;
}

}  // namespace

void run_await_webhook_step(const AwaitWebhookStep& step, StepContext& ctx, StepResult& out) {
  Interpolator in = ctx.interp();
  const nlohmann::json type = in.value(step.type);
  const nlohmann::json match = in.value(step.match);
  auto accept = [&](const ReceivedWebhook& ev) {
    if (!type.is_null()) {
      auto t = ev.body.is_object() ? ev.body.find("type") : ev.body.end();
      if (t == ev.body.end() || !json_matches(type, *t)) return false;
    }
    return match.is_null() || json_matches(match, ev.body);
  };
  auto got = ctx.hooks.await(ctx.hook_slot, accept, step.timeout);
  if (!got) {
    // Say what did arrive: usually the right type with another body, or nothing.
    auto seen = ctx.hooks.events(ctx.hook_slot);
    std::string msg = "no webhook" + (type.is_null() ? "" : " of type " + describe_expected(type)) +
                      (match.is_null() ? "" : " matching " + describe_expected(match)) +
                      " arrived within " + std::to_string(step.timeout.count()) + " ms at " +
                      ctx.hooks.url_for(ctx.hook_slot);
    msg += "\n" + std::to_string(seen.size()) + " event(s) received for this scenario:";
    const nlohmann::json* closest = nullptr;
    for (const auto& ev : seen) {
      msg += "\n  " + event_line(ev);
      if (!ev.claimed && ev.body.is_object() &&
          (type.is_null() || (ev.body.contains("type") && json_matches(type, ev.body["type"]))))
        closest = &ev.body;
    }
    Failure f{"timeout", msg, {}, ""};
    if (interrupt::received()) {
      f.kind = "interrupted";
      f.message = "interrupted by " + interrupt::received_name() + " while waiting: " + msg;
    }
    if (closest && !match.is_null()) {
      f.mismatches = match_json(match, closest);
      f.diff = json_diff(match, closest);
    }
    out.failures.push_back(std::move(f));
    return;
  }
  out.detail = "received " + got->body.value("type", std::string("(no type)"));
  if (step.contract && ctx.checker) {
    contracts::CheckResult r = ctx.checker->check_webhook(got->body);
    if (!r.ok()) {
      Failure f{"contract",
                "the webhook breaks the contract (schema " + r.schema + "):\n" + r.report(),
                {},
                ""};
      for (const auto& v : r.violations) f.mismatches.push_back({v.pointer, v.expected, v.actual});
      out.failures.push_back(std::move(f));
    }
  }
  out.exchange = Exchange{};
  out.exchange->request.method = "POST";
  out.exchange->request.url = ctx.hooks.url_for(ctx.hook_slot);
  out.exchange->request.headers = got->headers;
  out.exchange->request.body = got->raw;
}

}  // namespace runner
