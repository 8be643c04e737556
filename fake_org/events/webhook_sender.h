#pragma once
// The one outside effect of webhook delivery: an HTTP POST. Behind an
// interface so unit tests and fault injection can replace the network.
#include <string>
#include <utility>
#include <vector>

#include "domain/core/clock.h"

namespace fake_org {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

struct HttpAttemptResult {
  int status = 0;     // the receiver's HTTP status; 0 = no answer (network error, timeout)
  std::string error;  // why there was no answer; empty when status != 0
};

// Implementations are called from several delivery workers at once and must be thread-safe.
class WebhookSender {
 public:
  virtual ~WebhookSender() = default;
  virtual HttpAttemptResult post(const std::string& url, const std::string& body,
                                 const HeaderList& headers, Millis timeout) = 0;
};

// cpp-httplib: one connection per attempt (no keep-alive, so a receiver that
// restarts is reached afresh), TCP_NODELAY, connect/read/write timeouts each
// equal to `timeout`, no redirects followed (a 3xx counts as a failure), and
// https with the system's CA store and host name verification, as a real org.
std::unique_ptr<WebhookSender> make_http_sender();

}  // namespace fake_org
