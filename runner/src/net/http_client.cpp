#include "net/http_client.h"

#include <httplib.h>

namespace runner {

HttpClient::HttpClient(TlsOptions tls) : tls_(std::move(tls)) {}
HttpClient::~HttpClient() = default;

httplib::Client& HttpClient::client_for(const std::string& origin) {
  auto it = clients_.find(origin);
  if (it != clients_.end()) return *it->second;
  auto c = std::make_unique<httplib::Client>(origin);
  if (!c->is_valid()) throw HttpError("cannot make an HTTP client for " + origin);
  if (origin.rfind("https://", 0) == 0) {
    c->enable_server_certificate_verification(true);
    if (!tls_.ca_file.empty()) c->set_ca_cert_path(tls_.ca_file);
  }
  c->set_keep_alive(true);
  c->set_tcp_nodelay(true);  // without it each small request waits ~40 ms (Nagle + delayed ACK)
  return *clients_.emplace(origin, std::move(c)).first->second;
}

HttpResponse HttpClient::send(const HttpRequest& request, std::chrono::milliseconds timeout) {
  auto parts = split_url(request.url);
  if (!parts) throw HttpError("not an http(s) URL: " + request.url);
  httplib::Client& c = client_for(parts->origin);
  c.set_connection_timeout(timeout);
  c.set_read_timeout(timeout);
  c.set_write_timeout(timeout);

  httplib::Request req;
  req.method = request.method;
  req.path = parts->target;
  for (const auto& [k, v] : request.headers) req.headers.emplace(k, v);
  req.body = request.body;
  if (!request.body.empty() && !req.has_header("Content-Type"))
    req.headers.emplace("Content-Type", "application/json");

  auto start = std::chrono::steady_clock::now();
  httplib::Result res = c.send(req);
  auto elapsed =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start);
  if (!res) {
    std::string why = httplib::to_string(res.error());
    if (res.error() == httplib::Error::SSLServerVerification)
      why += " (the server's certificate is not trusted; pass --ca-file for a private CA)";
    // A failed connection leaves the client unusable for keep-alive; start afresh.
    clients_.erase(parts->origin);
    throw HttpError(request.method + " " + request.url + ": " + why);
  }
  HttpResponse out;
  out.status = res->status;
  for (const auto& [k, v] : res->headers) out.headers.emplace_back(k, v);
  out.body = res->body;
  out.elapsed_ms = elapsed.count();
  return out;
}

}  // namespace runner
