#include "net/http_types.h"

#include <cctype>

namespace runner {

bool iequals(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

std::optional<std::string> HttpResponse::header(const std::string& name) const {
  for (const auto& [k, v] : headers)
    if (iequals(k, name)) return v;
  return std::nullopt;
}

std::optional<nlohmann::json> HttpResponse::json() const {
  if (body.empty()) return std::nullopt;
  auto j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

std::string HttpResponse::not_json_reason() const {
  if (body.empty()) return "not JSON (an empty body)";
  size_t stopped_at = 0;
  try {
    [[maybe_unused]] const auto parsed = nlohmann::json::parse(body);
    return "";
  } catch (const nlohmann::json::parse_error& e) {
    stopped_at = e.byte;
  }
  constexpr size_t kShown = 200;
  std::string start = body.substr(0, kShown);
  for (char& c : start)
    if (c == '\n' || c == '\r') c = ' ';
  return "not JSON (Content-Type " + header("Content-Type").value_or("none") +
         "; parsing stopped at byte " + std::to_string(stopped_at) + "): " + start +
         (body.size() > kShown ? "..." : "");
}

std::optional<UrlParts> split_url(const std::string& url) {
  size_t scheme_end = url.find("://");
  if (scheme_end == std::string::npos) return std::nullopt;
  std::string scheme = url.substr(0, scheme_end);
  if (scheme != "http" && scheme != "https") return std::nullopt;
  size_t host_start = scheme_end + 3;
  size_t path_start = url.find_first_of("/?", host_start);
  UrlParts p;
  p.origin = url.substr(0, path_start);
  if (p.origin.size() == host_start) return std::nullopt;
  p.target = path_start == std::string::npos ? "/" : url.substr(path_start);
  if (p.target[0] == '?') p.target = "/" + p.target;
  return p;
}

std::string percent_encode(const std::string& s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string encode_form(const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string out;
  for (const auto& [k, v] : fields) {
    if (!out.empty()) out += '&';
    out += percent_encode(k) + "=" + percent_encode(v);
  }
  return out;
}

}  // namespace runner
