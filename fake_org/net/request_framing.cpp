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

}  // namespace

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
