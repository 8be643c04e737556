#include "events/remote_sites.h"

#include "util/ascii.h"
#include "util/url.h"

#include <algorithm>
#include <cctype>

namespace fake_org {

namespace {

int default_port(const std::string& scheme) {
  return scheme == "https" ? 443 : 80;
}

bool fail(std::string* why, std::string message) {
  if (why) *why = std::move(message);
  return false;
}

bool valid_host_name(std::string_view host) {
  if (host.empty()) return false;
  return std::all_of(host.begin(), host.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '-' || c == '.' || c == '_';
  });
}

bool valid_ipv6_literal(std::string_view inner) {
  if (inner.empty() || inner.find(':') == std::string_view::npos) return false;
  return std::all_of(inner.begin(), inner.end(),
                     [](unsigned char c) { return std::isxdigit(c) || c == ':' || c == '.'; });
}

// Splits "host[:port]" (host possibly "[v6]") into the URL; false with a reason otherwise.
bool parse_authority(std::string_view url, std::string_view authority, ParsedUrl& out,
                     std::string* why) {
  std::string_view host = authority, port;
  if (!authority.empty() && authority.front() == '[') {
    auto close = authority.find(']');
    if (close == std::string_view::npos || !valid_ipv6_literal(authority.substr(1, close - 1)))
      return fail(why, "URL '" + std::string(url) + "' has a malformed IPv6 host");
    host = authority.substr(0, close + 1);
    std::string_view rest = authority.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':')
        return fail(why, "URL '" + std::string(url) + "' has text after its IPv6 host");
      port = rest.substr(1);
    }
  } else {
    auto colon = authority.find(':');
    if (colon != std::string_view::npos) {
      host = authority.substr(0, colon);
      port = authority.substr(colon + 1);
    }
    if (!valid_host_name(host))
      return fail(why, "URL '" + std::string(url) + "' has no valid host");
  }
  out.host = ascii_lower(host);
  out.port = default_port(out.scheme);
  // An empty port after ':' means the default (RFC 3986, 3.2.3).
  if (!port.empty()) {
    bool digits = port.size() <= 5 && std::all_of(port.begin(), port.end(),
                                                  [](unsigned char c) { return std::isdigit(c); });
    int value = digits ? std::stoi(std::string(port)) : 0;
    if (value < 1 || value > 65535)
      return fail(why,
                  "URL '" + std::string(url) + "' has an invalid port '" + std::string(port) + "'");
    out.port = value;
    out.explicit_port = true;
  }
  return true;
}

// "/hooks" permits "/hooks" and "/hooks/..."; an empty prefix permits everything.
bool under_prefix(const std::string& path, const std::string& prefix) {
  if (prefix.empty()) return true;
  if (path.compare(0, prefix.size(), prefix) != 0) return false;
  return path.size() == prefix.size() || path[prefix.size()] == '/';
}

std::string site_prefix(const ParsedUrl& site) {
  std::string p = site.path;
  while (!p.empty() && p.back() == '/') p.pop_back();
  return p;
}

}  // namespace

std::string ParsedUrl::origin() const {
  std::string s = scheme + "://" + host;
  if (explicit_port) s += ":" + std::to_string(port);
  return s;
}

std::string ParsedUrl::target() const {
  return query.empty() ? path : path + "?" + query;
}

std::optional<ParsedUrl> parse_http_url(std::string_view url, std::string* why) {
  if (url.empty()) {
    fail(why, "the URL is empty");
    return std::nullopt;
  }
  if (std::any_of(url.begin(), url.end(), [](unsigned char c) { return c <= ' ' || c == 0x7f; })) {
    fail(why, "URL '" + std::string(url) + "' contains spaces or control characters");
    return std::nullopt;
  }
  auto sep = url.find("://");
  if (sep == std::string_view::npos || sep == 0) {
    fail(why, "URL '" + std::string(url) + "' is not absolute (scheme://host/...)");
    return std::nullopt;
  }
  ParsedUrl out;
  out.scheme = ascii_lower(url.substr(0, sep));
  if (out.scheme != "http" && out.scheme != "https") {
    fail(why, "URL '" + std::string(url) + "' has scheme " + out.scheme +
                  "; only http and https are permitted");
    return std::nullopt;
  }
  std::string_view rest = url.substr(sep + 3);
  auto end = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, end);
  if (authority.find('@') != std::string_view::npos) {
    fail(why, "URL '" + std::string(url) +
                  "' carries user information (user@host); credentials do not belong in a "
                  "webhook URL");
    return std::nullopt;
  }
  if (!parse_authority(url, authority, out, why)) return std::nullopt;

  std::string_view tail = end == std::string_view::npos ? std::string_view() : rest.substr(end);
  tail = tail.substr(0, tail.find('#'));
  auto q = tail.find('?');
  out.path = std::string(tail.substr(0, q));
  if (q != std::string_view::npos) out.query = std::string(tail.substr(q + 1));
  if (out.path.empty()) out.path = "/";
  return out;
}

RemoteSites::RemoteSites(std::vector<RemoteSiteDef> sites) {
  for (auto& def : sites)
    if (auto url = parse_http_url(def.url)) sites_.push_back(Site{std::move(def), std::move(*url)});
}

std::string RemoteSites::permitted_list() const {
  std::string out;
  for (const auto& s : sites_) {
    if (!s.def.active) continue;
    if (!out.empty()) out += ", ";
    out += s.def.url;
  }
  return out.empty() ? "none (add one under remote_sites in the fixture)" : out;
}

RemoteSites::Verdict RemoteSites::check(std::string_view url) const {
  std::string why;
  auto parsed = parse_http_url(url, &why);
  if (!parsed) return {false, why + "; permitted: " + permitted_list()};
  // A receiver resolves dot segments, so the prefix would match a path the
  // request does not go to (a URL stored before the request check).
  if (has_dot_segment(url))
    return {false, "URL " + parsed->origin() + parsed->path +
                       " has a '.' or '..' path segment; permitted: " + permitted_list()};

  const Site* inactive = nullptr;
  std::string mismatch;
  for (const auto& s : sites_) {
    if (s.url.host != parsed->host) continue;
    if (!s.def.active) {
      if (!inactive) inactive = &s;
      continue;
    }
    std::string difference;
    if (s.url.scheme != parsed->scheme)
      difference = "scheme " + parsed->scheme + " differs from " + s.def.url;
    else if (s.url.explicit_port && s.url.port != parsed->port)
      difference = "port " + std::to_string(parsed->port) + " differs from " + s.def.url;
    else if (!under_prefix(parsed->path, site_prefix(s.url)))
      difference = "path " + parsed->path + " is not under " + s.def.url;
    if (difference.empty()) return {true, ""};
    if (mismatch.empty()) mismatch = std::move(difference);
  }
  std::string list = "; permitted: " + permitted_list();
  if (!mismatch.empty())
    return {false, "URL " + parsed->origin() + parsed->path +
                       " is not within a permitted remote site (" + mismatch + ")" + list};
  if (inactive)
    return {false, "remote site " + inactive->def.name + " (" + inactive->def.url +
                       ") is inactive" + list};
  return {false, "host " + parsed->host + " is not a permitted remote site" + list};
}

}  // namespace fake_org
