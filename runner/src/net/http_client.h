#pragma once
// Sends HttpRequests over httplib, HTTP or HTTPS. HTTPS verifies the server
// against the system CA store, or only against `ca_file` when one is given.
// Not thread-safe: one client per scenario (connections are kept per origin).
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

class HttpClient {
 public:
  explicit HttpClient(TlsOptions tls = {});
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Throws HttpError when there is no response.
  HttpResponse send(const HttpRequest& request,
                    std::chrono::milliseconds timeout = std::chrono::seconds(30));

 private:
  httplib::Client& client_for(const std::string& origin);
  TlsOptions tls_;
  std::map<std::string, std::unique_ptr<httplib::Client>> clients_;
};

}  // namespace runner
