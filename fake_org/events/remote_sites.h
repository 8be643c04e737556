#pragma once
// The org's permitted remote sites (spec 6.1): an outbound call (a webhook) may
// go only to a URL inside an active site. A site names scheme and host, and
// optionally a port (none: any port) and a path prefix (none: any path).
//
// Matching rules, chosen to be strict where a real org is and explicit where
// the spec is silent:
//   - scheme must be http or https and equal to the site's (case-insensitive);
//   - host equal, case-insensitive; IPv6 literals in brackets ("[::1]");
//     no DNS: "localhost" and "127.0.0.1" are different sites;
//   - the port, explicit or the scheme's default (80/443), equal to the site's
//     when the site names one;
//   - the path starts with the site's path prefix at a segment boundary
//     ("/hooks" permits "/hooks" and "/hooks/x", not "/hooksx");
//   - URLs with user information ("user@host") are refused outright, and so
//     are paths with a "." or ".." segment (also "%2e"): a receiver would
//     resolve "/hooks/../x" to "/x", outside "/hooks" (has_dot_segment).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/config/org_config.h"

namespace fake_org {

struct ParsedUrl {
  std::string scheme;  // lower case: "http" or "https"
  std::string host;    // lower case; IPv6 literal keeps its brackets
  int port = 0;        // explicit, else the scheme's default
  bool explicit_port = false;
  std::string path;   // starts with '/'; "/" when the URL has none
  std::string query;  // without '?'; empty when none

  // "http://host[:port]" with the port only when explicit.
  std::string origin() const;
  // What to request on the host: path plus "?query".
  std::string target() const;
};

// Parses an absolute http(s) URL. On failure returns nullopt and, when `why`
// is set, a sentence saying what is wrong.
std::optional<ParsedUrl> parse_http_url(std::string_view url, std::string* why = nullptr);

// Immutable after construction: safe to share between threads without a lock.
class RemoteSites {
 public:
  explicit RemoteSites(std::vector<RemoteSiteDef> sites);

  struct Verdict {
    bool permitted = false;
    std::string reason;  // why not, for the delivery log; empty when permitted
  };
  Verdict check(std::string_view url) const;

  // Active sites' URLs, comma separated, for messages: "http://127.0.0.1, http://localhost".
  std::string permitted_list() const;

 private:
  struct Site {
    RemoteSiteDef def;
    ParsedUrl url;
  };
  std::vector<Site> sites_;  // only those whose URL parses
};

}  // namespace fake_org
