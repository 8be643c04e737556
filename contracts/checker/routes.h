#pragma once
// Which schema a request or response of the contract has: method + path (+
// status), from the contract rows of the route table (route_table.h: the rows
// that name response schemas, and their areas' rules). Stateless after the
// table is read once; every function is safe to call from any thread.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "checker.h"

namespace contracts::routes {

// Paths relative to this are the API's; the spec says only that the base
// path ends in "/cpm/v2" (spec 9), so any prefix is accepted.
inline constexpr const char* kDefaultBasePath = "/services/apexrest/cpm/v2";

// A contract row of the route table, as the checker matches it.
struct Route {
  std::string method;
  std::string path;  // relative to the API base, or absolute for OAuth
  bool oauth = false;
  bool data = false;  // the REST data API, relative to /services/data
  // status -> schema: the row's own responses and its area's every_route.
  std::map<int, std::string> responses;
  // Statuses answered with the platform's plain text (no schema, no violation).
  std::set<int> text_statuses;
  std::string request_schema;  // empty: no JSON body
  bool csv_request = false;    // a text/csv upload (Bulk API 2.0)
  std::vector<std::string> segments;
};

enum class Area { kOutside, kApi, kOAuth, kData };

// Where the REST data API is mounted; its paths are relative to this.
inline constexpr const char* kDataMount = "/services/data";

struct Match {
  Area area = Area::kOutside;
  const Route* route = nullptr;  // method and path matched
  bool path_known = false;       // the path matched some route (perhaps not this method)
  std::string method;            // upper case
  std::string path;              // relative to the API base or the data mount, or the OAuth path
};

const std::vector<Route>& all();
Match match(std::string_view method, std::string_view path);
// The request is on a route of the contract (perhaps with the wrong method),
// or anywhere under the API base: its answers are JSON with a schema (but
// for a route's text_statuses).
inline bool in_contract(const Match& m) {
  return m.area == Area::kApi || m.area == Area::kData || (m.area == Area::kOAuth && m.path_known);
}
std::optional<std::string> response_schema(const Match& m, int status, Profile profile);
// The matched route answers this status with plain text, outside the schemas.
inline bool text_response(const Match& m, int status) {
  return m.route && m.route->text_statuses.count(status) > 0;
}
// The statuses with a schema, for messages ("200, 400, 401, ..."); "none"
// outside the contract.
std::string allowed_statuses(const Match& m, Profile profile);

}  // namespace contracts::routes
