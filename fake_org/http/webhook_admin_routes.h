#pragma once
// The webhook delivery log on the admin API (mounted under /__admin):
//   GET  /webhooks[?payment_intent=pi_...]  {"events": [...]} oldest first
//   GET  /webhooks/{id}                     one event with its attempts
//   POST /webhooks/{id}/resend              202 and the event, now pending again;
//                                           404 unknown id, 409 pending or blocked
// Errors use the spec's body shape: {"Errors": [{"error_code", "error_message"}]}.
#include "events/webhook_engine.h"
#include "http/router.h"

namespace fake_org::http {

void add_webhook_admin_handlers(Handlers& handlers, WebhookEngine& engine);

}  // namespace fake_org::http
