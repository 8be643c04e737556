#pragma once
// One HTTP exchange as the runner sees it: what was sent (with the full URL,
// for reports and curl) and what came back.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace runner {

using Headers = std::vector<std::pair<std::string, std::string>>;

struct HttpRequest {
  std::string method = "GET";
  std::string url;  // scheme://host[:port]/path?query
  Headers headers;
  std::string body;
  // Send the URL's path and query byte for byte (a recording proxy forwards
  // what its client sent: `+` in a query stays `+`, not `%2B`); otherwise
  // characters a URL cannot hold (a space) are percent-encoded.
  bool verbatim_target = false;
};

struct HttpResponse {
  int status = 0;
  Headers headers;
  std::string body;
  double elapsed_ms = 0;

  // Case-insensitive, first value; nullopt when absent.
  std::optional<std::string> header(const std::string& name) const;
  // The body parsed as JSON; nullopt when empty or not JSON.
  std::optional<nlohmann::json> json() const;
  // Why the body is not JSON, for a person: "not JSON (Content-Type
  // text/html; parsing stopped at byte 17): <!DOCTYPE html>..."; "" when it is.
  std::string not_json_reason() const;
};

struct UrlParts {
  std::string origin;  // scheme://host[:port]
  std::string target;  // /path?query (at least "/")
};
// nullopt unless the URL is http or https with a host.
std::optional<UrlParts> split_url(const std::string& url);

std::string percent_encode(const std::string& s);  // RFC 3986 unreserved kept
// a=1&b=x%20y
std::string encode_form(const std::vector<std::pair<std::string, std::string>>& fields);
bool iequals(const std::string& a, const std::string& b);

}  // namespace runner
