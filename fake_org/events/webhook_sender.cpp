#include "events/webhook_sender.h"

#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <memory>

#include "events/remote_sites.h"

namespace fake_org {

namespace {

// `elapsed`: how long the attempt took. httplib reports a receiver that
// closes without answering and one that never answers alike (Error::Read);
// the time tells them apart.
std::string describe(httplib::Error error, Millis timeout, Millis elapsed) {
  switch (error) {
    case httplib::Error::Connection:
      return "could not connect";
    case httplib::Error::ConnectionTimeout:
      return "connection timed out after " + std::to_string(timeout.count()) + " ms";
    case httplib::Error::Read:
      if (elapsed * 10 < timeout * 9)
        return "the receiver closed the connection without a complete answer after " +
               std::to_string(elapsed.count()) + " ms";
      return "no answer within " + std::to_string(timeout.count()) + " ms";
    case httplib::Error::Write:
      return "the receiver closed the connection before the request was sent whole, after " +
             std::to_string(elapsed.count()) + " ms";
    case httplib::Error::SSLConnection:
      return "TLS handshake failed";
    case httplib::Error::SSLServerVerification:
      return "the receiver's TLS certificate did not verify";
    default:
      return "request failed: " + httplib::to_string(error);
  }
}

bool equals_ignoring_case(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

class HttplibSender final : public WebhookSender {
 public:
  HttpAttemptResult post(const std::string& url, const std::string& body, const HeaderList& headers,
                         Millis timeout) override {
    std::string why;
    auto target = parse_http_url(url, &why);
    if (!target) return {0, why};
    // httplib wants an IPv6 literal without its brackets.
    std::string host = target->host;
    if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);

    std::unique_ptr<httplib::ClientImpl> client;
    if (target->scheme == "https")
      client = std::make_unique<httplib::SSLClient>(host, target->port);
    else
      client = std::make_unique<httplib::ClientImpl>(host, target->port);
    auto secs = static_cast<time_t>(timeout.count() / 1000);
    auto usecs = static_cast<time_t>((timeout.count() % 1000) * 1000);
    client->set_connection_timeout(secs, usecs);
    client->set_read_timeout(secs, usecs);
    client->set_write_timeout(secs, usecs);
    client->set_tcp_nodelay(true);
    client->set_keep_alive(false);
    client->set_follow_location(false);

    httplib::Headers h;
    std::string content_type = "application/json";
    for (const auto& [name, value] : headers) {
      // httplib adds Content-Type from its own argument; passing it twice would duplicate it.
      if (equals_ignoring_case(name, "Content-Type"))
        content_type = value;
      else
        h.emplace(name, value);
    }
    const auto start = std::chrono::steady_clock::now();
    auto res = client->Post(target->target().c_str(), h, body, content_type.c_str());
    const auto elapsed =
        std::chrono::duration_cast<Millis>(std::chrono::steady_clock::now() - start);
    if (!res) return {0, describe(res.error(), timeout, elapsed)};
    return {res->status, ""};
  }
};

}  // namespace

std::unique_ptr<WebhookSender> make_http_sender() {
  return std::make_unique<HttplibSender>();
}

}  // namespace fake_org
