#pragma once
// Per-request facts for the one log line each request gets. A request is
// served start to end by one worker thread, so thread-local storage carries
// them from routing to the logger without touching the request object.
#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "domain/core/clock.h"

namespace fake_org::http {

struct OrgSite;

struct RequestLogContext {
  std::chrono::steady_clock::time_point start;
  std::string payment_intent_id;  // set by handlers that know one
  // For the request journal: when the request arrived, by both clocks, and
  // whether a fault injected by the admin API answered it.
  std::chrono::system_clock::time_point received_wall;
  TimePoint received_at{};
  bool injected_fault = false;
  bool routed = false;           // the pre-routing handler ran for this request
  std::string content_encoding;  // taken off the request (content_encoding.h)
  // The org serving the request (org_sites.h): null until the pre-routing
  // handler found it, and when /orgs/{name} names no org (then unknown_org
  // holds the name). org_prefix is "" at the root, else "/orgs/{name}": the
  // request's path has been rewritten to what follows it, and origin_of()
  // adds it back to the URLs handed out (instance_url, RedirectURL).
  std::shared_ptr<OrgSite> site;
  std::shared_ptr<OrgSite> fallback_site;  // the root, held while current_site()'s answer is used
  std::string org_prefix;
  std::string unknown_org;
  // Set by the admin guard once it let the request in: the token the
  // dashboard's pages carry (admin_guard.h). The policy outlives requests.
  std::string_view admin_token;
  // What the request's head breaks of RFC 9112 (net::take_head_problem),
  // answered 400 by the dispatcher before anything else; "" when nothing.
  std::string head_problem;
};

RequestLogContext& request_log_context();

}  // namespace fake_org::http
