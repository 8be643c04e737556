#include "routes.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>

#include "route_table.h"

namespace contracts::routes {
namespace {

// The table's areas the checker can tell from a URL: the API by its base
// path's "/cpm/v2", OAuth by "/services/oauth2/" (and the data API's
// versions, "/services/data"), the data API by "/services/data/".
constexpr const char* kApiArea = "api";
constexpr const char* kOAuthArea = "oauth";
constexpr const char* kDataArea = "data";

struct Rules {
  AreaContract api;
  AreaContract oauth;
  AreaContract data;
  std::vector<Route> routes;
};

Route route_of(const RouteRow& row, const RouteArea& area) {
  Route r;
  r.method = row.method;
  r.path = row.path;
  r.oauth = area.name == kOAuthArea;
  r.data = area.name == kDataArea;
  r.responses = area.contract.every_route;
  for (const auto& [status, schema] : row.responses) r.responses[status] = schema;
  r.text_statuses = row.text_responses;
  if (row.request == RequestContent::kJson) r.request_schema = row.request_schema;
  r.csv_request = row.request == RequestContent::kCsv;
  for (std::string_view s : path_segments(row.path)) r.segments.emplace_back(s);
  return r;
}

const Rules& rules() {
  static const Rules rules = [] {
    const RouteTable& table = route_table();
    Rules out;
    for (const char* name : {kApiArea, kOAuthArea, kDataArea}) {
      const RouteArea* area = table.area(name);
      if (!area || !area->has_contract)
        throw RouteTableError(std::string("the route table has no contract for area ") + name);
      const std::string n = name;
      (n == kApiArea ? out.api : n == kOAuthArea ? out.oauth : out.data) = area->contract;
    }
    for (const RouteRow& row : table.rows) {
      if (!row.in_contract()) continue;
      if (row.area != kApiArea && row.area != kOAuthArea && row.area != kDataArea)
        throw RouteTableError(row.operation_id + ": the checker knows contracts in areas " +
                              kApiArea + ", " + kOAuthArea + " and " + kDataArea + " only");
      out.routes.push_back(route_of(row, *table.area(row.area)));
    }
    return out;
  }();
  return rules;
}

// A {Name} segment matches any segment but an empty one.
bool path_matches(const Route& route, const std::vector<std::string_view>& have) {
  const std::vector<std::string>& want = route.segments;
  if (want.size() != have.size()) return false;
  for (size_t i = 0; i < want.size(); ++i) {
    if (is_param_segment(want[i]) ? have[i].empty() : want[i] != have[i]) return false;
  }
  return true;
}

// Drops scheme, host, query and fragment: "https://h/x//y/?z#w" -> "/x/y".
std::string path_only(std::string_view url) {
  size_t scheme = url.find("://");
  if (scheme != std::string_view::npos) {
    size_t slash = url.find('/', scheme + 3);
    url = slash == std::string_view::npos ? std::string_view("/") : url.substr(slash);
  }
  size_t cut = url.find_first_of("?#");
  if (cut != std::string_view::npos) url = url.substr(0, cut);
  // Empty segments do not count, as on the platform: "//services/data/v59.0/query/"
  // is "/services/data/v59.0/query".
  std::string out;
  out.reserve(url.size());
  for (char c : url)
    if (c != '/' || out.empty() || out.back() != '/') out += c;
  if (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

// Marks the match where a route of the area has the path (and the method).
void match_routes(Match& m, Area area) {
  const std::vector<std::string_view> have = path_segments(m.path);
  for (const Route& r : all()) {
    const Area route_area = r.oauth ? Area::kOAuth : r.data ? Area::kData : Area::kApi;
    if (route_area != area || !path_matches(r, have)) continue;
    m.area = area;
    m.path_known = true;
    // The first row wins, as in fake-org's router (.../describe before .../{id}).
    if (m.method == r.method && !m.route) m.route = &r;
  }
}

const AreaContract& contract_of(Area area) {
  if (area == Area::kData) return rules().data;
  return area == Area::kOAuth ? rules().oauth : rules().api;
}

const std::string* find(const std::map<int, std::string>& schemas, int status) {
  auto it = schemas.find(status);
  return it == schemas.end() ? nullptr : &it->second;
}

}  // namespace

const std::vector<Route>& all() {
  return rules().routes;
}

Match match(std::string_view method_in, std::string_view url) {
  Match m;
  m.method = std::string(method_in);
  std::transform(m.method.begin(), m.method.end(), m.method.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  std::string path = path_only(url);

  // OAuth, the identity service and the data API's versions, on the
  // instance and on the login hosts (/login, /test): whole paths. Other
  // OAuth paths (authorize) are not JSON: outside.
  m.path = path;
  match_routes(m, Area::kOAuth);
  if (m.path_known || path.rfind("/services/oauth2/", 0) == 0) return m;
  const std::string data_prefix = std::string(kDataMount) + "/";
  if (path.rfind(data_prefix, 0) == 0) {
    m.area = Area::kData;
    m.path = path.substr(data_prefix.size() - 1);
    match_routes(m, Area::kData);
    return m;
  }

  // Anything up to and including the first "/cpm/v2" segment is the base.
  const std::string marker = "/cpm/v2";
  size_t at = path.find(marker);
  while (at != std::string::npos && at + marker.size() < path.size() &&
         path[at + marker.size()] != '/') {
    at = path.find(marker, at + 1);
  }
  if (at != std::string::npos) {
    m.area = Area::kApi;
    m.path = path.substr(at + marker.size());
    if (m.path.empty()) m.path = "/";
  } else {
    m.path = path;  // relative: in the contract only if a route matches
  }
  match_routes(m, Area::kApi);
  return m;
}

std::optional<std::string> response_schema(const Match& m, int status, Profile profile) {
  const bool lenient = profile == Profile::kLenient;
  if (m.area == Area::kOutside) return std::nullopt;
  const AreaContract& c = contract_of(m.area);
  if (m.route) {
    if (const std::string* s = find(m.route->responses, status)) return *s;
    if (m.route->text_statuses.count(status)) return std::nullopt;
    if (lenient && status >= 400) return c.lenient_route_error;
    return std::nullopt;
  }
  // Unknown path or wrong method: the platform answers before the API does.
  if (const std::string* s = find(c.no_route, status)) return *s;
  if (m.path_known) {
    if (const std::string* s = find(c.wrong_method, status)) return *s;
  }
  if (lenient && status >= 400) return c.lenient_other_error;
  return std::nullopt;
}

std::string allowed_statuses(const Match& m, Profile profile) {
  std::set<int> statuses;
  if (m.area != Area::kOutside) {
    const AreaContract& c = contract_of(m.area);
    auto add = [&statuses](const std::map<int, std::string>& schemas) {
      for (const auto& entry : schemas) statuses.insert(entry.first);
    };
    if (m.route) {
      add(m.route->responses);
      statuses.insert(m.route->text_statuses.begin(), m.route->text_statuses.end());
    } else {
      add(c.no_route);
      if (m.path_known) add(c.wrong_method);
    }
  }
  std::string out;
  for (int s : statuses) out += (out.empty() ? "" : ", ") + std::to_string(s);
  if (profile == Profile::kLenient)
    out += (out.empty() ? "" : ", ") + std::string("any other 4xx/5xx");
  return out.empty() ? "none" : out;
}

}  // namespace contracts::routes
