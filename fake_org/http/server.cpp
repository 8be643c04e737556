#include "server.h"

#include <httplib.h>

#include <strings.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mutex>

#include "dispatch.h"
#include "events/contract_monitor.h"
#include "fault_injector.h"
#include "net/connection_pool.h"
#include "net/connection_server.h"
#include "net/content_encoding.h"
#include "net/request_framing.h"
#include "net/transport.h"
#include "request_journal.h"
#include "request_log.h"
#include "responses.h"
#include "router.h"
#include "routes.h"
#include "util/ascii.h"
#include "util/listen_backlog.h"
#include "util/redaction.h"
#include "util/text.h"

namespace fake_org::http {

RequestLogContext& request_log_context() {
  thread_local RequestLogContext ctx;
  return ctx;
}

bool parse_log_level(std::string_view s, LogLevel& out) {
  if (s == "quiet")
    out = LogLevel::kQuiet;
  else if (s == "error")
    out = LogLevel::kError;
  else if (s == "info")
    out = LogLevel::kInfo;
  else if (s == "debug")
    out = LogLevel::kDebug;
  else
    return false;
  return true;
}

bool is_loopback(std::string_view addr) {
  return addr.rfind("127.", 0) == 0 || addr == "::1" || addr.rfind("::ffff:127.", 0) == 0;
}

namespace {

// httplib compresses the body (for a client's Accept-Encoding) before the
// post-routing handler runs; the contract is about the JSON, so undo that.
std::string decoded_body(const httplib::Response& res) {
  const std::string encoding = res.get_header_value("Content-Encoding");
  std::unique_ptr<httplib::detail::decompressor> d;
  if (encoding == "gzip" || encoding == "deflate")
    d = std::make_unique<httplib::detail::gzip_decompressor>();
  else if (encoding == "br")
    d = std::make_unique<httplib::detail::brotli_decompressor>();
  else
    return res.body;
  std::string out;
  bool ok = d->is_valid() &&
            d->decompress(res.body.data(), res.body.size(), [&out](const char* data, size_t n) {
              out.append(data, n);
              return true;
            });
  return ok ? out : res.body;
}

// Serialises log lines from worker threads so they never interleave.
std::mutex& log_mutex() {
  static std::mutex mu;
  return mu;
}

}  // namespace

// The query string is left out of the log line: it may carry codes or tokens.
// What the client sent (method, path, bodies) is escaped: httplib decodes
// %0A and %1B in the path, and a raw CR, LF or ESC would end the line, forge
// another or recolour the terminal.
std::string request_log_line(LogLevel level, const httplib::Request& req,
                             const httplib::Response& res, double ms) {
  const auto& ctx = request_log_context();
  std::string line = text::escape_control(req.method) + " " + text::escape_control(ctx.org_prefix) +
                     text::escape_control(req.path) + " " + std::to_string(res.status) + " ";
  char took[32];
  std::snprintf(took, sizeof took, "%.1fms", ms);
  line += took;
  if (!ctx.payment_intent_id.empty()) line += " " + text::escape_control(ctx.payment_intent_id);
  line += "\n";
  if (level == LogLevel::kDebug) {
    line +=
        "  request: " +
        text::escape_control(redact_body(req.get_header_value("Content-Type"), req.body)) +
        "\n  response: " +
        text::escape_control(redact_body(res.get_header_value("Content-Type"), decoded_body(res))) +
        "\n";
  }
  return line;
}

namespace {

void log_request(LogLevel level, const httplib::Request& req, const httplib::Response& res) {
  if (level == LogLevel::kQuiet) return;
  if (level == LogLevel::kError && res.status < 500) return;
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                        request_log_context().start)
                  .count();
  const std::string line = request_log_line(level, req, res, ms);
  std::lock_guard lock(log_mutex());
  std::fwrite(line.data(), 1, line.size(), stderr);
}

// HTTP/1.1 (RFC 9112 section 6.3): a request with neither Content-Length nor
// Transfer-Encoding has an empty body. cpp-httplib 0.11 instead reads a POST,
// PUT or PATCH body until the connection closes, so `curl -X POST URL` waited
// out the 5 s read timeout and got a 400 from httplib. The pre-routing handler
// runs before httplib reads the body, and the Request it is given is the
// non-const local of httplib's process_request, so declaring the length here
// makes httplib read nothing and route the request at once; the handlers then
// see an empty body and say that it is missing.
void declare_empty_body_if_unframed(const httplib::Request& req) {
  if (req.method != "POST" && req.method != "PUT" && req.method != "PATCH") return;
  if (first_header(req.headers, "Content-Length") || first_header(req.headers, "Transfer-Encoding"))
    return;
  const_cast<httplib::Request&>(req).headers.emplace("Content-Length", "0");
}

bool is_admin_path(const std::string& path) {
  return path.rfind("/__admin", 0) == 0;
}

// REMOTE_ADDR, REMOTE_PORT, LOCAL_ADDR or LOCAL_PORT: by length and first
// letter before any comparison, since every header of every request asks.
bool is_address_header(const std::string& name) {
  if (name.size() == 11 && name[0] == 'R') return name == "REMOTE_ADDR" || name == "REMOTE_PORT";
  if (name.size() == 10 && name[0] == 'L') return name == "LOCAL_ADDR" || name == "LOCAL_PORT";
  return false;
}

// The journal entry of a request, copied into a reused slot with assign()
// (no allocation once the slot has held a request as long); no parsing here:
// bodies are redacted when an admin reads the journal.
void record_in_journal(RequestJournal& journal, const httplib::Request& req,
                       const httplib::Response& res, Org& org) {
  auto& ctx = request_log_context();
  if (!ctx.routed) {
    // httplib answered before routing (a 413 for a too-long Content-Length):
    // the pre-routing handler never ran, so the context is a previous request's.
    ctx.start = std::chrono::steady_clock::now();
    ctx.received_wall = std::chrono::system_clock::now();
    ctx.received_at = org.clock().now();
    ctx.payment_intent_id.clear();
    ctx.injected_fault = false;
  }
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - ctx.start)
          .count();
  size_t q = req.target.find('?');
  journal.record_with([&](JournalEntry& e) {
    e.method.assign(req.method);
    e.path.assign(req.path);
    if (q == std::string::npos)
      e.query.clear();
    else
      e.query.assign(req.target, q + 1);
    e.status = res.status;
    e.received_at = ctx.received_at;
    e.received_wall = ctx.received_wall;
    e.duration_ms = ms;
    e.payment_intent.assign(ctx.payment_intent_id);
    e.injected_fault = ctx.injected_fault;
    size_t n = 0, dropped = 0;
    for (const auto& [name, value] : req.headers) {
      // httplib files the connection's addresses among the headers; no client sent them.
      if (is_address_header(name)) continue;
      if (n == kJournalHeaderCount) {
        ++dropped;
        continue;
      }
      if (n == e.headers.size()) e.headers.emplace_back();
      auto& [to_name, to_value] = e.headers[n++];
      // httplib allows 8 KiB header lines: a name is cut too, to keep the bound.
      to_name.assign(name, 0, kJournalHeaderNameLimit);
      redact_header(name, value, to_value);
      if (to_value.size() > kJournalHeaderValueLimit) {
        const size_t size = to_value.size();
        size_t cut = kJournalHeaderValueLimit;
        while (cut > 0 && (static_cast<unsigned char>(to_value[cut]) & 0xC0) == 0x80)
          --cut;  // never inside a UTF-8 sequence: the JSON dump would refuse it
        to_value.resize(cut);
        to_value += "...[truncated, " + std::to_string(size) + " bytes]";
      }
    }
    if (dropped > 0) {
      if (n == e.headers.size()) e.headers.emplace_back();
      e.headers[n].first.assign(kJournalHeadersDropped);
      e.headers[n++].second.assign(std::to_string(dropped));
    }
    e.headers.resize(n);  // shrinking keeps the vector's room
    const std::string* type = first_header(req.headers, "Content-Type");
    if (!type)
      e.content_type.clear();
    else
      e.content_type.assign(*type);
    e.body_bytes = req.body.size();
    if (req.body.size() <= kJournalBodyLimit)
      e.body.assign(req.body);
    else
      e.body.clear();
  });
}

}  // namespace

