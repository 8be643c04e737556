#pragma once
// Serving a Router from cpp-httplib: one catch-all registration per method,
// the area's guard before routing (a fault or the bearer token for the API,
// the admin guard for /__admin), and every area's 404 and 405.
//
// Locking rule: no state of its own; the router is immutable after start-up,
// the token store and the fault injector guard their own state.
#include <httplib.h>

#include <memory>
#include <string>

#include "auth/token_store.h"
#include "checker/route_table.h"
#include "fault_injector.h"
#include "router.h"

namespace fake_org::http {

struct AdminPolicy;

// What the areas' guards need.
struct Guards {
  std::shared_ptr<TokenStore> tokens;        // bearer: the API's tokens
  std::shared_ptr<FaultInjector> faults;     // bearer: injected before the token
  std::shared_ptr<const AdminPolicy> admin;  // loopback: who may call (null: loopback only)
  size_t max_body_bytes = 6 * 1024 * 1024;   // of a body once its Content-Encoding is undone
};

// The 404 message of a path under no area's mount (and of httplib's own 404s).
inline constexpr const char* kNoMatchMessage = "Could not find a match for URL";

// One request through `router`: the area's guard, 404/405, the body's
// Content-Encoding, then the row's handler. What serve_all registers; the
// fuzz targets call it without a socket.
void dispatch(const Router& router, const Guards& guards, const httplib::Request& req,
              httplib::Response& res);

// Every request of `server` goes through `router`: one catch-all per method
// (GET also takes HEAD), so a path no row has answers 404 and a known path
// with another method 405 from here.
void serve_all(httplib::Server& server, std::shared_ptr<const Router> router, Guards guards);

// Registers only the router's own paths, for a server that has routes of its
// own besides (a test's). Areas with a guard cannot be served this way.
void serve_paths(httplib::Server& server, std::shared_ptr<const Router> router);

// A body over `limit` sent to a row that answers OAuth errors: 400
// {error: invalid_request, error_description} naming the path and the limit,
// as the OAuth endpoints answer every refused request; false (nothing sent)
// for any other path.
bool send_oauth_body_too_large(const Router& router, const httplib::Request& req,
                               httplib::Response& res, size_t limit);

// 404 with the area's message (contracts/routes.yaml not_found), or the
// platform's when the path is under no area.
void send_not_found(httplib::Response& res, const contracts::RouteArea* area,
                    const std::string& path);

}  // namespace fake_org::http
