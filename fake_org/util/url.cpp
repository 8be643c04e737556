#include "util/url.h"

#include <string>

#include "util/ascii.h"

namespace fake_org {

bool is_absolute_http_url(std::string_view url) {
  size_t p;
  const std::string head = ascii_lower(url.substr(0, 8));
  if (head.rfind("https://", 0) == 0)
    p = 8;
  else if (head.rfind("http://", 0) == 0)
    p = 7;
  else
    return false;
  size_t end = url.find_first_of("/?#", p);
  std::string_view authority =
      url.substr(p, end == std::string_view::npos ? url.size() - p : end - p);
  if (authority.empty() || authority.find(' ') != std::string_view::npos) return false;
  return url.find_first_of(" \t\r\n") == std::string_view::npos;
}

bool has_dot_segment(std::string_view url) {
  auto scheme = url.find("://");
  if (scheme == std::string_view::npos) return false;
  auto start = url.find_first_of("/?#", scheme + 3);
  if (start == std::string_view::npos || url[start] != '/') return false;
  std::string_view path = url.substr(start, url.find_first_of("?#", start) - start);
  std::string segment;  // decoded dots only: "%2e" and "%2E" are '.'
  auto is_dots = [&] { return segment == "." || segment == ".."; };
  for (size_t i = 0; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/' || path[i] == '\\') {
      if (is_dots()) return true;
      segment.clear();
    } else if (path[i] == '%' && i + 2 < path.size() && path[i + 1] == '2' &&
               (path[i + 2] == 'e' || path[i + 2] == 'E')) {
      segment += '.';
      i += 2;
    } else {
      segment += path[i];
    }
  }
  return false;
}

}  // namespace fake_org