void install_contract_check(httplib::Server& server, std::shared_ptr<ContractMonitor> monitor) {
  server.set_post_routing_handler(
      [monitor = std::move(monitor)](const httplib::Request& req, httplib::Response& res) {
        if (is_admin_path(req.path)) return;  // the fake's own API has no contract
        monitor->check_response(req.method, req.path, res.status, decoded_body(res));
      });
}

Server::Server(OrgServices services, ServerOptions options)
    : services_(std::move(services)),
      options_(std::move(options)),
      admin_policy_(
          AdminPolicy::make(options_.admin_open, options_.host, options_.admin_allow_hosts)),
      tls_(!options_.tls_cert_file.empty() || !options_.tls_key_file.empty()) {}

Server::~Server() {
  stop();
}

std::string Server::url() const {
  std::string host = options_.host == "0.0.0.0" ? "127.0.0.1" : options_.host;
  return std::string(tls_ ? "https://" : "http://") + host + ":" + std::to_string(port_);
}

namespace {

// TCP, worker pool, keep-alive and body size.
void configure_connections(net::ConnectionServer& s, const ServerOptions& options,
                           size_t max_body_bytes) {
  s.set_tcp_nodelay(true);  // without it every small response waits ~40 ms for Nagle
  // httplib's default also sets SO_REUSEPORT, with which a second fake-org on
  // a busy port binds too and the kernel shares connections between two orgs
  // at random. SO_REUSEADDR alone still allows a quick restart on the port.
  s.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, reinterpret_cast<const void*>(&yes), sizeof(yes));
  });
  // At least 2 whatever the caller asked (main refuses 1 with a message): a
  // PSP page's worker waits for the PSP's callback to this server (psp_routes).
  net::ConnectionPoolLimits limits;
  limits.ready = static_cast<size_t>(
      options.threads > 0
          ? std::max(2, options.threads)
          : std::max(32, static_cast<int>(std::thread::hardware_concurrency()) * 8));
  limits.ceiling =
      std::max(limits.ready, static_cast<size_t>(std::max(2, options.max_connections)));
  s.set_workers(limits);  // the pool, and the keep-alive watch beside it
  s.set_head_limits(options.head_timeout_ms,
                    static_cast<size_t>(std::max(1, options.max_slow_heads)));
  // A connection ends after 1000 requests (nginx's keepalive_requests), an
  // idle one after 5 s (httplib's keep-alive timeout), a silent one after
  // 5 s without a byte (its read timeout).
  s.set_keep_alive_max_count(1000);
  s.set_keep_alive_timeout(options.keep_alive_seconds);
  s.set_read_timeout(kReadTimeoutSeconds, 0);
  s.set_payload_max_length(max_body_bytes);
}

