#include "net/http_client.h"

#include <httplib.h>

namespace runner {
namespace {

using Clock = std::chrono::steady_clock;

// Whether a failed attempt is sent once more, on a fresh connection.
// Only when it went over a reused connection: a server closing a connection
// that sat idle is the common cause of a failure there, and such a server
// never read the request. A fresh connection's failure is the server's own
// (down, broken), which sending again would not mend.
// - Write: the request did not get out whole, so the server could not act on
//   it, whatever the method.
// - Read or Connection before the response's headers, and fast (under half
//   the timeout): the server hung up instead of answering, as an idle close
//   does. This retries POSTs too. A server that read a POST and then died
//   without a byte of answer would run it twice; that needs a crash in the
//   instant after an idle connection was reused, which the idle limit makes
//   rarer still, and the API's creating POSTs carry an idempotency key. Not
//   retrying would instead fail every request after a server's idle close.
// - Never after a timeout: the server may still be working on the request.
bool retry_on_fresh_connection(httplib::Error error, bool got_headers,
                               std::chrono::milliseconds elapsed,
                               std::chrono::milliseconds timeout) {
  if (error == httplib::Error::Write) return true;
  if (error != httplib::Error::Read && error != httplib::Error::Connection) return false;
  return !got_headers && elapsed * 2 < timeout;
}

}  // namespace

HttpClient::HttpClient(TlsOptions tls, std::chrono::milliseconds idle_limit)
    : tls_(std::move(tls)), idle_limit_(idle_limit) {}
HttpClient::~HttpClient() = default;

HttpClient::Connection& HttpClient::connection_for(const std::string& origin) {
  auto it = connections_.find(origin);
  if (it != connections_.end()) {
    if (Clock::now() - it->second.last_used <= idle_limit_) return it->second;
    connections_.erase(it);  // the server may be closing it right now
  }
  auto c = std::make_unique<httplib::Client>(origin);
  if (!c->is_valid()) throw HttpError("cannot make an HTTP client for " + origin);
  if (origin.rfind("https://", 0) == 0) {
    c->enable_server_certificate_verification(true);
    if (!tls_.ca_file.empty()) c->set_ca_cert_path(tls_.ca_file);
  }
  c->set_keep_alive(true);
  c->set_tcp_nodelay(true);  // without it each small request waits ~40 ms (Nagle + delayed ACK)
  Connection& conn = connections_[origin];
  conn.client = std::move(c);
  return conn;
}

HttpResponse HttpClient::send(const HttpRequest& request, std::chrono::milliseconds timeout) {
  auto parts = split_url(request.url);
  if (!parts) throw HttpError("not an http(s) URL: " + request.url);

  httplib::Request req;
  req.method = request.method;
  req.path = parts->target;
  for (const auto& [k, v] : request.headers) req.headers.emplace(k, v);
  req.body = request.body;
  if (!request.body.empty() && !req.has_header("Content-Type"))
    req.headers.emplace("Content-Type", "application/json");
  bool got_headers = false;
  req.response_handler = [&got_headers](const httplib::Response&) {
    got_headers = true;
    return true;
  };

  for (int attempt = 1;; ++attempt) {
    Connection& conn = connection_for(parts->origin);
    httplib::Client& c = *conn.client;
    c.set_connection_timeout(timeout);
    c.set_read_timeout(timeout);
    c.set_write_timeout(timeout);
    got_headers = false;
    const auto start = Clock::now();
    httplib::Result res = c.send(req);
    const auto end = Clock::now();
    if (res) {
      conn.last_used = end;
      // After "Connection: close" httplib connects afresh for the next request.
      conn.reused = !iequals(res->get_header_value("Connection"), "close");
      HttpResponse out;
      out.status = res->status;
      for (const auto& [k, v] : res->headers) out.headers.emplace_back(k, v);
      out.body = res->body;
      out.elapsed_ms = std::chrono::duration<double, std::milli>(end - start).count();
      return out;
    }
    const bool reused = conn.reused;
    // A failed connection leaves the client unusable for keep-alive; start afresh.
    connections_.erase(parts->origin);
    if (attempt == 1 && reused &&
        retry_on_fresh_connection(
            res.error(), got_headers,
            std::chrono::duration_cast<std::chrono::milliseconds>(end - start), timeout))
      continue;
    std::string why = httplib::to_string(res.error());
    if (res.error() == httplib::Error::SSLServerVerification)
      why += " (the server's certificate is not trusted; pass --ca-file for a private CA)";
    throw HttpError(request.method + " " + request.url + ": " + why);
  }
}

}  // namespace runner
