// The admin API (/__admin) and the dashboard with any request: the input's
// first line is the method, its second the path under /__admin/ (with an
// optional ?query), then header lines up to an empty line, then the body.
// Beyond the common promises (no 5xx, clean UTF-8, JSON that parses): a
// request the admin guard refuses (403, 415) changes no record.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_org.h"

namespace {

std::string_view admin_fuzz_line(std::string_view& text) {
  const size_t end = text.find('\n');
  std::string_view line = text.substr(0, end);
  text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static fake_org::fuzz::FuzzOrg org;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  httplib::Request req;
  const std::string_view method = admin_fuzz_line(text);
  req.method = method == "POST" || method == "DELETE" || method == "PUT" || method == "PATCH"
                   ? std::string(method)
                   : "GET";
  const std::string_view target = admin_fuzz_line(text);
  const size_t q = target.find('?');
  req.path = "/__admin/" + std::string(target.substr(0, q));
  req.target = "/__admin/" + std::string(target);
  if (q != std::string_view::npos)
    httplib::detail::parse_query_text(std::string(target.substr(q + 1)), req.params);
  for (std::string_view line; !(line = admin_fuzz_line(text)).empty();) {
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    req.headers.emplace(std::string(line.substr(0, colon)), std::string(value));
  }
  req.body.assign(text);
  const size_t before = fake_org::fuzz::record_count(org.org());
  httplib::Response res = org.serve(req);
  if ((res.status == 403 || res.status == 415) && fake_org::fuzz::record_count(org.org()) != before)
    fake_org::fuzz::broken_promise("a refused admin request changed records", res.body);
  org.reset_every(500);
  return 0;
}
