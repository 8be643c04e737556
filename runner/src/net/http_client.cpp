#include "net/http_client.h"

#include <httplib.h>

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

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

// "3 s", "2.5 s", "250 ms".
std::string duration_words(std::chrono::milliseconds d) {
  if (d.count() < 1000) return std::to_string(d.count()) + " ms";
  if (d.count() % 1000 == 0) return std::to_string(d.count() / 1000) + " s";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", static_cast<double>(d.count()) / 1000.0);
  return buf;
}

// A plain-HTTP server behind an https:// URL fails the TLS handshake: asked
// once over http:// with a short timeout, it answers, and that is the cause.
bool speaks_plain_http(const std::string& origin) {
  httplib::Client plain("http://" + origin.substr(std::string("https://").size()));
  plain.set_connection_timeout(std::chrono::seconds(2));
  plain.set_read_timeout(std::chrono::seconds(2));
  return static_cast<bool>(plain.Head("/"));
}

// Why a connection fails, asked once more with a plain blocking connect():
// httplib says only "Connection". The errno, EAI_NONAME-like -1 for a host
// name that does not resolve, 0 when it connects now.
int connect_failure_errno(const std::string& host_port) {
  const size_t colon = host_port.rfind(':');
  std::string host = host_port.substr(0, colon);
  const std::string port = colon == std::string::npos ? "80" : host_port.substr(colon + 1);
  if (host.size() > 1 && host.front() == '[') host = host.substr(1, host.size() - 2);
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0 || !found) return -1;
  const int fd = socket(found->ai_family, found->ai_socktype, found->ai_protocol);
  int err = errno;
  if (fd >= 0) {
    timeval two_seconds{2, 0};
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &two_seconds, sizeof two_seconds);
    err = connect(fd, found->ai_addr, found->ai_addrlen) == 0 ? 0 : errno;
    close(fd);
  }
  freeaddrinfo(found);
  return err;
}

// What went wrong, in words with its figures: the host and port, the timeout.
std::string transport_error_words(httplib::Error error, const UrlParts& url, bool got_headers,
                                  std::chrono::milliseconds elapsed,
                                  std::chrono::milliseconds timeout) {
  const std::string host = url.origin.substr(url.origin.find("://") + 3);
  switch (error) {
    case httplib::Error::Connection: {
      if (elapsed * 10 >= timeout * 9)
        return "no connection to " + host + " within " + duration_words(timeout) +
               " (connect timeout)";
      const int connect_errno = connect_failure_errno(host);
      if (connect_errno == -1) return "cannot connect to " + host + ": unknown host name";
      if (connect_errno == ECONNREFUSED)
        return "connection refused to " + host + " (nothing listens there)";
      if (connect_errno == EHOSTUNREACH || connect_errno == ENETUNREACH)
        return "no route to " + host + " (host or network unreachable)";
      return "cannot connect to " + host + " (" + std::strerror(connect_errno) + ")";
    }
    case httplib::Error::ConnectionTimeout:
      return "no connection to " + host + " within " + duration_words(timeout) +
             " (connect timeout)";
    case httplib::Error::Read:
      if (!got_headers && elapsed * 10 >= timeout * 9)
        return "no answer from " + host + " within " + duration_words(timeout) + " (read timeout)";
      return std::string("the connection to ") + host + " closed before " +
             (got_headers ? "the whole answer" : "any answer") + " arrived (after " +
             duration_words(elapsed) + ")";
    case httplib::Error::Write:
      return "the request could not be sent whole to " + host + " (write failed after " +
             duration_words(elapsed) + ")";
    case httplib::Error::SSLConnection:
      if (url.origin.rfind("https://", 0) == 0 && speaks_plain_http(url.origin))
        return "TLS handshake with " + host +
               " failed: the server speaks plain HTTP (use http:// in the URL)";
      return "TLS handshake with " + host + " failed (the server's TLS setup refused ours)";
    case httplib::Error::SSLServerVerification:
      return "certificate of " + host +
             " not trusted: pass --ca-file with the CA that signed it (a private or "
             "self-signed CA)";
    case httplib::Error::SSLLoadingCerts:
      return "cannot load the CA certificates (--ca-file) to check " + host;
    default:
      return httplib::to_string(error) + " (" + host + ")";
  }
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
    c.set_url_encode(!request.verbatim_target);
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
    throw HttpError(
        request.method + " " + request.url + ": " +
        transport_error_words(res.error(), *parts, got_headers,
                              std::chrono::duration_cast<std::chrono::milliseconds>(end - start),
                              timeout));
  }
}

}  // namespace runner