// The per-request log context (pre-routing) and the log line (the logger);
// a request without a body is served from the pre-routing handler too.
void install_request_log(httplib::Server& s, OrgSites& sites, LogLevel level,
                         net::PlainHandlers& plain) {
  plain.pre_routing = [&sites](const httplib::Request& req, httplib::Response& res) {
    auto& ctx = request_log_context();
    ctx.start = std::chrono::steady_clock::now();
    ctx.received_wall = std::chrono::system_clock::now();
    // First: an absolute-form target becomes the path the org is routed by.
    auto problem = net::take_head_problem(req);
    ctx.head_problem = problem ? std::move(problem->message) : std::string();
    route_to_site(sites, req, ctx);
    ctx.received_at = (ctx.site ? *ctx.site : *sites.root()).services.org->clock().now();
    ctx.payment_intent_id.clear();
    ctx.injected_fault = false;
    ctx.routed = true;
    declare_empty_body_if_unframed(req);
    ctx.content_encoding = net::take_content_encoding(req);
    return serve_if_bodiless(sites, req, res) ? httplib::Server::HandlerResponse::Handled
                                              : httplib::Server::HandlerResponse::Unhandled;
  };
  s.set_pre_routing_handler(plain.pre_routing);
  plain.logger = [level](const httplib::Request& req, const httplib::Response& res) {
    log_request(level, req, res);
    auto& ctx = request_log_context();
    ctx.routed = false;  // the logger is the last to read it
    ctx.site.reset();    // a deleted org goes with its last request
    ctx.fallback_site.reset();
    ctx.org_prefix.clear();
    ctx.admin_token = {};
  };
  s.set_logger(plain.logger);
}

