#include "events/webhook_signature.h"

#include "util/crypto.h"

namespace fake_org {

std::string webhook_signature(std::string_view secret, std::string_view timestamp,
                              std::string_view body) {
  std::string message;
  message.reserve(timestamp.size() + 1 + body.size());
  message.append(timestamp).append(".").append(body);
  return "v1=" + crypto::hex_encode(crypto::hmac_sha256(secret, message));
}

HeaderList webhook_headers(const WebhookAttemptInfo& info, const std::string& body,
                           const std::string& secret) {
  HeaderList h = {{"Content-Type", "application/json"},
                  {"User-Agent", "fake-org-webhooks/1"},
                  {"X-Webhook-Id", info.event_id},
                  {"X-Webhook-Attempt", std::to_string(info.attempt)}};
  if (!secret.empty()) {
    std::string ts = std::to_string(info.unix_seconds);
    h.emplace_back("X-Webhook-Timestamp", ts);
    h.emplace_back("X-Webhook-Signature", webhook_signature(secret, ts, body));
  }
  return h;
}

}  // namespace fake_org
