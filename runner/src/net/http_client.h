#pragma once
// Sends HttpRequests over httplib, HTTP or HTTPS. HTTPS verifies the server
// against the system CA store, or only against `ca_file` when one is given.
// Connections are kept alive per origin, but not past kKeepAliveIdleLimit,
// and a reused connection the server closed meanwhile is retried once on a
// fresh one (the rule is at HttpClient::send).
// Not thread-safe: one client per scenario (or per proxy, under its lock).
#include <chrono>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

#include "net/http_types.h"

namespace httplib {
class Client;
}

namespace runner {

struct TlsOptions {
  std::string ca_file;  // empty: the system CA store
};

// Transport failure: no HTTP response at all (refused, TLS, timeout).
class HttpError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Servers close idle keep-alive connections: httplib's (fake-org) after 5 s,
// others sooner. A request written to a connection the server is closing is
// lost with a Read or Write error, so a connection idle longer than this is
// not reused. 2 s stays well under the shortest timeouts seen in practice
// while keeping back-to-back scenario steps on one connection.
inline constexpr std::chrono::milliseconds kKeepAliveIdleLimit{2000};

class HttpClient {
 public:
  explicit HttpClient(TlsOptions tls = {},
                      std::chrono::milliseconds idle_limit = kKeepAliveIdleLimit);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Throws HttpError when there is no response.
  HttpResponse send(const HttpRequest& request,
                    std::chrono::milliseconds timeout = std::chrono::seconds(30));

 private:
  // One origin's kept-alive connection.
  struct Connection {
    std::unique_ptr<httplib::Client> client;
    std::chrono::steady_clock::time_point last_used;
    bool reused = false;  // the next request goes over a connection that answered before
  };
  Connection& connection_for(const std::string& origin);
  TlsOptions tls_;
  std::chrono::milliseconds idle_limit_;
  std::map<std::string, Connection> connections_;
};

}  // namespace runner
