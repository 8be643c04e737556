#include "commands/record/proxy.h"

#include "net/listen_in_background.h"

#include <httplib.h>

#include "targets/target.h"

namespace runner::record {
namespace {

// Headers that describe one hop, not the message; httplib also adds the
// peer's address to every request as pseudo-headers.
bool hop_header(const std::string& name) {
  for (const char* h : {"Host", "Content-Length", "Connection", "Keep-Alive", "Transfer-Encoding",
                        "Accept-Encoding", "Content-Encoding", "Upgrade", "Proxy-Authorization",
                        "REMOTE_ADDR", "REMOTE_PORT", "LOCAL_ADDR", "LOCAL_PORT"})
    if (iequals(name, h)) return true;
  return false;
}

}  // namespace

RecordingProxy::RecordingProxy(ProxyOptions options) : options_(std::move(options)) {
  if (!options_.upstream_config.empty()) {
    SandboxUpstream up =
        read_sandbox_upstream(options_.upstream_config, TargetOptions{options_.ca_file});
    upstream_url_ = options_.upstream.empty() ? up.instance_url : options_.upstream;
    api_path_ = up.api_path;
    tokens_ = std::make_shared<TokenProvider>(up.grant, up.tls);
    upstream_ = std::make_unique<HttpClient>(up.tls);
  } else {
    upstream_url_ = options_.upstream;
    upstream_ = std::make_unique<HttpClient>(TlsOptions{options_.ca_file});
  }
  while (!upstream_url_.empty() && upstream_url_.back() == '/') upstream_url_.pop_back();
  auto parts = split_url(upstream_url_);
  if (!parts || parts->target != "/")
    throw TargetError("--upstream must be the org's instance URL, http(s)://host[:port]; got '" +
                      upstream_url_ + "'");
}

RecordingProxy::~RecordingProxy() {
  stop();
}

int RecordingProxy::start() {
  server_ = std::make_unique<httplib::Server>();
  auto handler = [this](const httplib::Request& req, httplib::Response& res) { handle(req, res); };
  server_->Get(".*", handler);
  server_->Post(".*", handler);
  server_->Put(".*", handler);
  server_->Patch(".*", handler);
  server_->Delete(".*", handler);
  server_->Options(".*", handler);
  int port = options_.listen_port == 0
                 ? server_->bind_to_any_port(options_.listen_host)
                 : (server_->bind_to_port(options_.listen_host, options_.listen_port)
                        ? options_.listen_port
                        : -1);
  if (port <= 0)
    throw TargetError("cannot listen on " + options_.listen_host + ":" +
                      std::to_string(options_.listen_port));
  thread_ = listen_in_background(*server_);
  return port;
}

void RecordingProxy::wait() {
  std::unique_lock<std::mutex> lock(mutex_);
  done_cv_.wait(lock, [this] { return done_; });
}

void RecordingProxy::request_stop() {
  std::lock_guard<std::mutex> lock(mutex_);
  done_ = true;
  done_cv_.notify_all();
}

void RecordingProxy::stop() {
  if (server_) server_->stop();
  if (thread_.joinable()) thread_.join();
}

std::vector<RecordedExchange> RecordingProxy::exchanges() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return log_;
}

std::vector<std::string> RecordingProxy::failures() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failed_;
}

void RecordingProxy::handle(const httplib::Request& req, httplib::Response& res) {
  RecordedExchange ex;
  ex.method = req.method;
  ex.target = req.target.empty() ? req.path : req.target;
  ex.request_body = req.body;
  HttpRequest out;
  out.method = req.method;
  out.url = upstream_url_ + ex.target;
  out.verbatim_target = true;  // a `+` re-encoded as %2B is another query
  out.body = req.body;
  for (const auto& [k, v] : req.headers) {
    if (hop_header(k)) continue;
    ex.request_headers.emplace_back(k, v);
    if (iequals(k, "Authorization")) ex.authenticated = true;
    if (tokens_ && iequals(k, "Authorization")) continue;  // the proxy's own token goes instead
    out.headers.emplace_back(k, v);
  }
  const bool oauth = ex.target.rfind("/services/oauth2/", 0) == 0;
  const bool add_token = tokens_ && !oauth;
  if (add_token) ex.authenticated = true;

  std::lock_guard<std::mutex> lock(mutex_);
  HttpResponse up;
  try {
    std::string token;
    if (add_token) {
      token = tokens_->token();
      out.headers.emplace_back("Authorization", "Bearer " + token);
    }
    up = upstream_->send(out);
    if (add_token && up.status == 401) {
      out.headers.back().second = "Bearer " + tokens_->refresh(token);
      up = upstream_->send(out);
    }
  } catch (const std::exception& e) {
    // No answer to record: the client learns why, the recording stays as it
    // was, and whoever records is told the scenario lacks this request.
    failed_.push_back(ex.method + " " + ex.target + ": " + e.what());
    if (options_.on_upstream_failure) options_.on_upstream_failure(failed_.back());
    res.status = 502;
    res.set_content(std::string("recording proxy: the upstream did not answer: ") + e.what() + "\n",
                    "text/plain");
    return;
  }
  res.status = up.status;
  std::string content_type = "application/octet-stream";
  for (const auto& [k, v] : up.headers) {
    if (hop_header(k)) continue;
    if (iequals(k, "Content-Type"))
      content_type = v;
    else
      res.headers.emplace(k, v);
  }
  if (!up.body.empty() || up.header("Content-Type")) res.set_content(up.body, content_type);
  ex.status = up.status;
  ex.response_headers = up.headers;
  ex.response_body = up.body;
  log_.push_back(std::move(ex));
  if (options_.max_requests > 0 && log_.size() >= options_.max_requests) {
    done_ = true;
    done_cv_.notify_all();
  }
}

}  // namespace runner::record
