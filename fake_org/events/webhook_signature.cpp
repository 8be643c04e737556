#include "events/webhook_signature.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <stdexcept>

namespace fake_org {

std::string webhook_signature(std::string_view secret, std::string_view timestamp,
                              std::string_view body) {
  std::string message;
  message.reserve(timestamp.size() + 1 + body.size());
  message.append(timestamp).append(".").append(body);
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int mac_len = 0;
  if (!HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
            reinterpret_cast<const unsigned char*>(message.data()), message.size(), mac, &mac_len))
    throw std::runtime_error("HMAC-SHA256 failed");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "v1=";
  for (unsigned int i = 0; i < mac_len; ++i) {
    out += kHex[mac[i] >> 4];
    out += kHex[mac[i] & 0xf];
  }
  return out;
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
