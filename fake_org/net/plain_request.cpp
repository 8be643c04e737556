#include "plain_request.h"

#include <algorithm>
#include <string>

#include "query_text.h"
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

bool plain_form(std::string_view type) {
  for (const std::string_view form : {"application/x-www-form-urlencoded", "multipart/form-data"})
    if (type.size() >= form.size() && iequals(type.substr(0, form.size()), form)) return true;
  return false;
}

// One header line httplib would file as it is; false for one it would
// skip, refuse, decode or act on. A request with a body may say its
// Content-Length (once) and a Content-Type that is not a form.
bool plain_header(std::string_view line, httplib::Request& req, bool with_body) {
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
       {"Range", "Expect", "Accept-Encoding", "Transfer-Encoding", "Content-Encoding"})
    if (iequals(name, special)) return false;
  if (iequals(name, "Content-Length")) {
    if (!with_body || first_header(req.headers, "Content-Length") || value.size() > 18 ||
        value.find_first_not_of("0123456789") != std::string_view::npos)
      return false;
  }
  if (with_body && iequals(name, "Content-Type") && plain_form(value)) return false;
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
                  const PlainHandlers& h, KeepAlive keep_alive, bool routed) {
  // httplib sizes the body of a routed answer, or of one its error handler
  // took (write_response_core's need_apply_ranges), not of any other.
  bool sized = routed;
  if (res.status >= 400 && h.error(req, res) == httplib::Server::HandlerResponse::Handled)
    sized = true;
  if (sized && !res.body.empty())
    res.headers.emplace("Content-Length", std::to_string(res.body.size()));
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

// httplib's read_content_with_length into req.body, by the Content-Length
// the head gave (the pre-routing handler leaves it as it was).
bool read_plain_body(httplib::Stream& strm, httplib::Request& req) {
  const std::string* length = first_header(req.headers, "Content-Length");
  const size_t n = length ? static_cast<size_t>(std::stoull(*length)) : 0;
  req.body.resize(n);
  size_t got = 0;
  while (got < n) {
    const ssize_t r = strm.read(&req.body[got], std::min<size_t>(n - got, CPPHTTPLIB_RECV_BUFSIZ));
    if (r <= 0) return false;
    got += static_cast<size_t>(r);
  }
  return true;
}

}  // namespace

bool parse_plain_request(std::string_view head, httplib::Request& req, size_t max_body) {
  const size_t line_end = head.find("\r\n");
  if (line_end == std::string_view::npos || line_end + 2 > CPPHTTPLIB_REQUEST_URI_MAX_LENGTH)
    return false;
  const std::string_view line = head.substr(0, line_end);
  const size_t space = line.find(' ');
  if (space == std::string_view::npos) return false;
  const std::string_view method = line.substr(0, space);
  const bool get = method == "GET";
  if (!get && method != "POST" && method != "PUT" && method != "PATCH" && method != "DELETE")
    return false;
  constexpr std::string_view kVersion = " HTTP/1.1";
  if (line.size() <= space + 1 + kVersion.size() ||
      line.substr(line.size() - kVersion.size()) != kVersion)
    return false;
  const std::string_view target = line.substr(space + 1, line.size() - space - 1 - kVersion.size());
  size_t question = 0;
  if (!plain_target(target, question)) return false;
  req.method.assign(method);
  req.version = "HTTP/1.1";
  req.target.assign(target);
  const std::string_view path = target.substr(0, question);
  if (path.find('%') == std::string_view::npos) {
    req.path.assign(path);
  } else {
    req.path = httplib::detail::decode_url(std::string(path), false);
    // httplib's handlers are registered as ".*", which matches no line end.
    if (req.path.find_first_of("\r\n") != std::string::npos) return false;
  }
  if (question != std::string_view::npos && question + 1 < target.size())
    parse_query_text(target.substr(question + 1), req.params);
  size_t at = line_end + 2;
  while (at + 2 < head.size()) {  // the blank line's CRLF ends the head
    const size_t end = head.find("\r\n", at);
    if (!plain_header(head.substr(at, end - at), req, !get)) return false;
    at = end + 2;
  }
  if (get) return true;
  // Without a length httplib reads a body to the connection's end.
  const std::string* length = first_header(req.headers, "Content-Length");
  return length && std::stoull(*length) <= max_body;
}

bool serve_plain_request(httplib::Stream& strm, httplib::Request& req, const PlainHandlers& h,
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
  // httplib routes a request to its handler when the pre-routing handler
  // leaves it, having read its body first; an exception goes to the
  // exception handler, and then the request counts as routed. A body that
  // cannot be read is a 400 not routed.
  bool routed = true;
  try {
    if (h.pre_routing(req, res) != httplib::Server::HandlerResponse::Handled) {
      routed = req.method == "GET" || read_plain_body(strm, req);
      if (routed)
        h.route(req, res);
      else
        res.status = 400;
    }
  } catch (...) {
    h.exception(req, res, std::current_exception());
    routed = true;
  }
  if (res.status == -1) res.status = routed ? 200 : 404;
  return write_answer(strm, req, res, h, keep_alive, routed);
}

}  // namespace fake_org::net
