#pragma once
// Signing of webhook deliveries (the spec leaves it open, 6.3). When the
// fixture sets webhooks.signing_secret, every delivery carries
//
//   X-Webhook-Timestamp: <unix seconds, wall clock>
//   X-Webhook-Signature: v1=<lower-case hex HMAC-SHA256(secret, timestamp + "." + body)>
//
// over the exact body bytes sent. The timestamp is wall-clock time, not org
// time: it guards the transport against replays, and receivers compare it with
// their own clock. "v1=" names the scheme so a later one can be added beside it.
//
// Verifying with a shell (TS, SIG and SECRET from the request, body.json the raw body):
//
//   mac=$( { printf '%s.' "$TS"; cat body.json; } | openssl dgst -sha256 -hmac "$SECRET")
//   expected="v1=${mac##*= }"
//   [ "$expected" = "$SIG" ] && echo valid || echo INVALID
//
// Verifying in Python (body: the raw request bytes, before any JSON parsing):
//
//   import hashlib, hmac, time
//   def verify(secret: str, timestamp: str, body: bytes, signature: str) -> bool:
//       mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
//       fresh = abs(time.time() - int(timestamp)) < 300
//       return fresh and hmac.compare_digest("v1=" + mac.hexdigest(), signature)
#include <string>
#include <string_view>

#include "events/webhook_sender.h"

namespace fake_org {

// "v1=" + hex HMAC-SHA256(secret, timestamp + "." + body).
std::string webhook_signature(std::string_view secret, std::string_view timestamp,
                              std::string_view body);

struct WebhookAttemptInfo {
  std::string event_id;
  int attempt = 1;           // 1-based, within the current delivery series
  int64_t unix_seconds = 0;  // for X-Webhook-Timestamp
};

// Content-Type, User-Agent, X-Webhook-Id, X-Webhook-Attempt and, with a
// non-empty secret, X-Webhook-Timestamp and X-Webhook-Signature.
HeaderList webhook_headers(const WebhookAttemptInfo& info, const std::string& body,
                           const std::string& secret);

}  // namespace fake_org
