#include "http/webhook_admin_routes.h"

#include "http/responses.h"

namespace fake_org::http {

namespace {

void send_error(httplib::Response& res, int status, std::string message) {
  send_json(res, status,
            errors_body({make_error(error_code::kInvalidData, "id", std::move(message))}));
}

std::string unknown(const std::string& id) {
  return "No webhook event has id '" + id + "'; GET /__admin/webhooks lists them";
}

void get_webhooks(WebhookEngine& engine, Call& c) {
  std::string intent =
      c.req.has_param("payment_intent") ? c.req.get_param_value("payment_intent") : std::string();
  send_json(c.res, 200, {{"events", engine.log(intent)}});
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

}  // namespace fake_org::http
