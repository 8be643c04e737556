#include "admin_guard.h"

#include <random>

#include "server.h"
#include "util/ascii.h"

namespace fake_org::http {

namespace {

bool admin_guard_is_ipv4_loopback(std::string_view s) {
  int parts = 0;
  size_t at = 0;
  while (at <= s.size() && parts < 4) {
    size_t end = s.find('.', at);
    if (end == std::string_view::npos) end = s.size();
    std::string_view part = s.substr(at, end - at);
    if (part.empty() || part.size() > 3 || part.find_first_not_of("0123456789") != part.npos)
      return false;
    if (std::stoi(std::string(part)) > 255) return false;
    if (parts == 0 && part != "127") return false;
    ++parts;
    at = end + 1;
  }
  return parts == 4 && at == s.size() + 1;
}

bool admin_guard_ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

bool admin_guard_is_write(const std::string& method) {
  return method == "POST" || method == "PUT" || method == "PATCH";
}

// application/json, any case, with or without parameters (charset).
bool admin_guard_is_json(std::string_view type) {
  const size_t semi = type.find(';');
  std::string media = ascii_lower(type.substr(0, semi));
  while (!media.empty() && (media.back() == ' ' || media.back() == '\t')) media.pop_back();
  return media == "application/json";
}

// The cross-site check: what a browser says of where the request comes
// from. A client outside a browser sends neither header.
std::optional<AdminRefusal> admin_guard_cross_site(const httplib::Request& req) {
  const std::string site = ascii_lower(req.get_header_value("Sec-Fetch-Site"));
  if (!site.empty() && site != "same-origin" && site != "none")
    return AdminRefusal{403, "FORBIDDEN",
                        "The admin API and the dashboard answer only their own pages: this "
                        "request comes from another site (Sec-Fetch-Site: " +
                            site + "). Open the dashboard at this server's own address"};
  if (!req.has_header("Origin")) return std::nullopt;
  std::string origin = ascii_lower(req.get_header_value("Origin"));
  const std::string host = ascii_lower(req.get_header_value("Host"));
  for (std::string_view scheme : {"http://", "https://"})
    if (origin.rfind(scheme, 0) == 0 && origin.substr(scheme.size()) == host && !host.empty())
      return std::nullopt;
  return AdminRefusal{403, "FORBIDDEN",
                      "The admin API and the dashboard answer only their own pages: this "
                      "request's Origin '" +
                          req.get_header_value("Origin").substr(0, 200) +
                          "' is not this server (Host '" + host.substr(0, 200) +
                          "'). Open the dashboard at this server's own address"};
}

std::optional<AdminRefusal> admin_guard_write(const AdminPolicy& policy,
                                              const httplib::Request& req) {
  if (admin_guard_is_write(req.method) &&
      !admin_guard_is_json(req.get_header_value("Content-Type")))
    return AdminRefusal{415, "UNSUPPORTED_MEDIA_TYPE",
                        "An admin " + req.method + " takes Content-Type: application/json (got '" +
                            req.get_header_value("Content-Type").substr(0, 100) +
                            "'), even with an empty body; with curl add -H 'Content-Type: "
                            "application/json'"};
  const bool from_browser = req.has_header("Origin") || req.has_header("Sec-Fetch-Site");
  if (from_browser && req.method != "GET" && req.method != "HEAD" &&
      req.get_header_value(kAdminTokenHeader) != policy.token)
    return AdminRefusal{403, "FORBIDDEN",
                        std::string("A browser's admin ") + req.method + " needs the header " +
                            kAdminTokenHeader +
                            " with the token of this server's dashboard pages: use the "
                            "dashboard's buttons and forms, or call the admin API from "
                            "outside a browser"};
  return std::nullopt;
}

}  // namespace

std::shared_ptr<const AdminPolicy> AdminPolicy::make(bool open, std::string_view served_host,
                                                     const std::vector<std::string>& allow_hosts) {
  auto policy = std::make_shared<AdminPolicy>();
  policy->open = open;
  const std::string served = host_name_of(served_host);
  if (!served.empty() && served != "0.0.0.0" && served != "::") policy->hosts.insert(served);
  for (const std::string& name : allow_hosts) {
    policy->hosts.insert(host_name_of(name));
    policy->open_hosts.insert(host_name_of(name));
  }
  policy->token = random_hex_token();
  return policy;
}

std::string host_name_of(std::string_view host) {
  std::string_view name = host;
  if (!name.empty() && name.front() == '[') {
    const size_t close = name.find(']');
    name = close == std::string_view::npos ? name.substr(1) : name.substr(1, close - 1);
  } else if (const size_t colon = name.rfind(':');
             colon != std::string_view::npos && name.find(':') == colon) {
    name = name.substr(0, colon);  // one colon: a port (more: a bare IPv6 address)
  }
  std::string out = ascii_lower(name);
  if (!out.empty() && out.back() == '.') out.pop_back();
  return out;
}

bool is_loopback_host_name(std::string_view name) {
  return name == "localhost" || admin_guard_ends_with(name, ".localhost") || name == "::1" ||
         admin_guard_is_ipv4_loopback(name);
}

bool names_this_server(const AdminPolicy* policy, std::string_view host_header) {
  const std::string name = host_name_of(host_header);
  if (name.empty()) return false;
  if (is_loopback_host_name(name)) return true;
  return policy && (policy->open || policy->hosts.count(name) > 0);
}

std::string random_hex_token() {
  std::random_device source;
  std::string out;
  for (int i = 0; i < 4; ++i) {
    const unsigned v = source();
    for (int shift = 28; shift >= 0; shift -= 4) out += "0123456789abcdef"[(v >> shift) & 0xF];
  }
  return out;
}

std::optional<AdminRefusal> admin_refusal(const AdminPolicy& policy, const httplib::Request& req) {
  const std::string name = host_name_of(req.get_header_value("Host"));
  const bool named_open = !name.empty() && policy.open_hosts.count(name) > 0;
  if (!policy.open && !named_open && !is_loopback(req.remote_addr))
    return AdminRefusal{403, "FORBIDDEN",
                        "The admin API answers on loopback only (this request came from " +
                            req.remote_addr +
                            "); start fake-org with --admin-allow-host NAME to answer clients "
                            "that reach it by NAME, or --admin-open (docs/security.md)"};
  // No Host at all is an HTTP/1.0 client outside a browser; HTTP/1.1 needs one (framing).
  if (!policy.open && req.has_header("Host") && !is_loopback_host_name(name) &&
      policy.hosts.count(name) == 0)
    return AdminRefusal{403, "FORBIDDEN",
                        "The admin API answers to localhost, 127.0.0.1, [::1] and the --host "
                        "name only, not Host '" +
                            req.get_header_value("Host").substr(0, 200) +
                            "'; start fake-org with --admin-allow-host " + name.substr(0, 200) +
                            " to reach it by that name (docs/security.md)"};
  if (auto cross = admin_guard_cross_site(req)) return cross;
  return admin_guard_write(policy, req);
}

}  // namespace fake_org::http
