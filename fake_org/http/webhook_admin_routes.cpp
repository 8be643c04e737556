#include "http/webhook_admin_routes.h"

#include "http/responses.h"
#include "http/routes.h"

namespace fake_org::http {

namespace {

constexpr size_t kDefaultWebhookPage = 100;
constexpr size_t kMaxWebhookPage = 1000;

void send_error(httplib::Response& res, int status, std::string message) {
  send_json(res, status,
            errors_body({make_error(error_code::kInvalidData, "id", std::move(message))}));
}

std::string unknown(const std::string& id) {
  return "No webhook event has id '" + id + "'; GET /__admin/webhooks lists them";
}

// A page of the log (decision 95): ?offset=0&limit=100 by default, at most
// kMaxWebhookPage events an answer, with the total to page on.
void get_webhooks(WebhookEngine& engine, Call& c) {
  std::string intent =
      c.req.has_param("payment_intent") ? c.req.get_param_value("payment_intent") : std::string();
  size_t page[2] = {0, kDefaultWebhookPage};
  const char* names[2] = {"offset", "limit"};
  for (int i = 0; i < 2; ++i) {
    if (!c.req.has_param(names[i])) continue;
    const std::string v = c.req.get_param_value(names[i]);
    if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos ||
        (i == 1 && (std::stoul(v) == 0 || std::stoul(v) > kMaxWebhookPage)))
      return send_json(
          c.res, 400,
          errors_body({make_error(error_code::kMissingCoreParameter, names[i],
                                  std::string("'") + names[i] + "' must be a whole number" +
                                      (i == 1 ? " from 1 to 1000" : "") + "; got '" + v + "'")}));
    page[i] = std::stoul(v);
  }
  WebhookEngine::LogPage p = engine.log_page(intent, page[0], page[1]);
  send_json(c.res, 200,
            {{"events", std::move(p.events)},
             {"total", p.total},
             {"offset", page[0]},
             {"limit", page[1]}});
}

void get_webhook(WebhookEngine& engine, Call& c) {
  const std::string& id = c.params["id"];
  auto event = engine.event(id);
  if (!event) return send_error(c.res, 404, unknown(id));
  send_json(c.res, 200, *event);
}

void resend_webhook(WebhookEngine& engine, Call& c) {
  const std::string& id = c.params["id"];
  switch (engine.resend(id)) {
    case ResendOutcome::kUnknown:
      return send_error(c.res, 404, unknown(id));
    case ResendOutcome::kInProgress:
      return send_error(
          c.res, 409,
          "Webhook event " + id + " is still pending; resend it once it is delivered or failed");
    case ResendOutcome::kBlocked:
      return send_error(c.res, 409,
                        "Webhook event " + id +
                            " was blocked: its URL is not a permitted remote site, so "
                            "sending it again would be blocked too");
    case ResendOutcome::kQueueFull:
      return send_error(c.res, 409,
                        "Webhook event " + id +
                            " was not queued again: the queue is full (webhooks.max_pending "
                            "deliveries pending); resend it once some have finished");
    case ResendOutcome::kQueued:
      break;
  }
  auto event = engine.event(id);
  if (!event) return send_error(c.res, 404, unknown(id));  // reset in between
  send_json(c.res, 202, *event);
}

}  // namespace

void add_webhook_admin_handlers(Handlers& handlers, WebhookEngine& engine) {
  handlers.on("getAdminWebhooks", [&engine](Call& c) { get_webhooks(engine, c); });
  handlers.on("getAdminWebhook", [&engine](Call& c) { get_webhook(engine, c); });
  handlers.on("postAdminWebhookResend", [&engine](Call& c) { resend_webhook(engine, c); });
}

FAKE_ORG_HANDLERS(webhook_admin) {
  add_webhook_admin_handlers(handlers, *context.services.webhooks);
}

}  // namespace fake_org::http