// Runs once the answer is final (after the error handler) and before httplib
// writes it, so a client that reads the journal after its answer finds its
// request there (the logger runs only after the write).
void install_journal_and_contract_check(httplib::Server& s, const OrgSites& sites,
                                        net::PlainHandlers& plain) {
  plain.post_routing = [&sites](const httplib::Request& req, httplib::Response& res) {
    // httplib adds Accept-Ranges to a HEAD answer only: a HEAD has its GET's
    // headers (decision 138).
    if (req.method == "HEAD") res.headers.erase("Accept-Ranges");
    if (is_admin_path(req.path)) return;  // neither journaled nor under a contract
    if (!request_log_context().unknown_org.empty()) return;  // no org's: /orgs/{unknown}
    const OrgSite& site = current_site(sites);
    Org& org = *site.services.org;
    RequestJournal* journal = site.journal.get();
    ContractMonitor* monitor = site.services.monitor.get();
    if (journal->covers(req.path)) record_in_journal(*journal, req, res, org);
    // An injected fault is the admin's answer, not the org's: no contract for it.
    if (monitor && !request_log_context().injected_fault)
      monitor->check_response(req.method, req.path, res.status, decoded_body(res));
  };
  s.set_post_routing_handler(plain.post_routing);
}

// Whatever no route took: a JSON answer, never an empty or HTML one. A 400
// from httplib itself (a body it could not read) on the API is the spec's
// Errors body, like any other unreadable body there.
httplib::Server::HandlerResponse answer_httplib_error(const OrgSite& site,
                                                      const httplib::Request& req,
                                                      httplib::Response& res) {
  if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
  Org& org = *site.services.org;
  const std::string base = org.config().base_path();
  if (res.status == 413 &&
      send_oauth_body_too_large(*site.router, req, res, org.config().org.max_body_bytes))
    return httplib::Server::HandlerResponse::Handled;
  if (res.status == 400 && path_under(req.path, base))
    send_errors(res, org.config(),
                {make_error(error_code::kMissingCoreParameter, "",
                            "The request body could not be read: send a Content-Length "
                            "header (or Transfer-Encoding: chunked) and the whole JSON body",
                            ErrorKind::kBadJson)});
  else if (res.status == 413 && path_under(req.path, "/services/data"))
    // The data API's own list: a Bulk API 2.0 upload over the org's limit
    // lands here (the platform takes 150 MB of base64; decision 155).
    send_platform_error(res, 413, "EXCEEDED_MAX_SIZE_REQUEST",
                        "The request body is larger than this org accepts (" +
                            std::to_string(org.config().org.max_body_bytes) +
                            " bytes, fixture org.max_body_bytes): split the CSV into several "
                            "jobs, or raise the limit (the platform takes up to 150 MB of "
                            "base64, about 100 MB of CSV)");
  else if (res.status == 413)
    send_json(res, 413,
              errors_body({make_error(error_code::kUncategorised, "",
                                      "The request body is larger than this org accepts (" +
                                          std::to_string(org.config().org.max_body_bytes) +
                                          " bytes, fixture org.max_body_bytes): send a smaller "
                                          "body")}));
  else if (res.status == 404)
    send_not_found(res, nullptr, req.path);
  else if (res.status == 414)
    send_platform_error(res, 414, "URI_TOO_LONG",
                        "The request target is longer than the 16,384 bytes the platform takes: "
                        "query in smaller parts, or send the data in a POST body");
  else if (res.status == 405)
    send_platform_error(res, 405, "METHOD_NOT_ALLOWED", "HTTP method not allowed");
  else
    send_platform_error(res, res.status, "UNKNOWN_EXCEPTION",
                        "HTTP status " + std::to_string(res.status));
  return httplib::Server::HandlerResponse::Handled;
}

