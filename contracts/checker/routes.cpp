#include "routes.h"

#include <algorithm>
#include <cctype>

namespace contracts::routes {
namespace {

const char* const kApiErrorStatuses[] = {"400", "401", "404", "409", "422", "500"};

std::vector<std::string> segments(std::string_view path) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    out.emplace_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

bool path_matches(std::string_view pattern, std::string_view path) {
  std::vector<std::string> want = segments(pattern);
  std::vector<std::string> have = segments(path);
  if (want.size() != have.size()) return false;
  for (size_t i = 0; i < want.size(); ++i) {
    if (want[i] == "{ID}" ? have[i].empty() : want[i] != have[i]) return false;
  }
  return true;
}

// Drops scheme, host, query and fragment: "https://h/x/y?z#w" -> "/x/y".
std::string path_only(std::string_view url) {
  size_t scheme = url.find("://");
  if (scheme != std::string_view::npos) {
    size_t slash = url.find('/', scheme + 3);
    url = slash == std::string_view::npos ? std::string_view("/") : url.substr(slash);
  }
  size_t cut = url.find_first_of("?#");
  if (cut != std::string_view::npos) url = url.substr(0, cut);
  return std::string(url);
}

}  // namespace

const std::vector<Route>& all() {
  static const std::vector<Route> routes = {
      {"POST", "/PaymentIntent", false, "payment_intent_response", "payment_intent_request"},
      {"GET", "/PaymentIntent/{ID}", false, "payment_intent_status_response", nullptr},
      {"GET", "/Installment/{ID}", false, "installment_response", nullptr},
      {"GET", "/Recurring/{ID}", false, "recurring_response", nullptr},
      {"GET", "/PaymentMethods", false, "payment_methods_response", nullptr},
      {"GET", "/SourceConnector", false, "source_connectors_response", nullptr},
      {"GET", "/PackageActions", false, "package_actions_response", nullptr},
      {"POST", "/Payment", false, "payment_response", "payment_request"},
      {"GET", "/Payment/{ID}", false, "payment_status_response", nullptr},
      {"POST", "/services/oauth2/token", true, "oauth_token_response", nullptr},
      {"POST", "/services/oauth2/revoke", true, "oauth_revoke_response", nullptr},
      {"GET", "/services/oauth2/revoke", true, "oauth_revoke_response", nullptr},
  };
  return routes;
}

Match match(std::string_view method_in, std::string_view url) {
  Match m;
  m.method = std::string(method_in);
  std::transform(m.method.begin(), m.method.end(), m.method.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  std::string path = path_only(url);

  if (path.rfind("/services/oauth2/", 0) == 0) {
    m.path = path;
    for (const Route& r : all()) {
      if (!r.oauth || !path_matches(r.path, path)) continue;
      m.area = Area::kOAuth;  // other OAuth paths (authorize, userinfo) are not JSON
      m.path_known = true;
      if (m.method == r.method) m.route = &r;
    }
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
  for (const Route& r : all()) {
    if (r.oauth || !path_matches(r.path, m.path)) continue;
    m.area = Area::kApi;
    m.path_known = true;
    if (m.method == r.method) m.route = &r;
  }
  return m;
}

std::optional<std::string> response_schema(const Match& m, int status, Profile profile) {
  const bool lenient = profile == Profile::kLenient;
  if (m.area == Area::kOutside) return std::nullopt;
  if (m.area == Area::kOAuth) {
    // A known OAuth path with the wrong method: the platform's 405.
    if (!m.route) {
      if (m.path_known && status == 405) return std::string("platform_error_response");
      if (lenient && m.path_known && status >= 400) return std::string("any_error_response");
      return std::nullopt;
    }
    if (status == 200) return std::string(m.route->success_schema);
    bool token = std::string_view(m.route->path) == "/services/oauth2/token";
    if (status == 400 || (token && status == 401) || (lenient && status >= 400)) {
      return std::string("oauth_error_response");
    }
    return std::nullopt;
  }
  if (m.route) {
    if (status == 200) return std::string(m.route->success_schema);
    if (status == 400) return std::string("error_400_response");
    if (status == 401) return std::string("platform_error_response");
    if (status == 404 || status == 409 || status == 422 || status == 500) {
      return std::string("error_response");
    }
    // A body over the org's limit; only operations that take a body.
    if (status == 413 && m.route->request_schema) return std::string("error_response");
  } else {
    // Unknown URL or wrong method: the platform answers before the API does.
    if (status == 401 || status == 404) return std::string("platform_error_response");
    if (status == 405 && m.path_known) return std::string("platform_error_response");
  }
  if (lenient && status >= 400) return std::string("any_error_response");
  return std::nullopt;
}

std::string allowed_statuses(const Match& m, Profile profile) {
  std::string out;
  auto add = [&](const char* s) { out += (out.empty() ? "" : ", ") + std::string(s); };
  if (m.area == Area::kOAuth) {
    if (m.route) {
      add("200");
      add("400");
      if (std::string_view(m.route->path) == "/services/oauth2/token") add("401");
    } else if (m.path_known) {
      add("405");
    }
  } else if (m.route) {
    add("200");
    for (const char* s : kApiErrorStatuses) {
      if (std::string_view(s) == "422" && m.route->request_schema) add("413");
      add(s);
    }
  } else {
    add("401");
    add("404");
    if (m.path_known) add("405");
  }
  if (profile == Profile::kLenient) add("any other 4xx/5xx");
  return out.empty() ? "none" : out;
}

}  // namespace contracts::routes
