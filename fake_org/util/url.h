#pragma once
// Checks on the URLs a client gives the org (SuccessURL, WebhookURL, remote sites).
#include <string_view>

namespace fake_org {

// Absolute http(s) URL with a host; the scheme in any case (RFC 3986 3.1).
bool is_absolute_http_url(std::string_view url);

// True when the URL's path has a "." or ".." segment, also percent-encoded
// ("%2e%2E") or between backslashes: a receiver resolves it, so
// "http://localhost:9/only/../x" is "/x", outside a site "/only". The org
// refuses such a WebhookURL rather than resolve it (decisions 22).
bool has_dot_segment(std::string_view url);

}  // namespace fake_org
