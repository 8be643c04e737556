#pragma once
// What lets a request into the admin API and the dashboard (/__admin), so
// that no web page the developer opens can drive them (docs/security.md):
//
//  - the caller's address is loopback, unless --admin-open or the request
//    names a host of --admin-allow-host (a CI network reaching the container
//    by that name);
//  - the Host header names a loopback host (localhost, *.localhost, 127.x,
//    [::1]), the --host name or an --admin-allow-host name, unless
//    --admin-open: a DNS-rebound page sends its own name;
//  - a browser's request is same-origin (Sec-Fetch-Site same-origin or none,
//    an Origin equal to the Host), whatever the flags;
//  - a write (POST, PUT, PATCH) says Content-Type: application/json, which
//    a page can send across sites only after a preflight nobody answers;
//  - a browser's write (one with Origin or Sec-Fetch-Site) carries the
//    dashboard's token (X-Fake-Org-Token), new at every start, which only a
//    page of this server has.
//
// Locking rule: an AdminPolicy is built before the server starts and only
// read afterwards.
#include <httplib.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace fake_org::http {

// The header the dashboard's script sends its token in.
inline constexpr const char* kAdminTokenHeader = "X-Fake-Org-Token";

struct AdminPolicy {
  bool open = false;                           // --admin-open: any address, any Host
  std::unordered_set<std::string> hosts;       // --host and --admin-allow-host names, lower case
  std::unordered_set<std::string> open_hosts;  // --admin-allow-host: from any address too
  std::string token;                           // the dashboard's, random at every start

  // `served_host`: --host ("0.0.0.0" and "::" name no host); `allow_hosts`:
  // --admin-allow-host. A fresh random token.
  static std::shared_ptr<const AdminPolicy> make(bool open, std::string_view served_host,
                                                 const std::vector<std::string>& allow_hosts);
};

// Why a request may not reach the admin API: the status, errorCode and an
// actionable message.
struct AdminRefusal {
  int status = 403;
  std::string code;
  std::string message;
};
std::optional<AdminRefusal> admin_refusal(const AdminPolicy& policy, const httplib::Request& req);

// The host of a Host header, lower case, without its port or an IPv6
// literal's brackets ("[::1]:8080" -> "::1"), and without a final dot.
std::string host_name_of(std::string_view host_header);
// localhost, a name under .localhost, an IPv4 address in 127.0.0.0/8
// written as four decimal numbers, ::1.
bool is_loopback_host_name(std::string_view name);
// The Host header names this server: a loopback name, the --host or an
// --admin-allow-host name, any name with --admin-open (`policy` null: a
// loopback name only). Not for the admin API alone: a JWT's audience may
// name this server only by such a name.
bool names_this_server(const AdminPolicy* policy, std::string_view host_header);

// 32 hex digits from the system's random source.
std::string random_hex_token();

}  // namespace fake_org::http
