#include "plain_get.h"

#include <string>

#include "util/ascii.h"

namespace httplib::detail {
// Exported by libcpp-httplib 0.11 and used by its own writer, but not
// declared in its header (net/httplib_seam.h lists it).
const char* status_message(int status);
}  // namespace httplib::detail

namespace fake_org::net {

namespace {

// A target httplib would take as sent: from '/', no byte it trims, cuts
// or refuses, at most one '?'. Sets `question` to its '?'.
bool plain_target(std::string_view target, size_t& question) {
  question = std::string_view::npos;
  if (target.empty() || target[0] != '/') return false;
  for (size_t i = 0; i < target.size(); ++i) {
    const char c = target[i];
    if (c == ' ' || c == '\t' || c == '#' || c == '\r' || c == '\n' || c == '\0') return false;
    if (c == '?') {
      if (question != std::string_view::npos) return false;  // httplib answers 400
      question = i;
    }
  }
  return true;
}

bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

// One header line httplib would file as it is; false for one it would
// skip, refuse, decode or act on.
bool plain_header(std::string_view line, httplib::Request& req) {
  if (line.size() + 2 > CPPHTTPLIB_HEADER_MAX_LENGTH) return false;
  const size_t colon = line.find(':');
  if (colon == 0 || colon == std::string_view::npos) return false;
  const std::string_view name = line.substr(0, colon);
  for (const char c : name)
    if (is_blank(c) || c == '\r' || c == '\n' || c == '\0') return false;
  std::string_view value = line.substr(colon + 1);
  while (!value.empty() && is_blank(value.front())) value.remove_prefix(1);
  while (!value.empty() && is_blank(value.back())) value.remove_suffix(1);
  if (value.empty()) return false;  // httplib drops the line
  for (const char c : value)
    if (c == '%' || c == '\r' || c == '\n' || c == '\0') return false;
  for (const char* special :
       {"Range", "Expect", "Accept-Encoding", "Content-Length", "Transfer-Encoding"})
    if (iequals(name, special)) return false;
  req.headers.emplace(std::string(name), std::string(value));
  return true;
}

bool write_all(httplib::Stream& strm, const std::string& data) {
  size_t offset = 0;
  while (offset < data.size()) {
    const ssize_t n = strm.write(data.data() + offset, data.size() - offset);
    if (n < 0) return false;
    offset += static_cast<size_t>(n);
  }
  return true;
}

// httplib's write_response_core for an answer with its body in hand, no
// ranges and no compression (no Accept-Encoding was taken).
bool write_answer(httplib::Stream& strm, const httplib::Request& req, httplib::Response& res,
                  const PlainGetHandlers& h, KeepAlive keep_alive) {
  if (res.status >= 400) h.error(req, res);
  if (!res.body.empty()) res.headers.emplace("Content-Length", std::to_string(res.body.size()));
  const std::string* connection = first_header(req.headers, "Connection");
  if (keep_alive.close_connection || (connection && *connection == "close"))
    res.headers.emplace("Connection", "close");
  else
    res.headers.emplace("Keep-Alive", "timeout=" + std::to_string(keep_alive.timeout_sec) +
                                          ", max=" + std::to_string(keep_alive.max_count));
  if (!first_header(res.headers, "Content-Type") && !res.body.empty())
    res.headers.emplace("Content-Type", "text/plain");
  if (!first_header(res.headers, "Content-Length") && res.body.empty())
    res.headers.emplace("Content-Length", "0");
  h.post_routing(req, res);
  std::string head = "HTTP/1.1 " + std::to_string(res.status) + " " +
                     httplib::detail::status_message(res.status) + "\r\n";
  for (const auto& [name, value] : res.headers) {
    head.append(name.c_str());  // as httplib's "%s": up to a NUL
    head.append(": ");
    head.append(value.c_str());
    head.append("\r\n");
  }
  head.append("\r\n");
  write_all(strm, head);  // httplib ignores this write's result too
  const bool written = res.body.empty() || write_all(strm, res.body);
  h.logger(req, res);
  return written;
}

}  // namespace

bool parse_plain_get(std::string_view head, httplib::Request& req) {
  const size_t line_end = head.find("\r\n");
  if (line_end == std::string_view::npos || line_end + 2 > CPPHTTPLIB_REQUEST_URI_MAX_LENGTH)
    return false;
  const std::string_view line = head.substr(0, line_end);
  constexpr std::string_view kMethod = "GET ", kVersion = " HTTP/1.1";
  if (line.size() <= kMethod.size() + kVersion.size() ||
      line.substr(0, kMethod.size()) != kMethod ||
      line.substr(line.size() - kVersion.size()) != kVersion)
    return false;
  const std::string_view target =
      line.substr(kMethod.size(), line.size() - kMethod.size() - kVersion.size());
  size_t question = 0;
  if (!plain_target(target, question)) return false;
  req.method = "GET";
  req.version = "HTTP/1.1";
  req.target.assign(target);
  const std::string_view path = target.substr(0, question);
  if (path.find('%') == std::string_view::npos) {
    req.path.assign(path);
  } else {
    req.path = httplib::detail::decode_url(std::string(path), false);
    // httplib's GET handler is registered as ".*", which matches no line end.
    if (req.path.find_first_of("\r\n") != std::string::npos) return false;
  }
  if (question != std::string_view::npos && question + 1 < target.size())
    httplib::detail::parse_query_text(std::string(target.substr(question + 1)), req.params);
  size_t at = line_end + 2;
  while (at + 2 < head.size()) {  // the blank line's CRLF ends the head
    const size_t end = head.find("\r\n", at);
    if (!plain_header(head.substr(at, end - at), req)) return false;
    at = end + 2;
  }
  return true;
}

bool serve_plain_get(httplib::Stream& strm, httplib::Request& req, const PlainGetHandlers& h,
                     KeepAlive keep_alive, bool& connection_closed) {
  httplib::Response res;
  res.version = "HTTP/1.1";
  const std::string* connection = first_header(req.headers, "Connection");
  if (connection && *connection == "close") connection_closed = true;
  strm.get_remote_ip_and_port(req.remote_addr, req.remote_port);
  req.headers.emplace("REMOTE_ADDR", req.remote_addr);
  req.headers.emplace("REMOTE_PORT", std::to_string(req.remote_port));
  strm.get_local_ip_and_port(req.local_addr, req.local_port);
  req.headers.emplace("LOCAL_ADDR", req.local_addr);
  req.headers.emplace("LOCAL_PORT", std::to_string(req.local_port));
  // httplib routes a GET to its handler when the pre-routing handler leaves
  // it; an exception goes to the exception handler, and either way the
  // request counts as routed.
  try {
    if (h.pre_routing(req, res) != httplib::Server::HandlerResponse::Handled) h.route(req, res);
  } catch (...) {
    h.exception(req, res, std::current_exception());
  }
  if (res.status == -1) res.status = 200;
  return write_answer(strm, req, res, h, keep_alive);
}

}  // namespace fake_org::net
