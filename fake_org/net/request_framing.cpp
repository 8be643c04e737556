#include "request_framing.h"

#include "util/ascii.h"
#include "util/text.h"

namespace fake_org::net {

namespace {

std::optional<size_t> number(std::string_view s) {
  if (s.empty() || s.size() > 18) return std::nullopt;
  size_t n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<size_t>(c - '0');
  }
  return n;
}

// "http://host:8080/a?b" -> target "/a?b", path without the scheme and
// authority, Host "host:8080" (the request's own Host is replaced, 3.2.2).
void origin_form_of_absolute(httplib::Request& req) {
  const std::string lower = ascii_lower(std::string_view(req.target).substr(0, 8));
  const size_t scheme = lower.rfind("http://", 0) == 0    ? 7
                        : lower.rfind("https://", 0) == 0 ? 8
                                                          : 0;
  if (scheme == 0) return;
  const size_t end = req.target.find_first_of("/?", scheme);
  const std::string authority =
      req.target.substr(scheme, end == std::string::npos ? std::string::npos : end - scheme);
  std::string rest = end == std::string::npos ? "" : req.target.substr(end);
  if (rest.empty() || rest[0] == '?') rest.insert(0, "/");
  const size_t prefix = scheme + authority.size();
  if (req.path.size() >= prefix && iequals(req.path.substr(0, scheme), lower.substr(0, scheme)))
    req.path = req.path.substr(prefix);
  if (req.path.empty() || req.path[0] != '/') req.path.insert(0, "/");
  req.target = rest;
  req.headers.erase("Host");
  if (!authority.empty()) req.headers.emplace("Host", authority);
}

std::optional<HeadProblem> transfer_encoding_problem(const httplib::Request& req) {
  if (!first_header(req.headers, "Transfer-Encoding")) return std::nullopt;  // most requests
  auto range = req.headers.equal_range("Transfer-Encoding");
  std::string codings;
  for (auto it = range.first; it != range.second; ++it)
    codings += (codings.empty() ? "" : ", ") + it->second;
  if (iequals(text::trim(codings), "chunked")) return std::nullopt;
  const std::string quoted = "'" + codings.substr(0, 100) + "'";
  const size_t comma = codings.rfind(',');
  const std::string_view last =
      text::trim(std::string_view(codings).substr(comma == std::string::npos ? 0 : comma + 1));
  if (iequals(last, "chunked"))
    return HeadProblem{400, "Transfer-Encoding " + quoted +
                                " is not supported: send the body chunked only, or with "
                                "Content-Length (Content-Encoding gzip or deflate is taken)"};
  return HeadProblem{400, "Transfer-Encoding " + quoted +
                              " does not end with chunked, so the body's end is unknown (RFC "
                              "9112, 6.3): send Transfer-Encoding: chunked or Content-Length"};
}

}  // namespace

std::optional<HeadProblem> take_head_problem(const httplib::Request& req) {
  auto& request = const_cast<httplib::Request&>(req);
  origin_form_of_absolute(request);
  std::optional<HeadProblem> problem;
  // A plain loop: find_first_of(" \t") searched the set once a character,
  // about 300 instructions a header on every request.
  const auto has_blank = [](const std::string& name) {
    for (const char c : name)
      if (c == ' ' || c == '\t') return true;
    return false;
  };
  for (const auto& [name, value] : req.headers)
    if (!problem && has_blank(name))
      problem = HeadProblem{400, "The header '" + std::string(text::trim(name)).substr(0, 100) +
                                     "' has white space before its colon (RFC 9112, 5.1)"};
  if (!problem) problem = transfer_encoding_problem(req);
  if (!problem) return std::nullopt;
  request.headers.erase("Transfer-Encoding");
  request.headers.erase("Content-Length");
  request.headers.emplace("Content-Length", "0");
  return problem;
}

bool declares_chunked(std::string_view head) {
  size_t at = head.find("\r\n");
  while (at != std::string_view::npos && at + 2 < head.size()) {
    const size_t start = at + 2;
    const size_t end = head.find("\r\n", start);
    const std::string_view line = head.substr(start, end - start);
    at = end;
    const size_t colon = line.find(':');
    if (colon != std::string_view::npos &&
        iequals(text::trim(line.substr(0, colon)), "Transfer-Encoding"))
      return iequals(text::trim(line.substr(colon + 1)), "chunked");
  }
  return false;
}

std::optional<size_t> declared_body_length(std::string_view head) {
  std::optional<size_t> length;
  size_t at = head.find("\r\n");  // past the request line
  while (at != std::string_view::npos && at + 2 < head.size()) {
    const size_t start = at + 2;
    const size_t end = head.find("\r\n", start);
    const std::string_view line = head.substr(start, end - start);
    at = end;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view name = text::trim(line.substr(0, colon));
    const std::string_view value = text::trim(line.substr(colon + 1));
    if (iequals(name, "Transfer-Encoding")) return std::nullopt;
    if (!iequals(name, "Content-Length")) continue;
    const auto n = number(value);
    if (!n || (length && *length != *n)) return std::nullopt;
    length = n;
  }
  return length.value_or(0);
}

}  // namespace fake_org::net