void install_error_handlers(httplib::Server& s, const OrgSites& sites, net::PlainHandlers& plain) {
  plain.error = [&sites](const httplib::Request& req, httplib::Response& res) {
    return answer_httplib_error(current_site(sites), req, res);
  };
  s.set_error_handler(plain.error);
  plain.exception = [&sites](const httplib::Request&, httplib::Response& res,
                             std::exception_ptr ep) {
    Org& org = *current_site(sites).services.org;
    std::string what = "unknown exception";
    try {
      if (ep) std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    send_errors(
        res, org.config(),
        {make_error(error_code::kUncategorised, "", "Internal error in the fake org: " + what)});
  };
  s.set_exception_handler(plain.exception);
}

}  // namespace

void Server::configure() {
  net::ConnectionServer& s = *server_;
  Org& org = *services_.org;
  configure_connections(s, options_, org.config().org.max_body_bytes);
  // Every area of contracts/routes.yaml on one router per org; throws
  // MountError when a row has no handler or a handler no row.
  sites_.set_root(make_org_site(options_.org_name, "", services_, site_options()), site_options());
  const int running = options_.max_running_requests > 0
                          ? options_.max_running_requests
                          : std::max(4, static_cast<int>(std::thread::hardware_concurrency()) * 4);
  gate_ = std::make_unique<util::RequestGate>(static_cast<unsigned>(running));
  sites_.set_request_gate(gate_.get());
  // The same handlers serve a plain request without httplib's parse and writer
  // (decision 208).
  net::PlainHandlers plain;
  install_request_log(s, sites_, options_.log_level, plain);
  install_journal_and_contract_check(s, sites_, plain);
  plain.route = serve_sites(s, sites_);
  install_error_handlers(s, sites_, plain);
  s.serve_plain_requests(std::move(plain));
}

bool Server::start(std::string* error) {
  if (tls_) {
    if (options_.tls_cert_file.empty() || options_.tls_key_file.empty()) {
      if (error) *error = "--tls-cert and --tls-key must be given together";
      return false;
    }
    SSL_CTX* ctx = net::make_tls_context(options_.tls_cert_file, options_.tls_key_file);
    if (!ctx) {
      if (error)
        *error = "cannot load TLS certificate " + options_.tls_cert_file + " / key " +
                 options_.tls_key_file;
      return false;
    }
    server_ = std::make_unique<net::ConnectionServer>(ctx);
  } else {
    server_ = std::make_unique<net::ConnectionServer>();
  }
  try {
    configure();
  } catch (const MountError& e) {
    if (error) *error = e.what();
    return false;
  }
  if (options_.port == 0) {
    port_ = server_->bind_to_any_port(options_.host);
    if (port_ <= 0) {
      if (error) *error = "cannot bind to " + options_.host + " on any port";
      return false;
    }
  } else {
    if (!server_->bind_to_port(options_.host, options_.port)) {
      if (error)
        *error = "cannot bind to " + options_.host + ":" + std::to_string(options_.port) +
                 " (in use? try --port 0)";
      return false;
    }
    port_ = options_.port;
  }
  util::widen_listen_backlog(port_);
  // The socket is bound and listening once bind returns, so clients can
  // connect at once; the thread below only starts accepting.
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  return true;
}

void Server::stop() {
  if (!server_) return;
  // stop() is a no-op until the accept loop runs; a stop right after start
  // must wait for it or the loop would never end.
  for (int i = 0; i < 5000 && thread_.joinable() && !server_->is_running(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  server_->interrupt_connections();
  server_->stop();
  if (thread_.joinable()) thread_.join();
}

}  // namespace fake_org::http
