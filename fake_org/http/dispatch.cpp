#include "dispatch.h"

#include "admin_guard.h"

#include "net/content_encoding.h"
#include "oauth_routes.h"
#include "request_log.h"
#include "responses.h"
#include "server.h"
#include "util/ascii.h"
#include "util/memory_cap.h"

namespace fake_org::http {

namespace {

// An injected fault stands for the platform failing before Apex runs (and
// may itself be a 401), so it comes before the token and nothing runs after
// it; the platform answers 401 before it looks at the path.
bool pass_bearer(const Guards& g, std::string_view relative, const httplib::Request& req,
                 httplib::Response& res, std::string& client_id) {
  if (auto fault = g.faults->take(req.method, relative)) {
    request_log_context().injected_fault = true;
    send_json(res, fault->status, fault->body);
    return false;
  }
  auto token = authenticate_request(req, *g.tokens);
  if (!token) {
    res.status = 401;
    res.set_content(kInvalidSessionBody, kJson);
    return false;
  }
  client_id = token->client_id;
  return true;
}

// The admin API's and the dashboard's guard (admin_guard.h). Every admin
// answer, a refusal too, tells the browser not to sniff its type and not to
// pass the URL on as a Referer.
bool pass_admin(const Guards& g, const httplib::Request& req, httplib::Response& res) {
  static const std::shared_ptr<const AdminPolicy> fallback = AdminPolicy::make(false, "", {});
  const AdminPolicy& policy = g.admin ? *g.admin : *fallback;
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("Referrer-Policy", "no-referrer");
  if (auto refusal = admin_refusal(policy, req)) {
    send_platform_error(res, refusal->status, refusal->code, refusal->message);
    return false;
  }
  request_log_context().admin_token = policy.token;
  return true;
}

// False when the guard answered.
bool pass_guard(const Guards& g, const Router::Match& m, const httplib::Request& req,
                httplib::Response& res, std::string& client_id) {
  switch (m.area->guard) {
    case contracts::AuthKind::kBearer:
      return pass_bearer(g, m.path, req, res, client_id);
    case contracts::AuthKind::kLoopback:
      return pass_admin(g, req, res);
    default:
      return true;
  }
}

// A request refused before its handler, in the body its row answers errors
// with (contracts/routes.yaml): the payment API's Errors (010), the OAuth
// endpoints' {error, error_description}, else the platform's list.
std::string refusal_schema(const Router::Match& m) {
  std::string schema;
  if (m.row)
    if (auto it = m.row->responses.find(400); it != m.row->responses.end()) schema = it->second;
  if (schema.empty() && m.area)
    if (auto it = m.area->contract.every_route.find(400); it != m.area->contract.every_route.end())
      schema = it->second;
  return schema;
}

void send_refusal(const Router::Match& m, httplib::Response& res, int status,
                  std::string_view platform_code, const std::string& message) {
  const std::string schema = refusal_schema(m);
  if (schema == "error_400_response" || schema == "error_response") {
    send_json(res, status == 415 ? 400 : status,
              errors_body({make_error(error_code::kMissingCoreParameter, "", message,
                                      ErrorKind::kBadJson)}));
  } else if (schema == "oauth_error_response") {
    send_json(res, 400, {{"error", "invalid_request"}, {"error_description", message}});
  } else {
    send_platform_error(res, status, platform_code, message);
  }
}

// False when the request's framing is refused: what RFC 9112 makes an
// error and httplib lets through (it reads the first Content-Length as a
// number whatever follows it). The body has been read by then, as httplib
// read it, so the connection stays in step.
bool pass_framing(const Router::Match& m, const httplib::Request& req, httplib::Response& res) {
  std::string problem;
  if (req.version == "HTTP/1.1" && !first_header(req.headers, "Host"))
    problem = "An HTTP/1.1 request needs a Host header (RFC 9112, 3.2)";
  const std::string* first_length = nullptr;
  for (const auto& [name, v] : req.headers) {
    if (!problem.empty()) break;
    if (!iequals(name, "Content-Length")) continue;
    if (!first_length) first_length = &v;
    if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
      problem = "Content-Length must be digits only; got '" + v + "'";
    else if (v != *first_length)
      problem = "The request has two different Content-Length headers (" + *first_length + " and " +
                v + "); send one";
  }
  for (const auto& [name, value] : req.headers)
    if (problem.empty() && value.find('\0') != std::string::npos)
      problem = "The header " + name + " holds a NUL byte";
  if (problem.empty()) return true;
  send_refusal(m, res, 400, "INVALID_REQUEST", problem);
  res.set_header("Connection", "close");
  return false;
}

// False when the body could not be decoded and the answer is given.
bool pass_content_encoding(const Guards& g, const Router::Match& m, const httplib::Request& req,
                           httplib::Response& res) {
  const std::string& encoding = request_log_context().content_encoding;
  if (encoding.empty() || req.body.empty()) return true;
  // The worker's own request object: handlers are given a const view of it.
  net::BodyDecoding d =
      net::decode_body(encoding, const_cast<httplib::Request&>(req).body, g.max_body_bytes);
  if (d == net::BodyDecoding::kDone) return true;
  if (d == net::BodyDecoding::kTooLarge) {
    res.status = 413;  // the error handler writes the same answer as for any too large body
    return false;
  }
  if (d == net::BodyDecoding::kUnsupported)
    send_refusal(m, res, 415, "UNSUPPORTED_MEDIA_TYPE",
                 "Content-Encoding '" + encoding +
                     "' is not supported: send the body as is, or with gzip or deflate");
  else
    send_refusal(m, res, 400, "JSON_PARSER_ERROR",
                 "The request body is not valid " + encoding +
                     " data: compress the whole body, or send it without Content-Encoding");
  return false;
}

// OPTIONS (decision 138). A CORS preflight is refused as the platform
// refuses an origin its CORS allowlist lacks, and this org's list is empty:
// the fake serves no browser code of another origin. Any other OPTIONS names
// the path's methods (RFC 9110, 9.3.7). Neither needs a token: a preflight
// carries none, and the platform answers it before it authenticates.
void answer_options(const Router::Match& m, const httplib::Request& req, httplib::Response& res) {
  if (first_header(req.headers, "Origin") &&
      first_header(req.headers, "Access-Control-Request-Method"))
    return send_platform_error(
        res, 403, "FORBIDDEN",
        "Origin " + req.get_header_value("Origin") +
            " is not in this org's CORS allowlist, which is empty: call the API from a "
            "server, or from pages this server serves");
  res.status = 200;
  res.set_header("Allow", m.allowed);
}

// An exact regex for cpp-httplib: literal segments escaped, {Name} one segment.
std::string path_pattern(const std::string& path) {
  const std::vector<std::string_view> segments = contracts::path_segments(path);
  std::string out;
  for (size_t i = 1; i < segments.size(); ++i) {  // [0] is before the leading '/'
    out += '/';
    if (contracts::is_param_segment(segments[i])) {
      out += "[^/]+";
      continue;
    }
    for (char c : segments[i]) {
      if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
      out += c;
    }
  }
  return out;
}

}  // namespace

void dispatch(const Router& router, const Guards& guards, const httplib::Request& req,
              httplib::Response& res) {
  Router::Match m = router.match(req.method, req.path);
  if (const std::string& problem = request_log_context().head_problem; !problem.empty()) {
    // Where this request's body ends is unknown: the connection ends too.
    send_refusal(m, res, 400, "INVALID_REQUEST", problem);
    res.set_header("Connection", "close");
    return;
  }
  if (m.outcome == Router::Outcome::kOptions) return answer_options(m, req, res);
  std::string client_id;
  if (m.area && !pass_guard(guards, m, req, res, client_id)) return;
  if (m.outcome == Router::Outcome::kNotFound) return send_not_found(res, m.area, req.path);
  if (m.outcome == Router::Outcome::kMethodNotAllowed)
    return send_method_not_allowed(res, req.method, m.allowed);
  if (!pass_framing(m, req, res) || !pass_content_encoding(guards, m, req, res)) return;
  // Before the handler takes any org's lock: a write under it reads only
  // the flag this leaves (util/memory_cap.h).
  util::sample_memory();
  Call call{req, res, std::move(m.params), std::move(client_id)};
  (*m.handler)(call);
}

void serve_all(httplib::Server& server, std::shared_ptr<const Router> router, Guards guards) {
  auto handler = [router, guards = std::move(guards)](const httplib::Request& req,
                                                      httplib::Response& res) {
    dispatch(*router, guards, req, res);
  };
  server.Get(".*", handler);
  server.Post(".*", handler);
  server.Put(".*", handler);
  server.Patch(".*", handler);
  server.Delete(".*", handler);
  server.Options(".*", handler);
}

void serve_paths(httplib::Server& server, std::shared_ptr<const Router> router) {
  for (const contracts::RouteArea* area : router->areas()) {
    if (area->guard != contracts::AuthKind::kNone)
      throw MountError("serve_paths: area " + area->name + " has a guard; use serve_all");
  }
  auto handler = [router](const httplib::Request& req, httplib::Response& res) {
    dispatch(*router, Guards{}, req, res);
  };
  for (const std::string& path : router->mounted_paths()) {
    const std::string pattern = path_pattern(path);
    server.Get(pattern, handler);
    server.Post(pattern, handler);
    server.Put(pattern, handler);
    server.Patch(pattern, handler);
    server.Delete(pattern, handler);
    server.Options(pattern, handler);
  }
}

bool send_oauth_body_too_large(const Router& router, const httplib::Request& req,
                               httplib::Response& res, size_t limit) {
  const Router::Match m = router.match(req.method, req.path);
  if (!m.row || refusal_schema(m) != "oauth_error_response") return false;
  send_json(res, 400,
            {{"error", "invalid_request"},
             {"error_description", "The request body is larger than " + req.path + " accepts (" +
                                       std::to_string(limit) +
                                       " bytes, the fixture's org.max_body_bytes): send only "
                                       "the form's fields"}});
  return true;
}

void send_not_found(httplib::Response& res, const contracts::RouteArea* area,
                    const std::string& path) {
  std::string message = area && !area->not_found.empty() ? area->not_found : kNoMatchMessage;
  if (size_t at = message.find("{path}"); at != std::string::npos) message.replace(at, 6, path);
  send_platform_error(res, 404, "NOT_FOUND", message);
}

}  // namespace fake_org::http
