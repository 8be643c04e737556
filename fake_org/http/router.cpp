#include "router.h"

#include "responses.h"

namespace fake_org::http {

namespace {
std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < path.size()) {
    while (i < path.size() && path[i] == '/') ++i;
    size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    if (j > i) out.emplace_back(path.substr(i, j - i));
    i = j;
  }
  return out;
}

bool is_param(const std::string& s) {
  return s.size() > 2 && s.front() == '{' && s.back() == '}';
}
}  // namespace

void Router::add(std::string method, std::string pattern, Handler handler) {
  routes_.push_back({std::move(method), split_path(pattern), std::move(handler)});
}

// A handful of routes per area: a pass over them is cheaper than any index.
Router::Match Router::match(std::string_view method, std::string_view path) const {
  Match m;
  std::vector<std::string> segs = split_path(path);
  for (const auto& r : routes_) {
    if (r.segments.size() != segs.size()) continue;
    std::map<std::string, std::string> params;
    bool ok = true;
    for (size_t i = 0; i < segs.size() && ok; ++i) {
      if (is_param(r.segments[i])) {
        params[r.segments[i].substr(1, r.segments[i].size() - 2)] =
            httplib::detail::decode_url(segs[i], false);
      } else {
        ok = r.segments[i] == segs[i];
      }
    }
    if (!ok) continue;
    if (r.method == method) {
      m.outcome = Outcome::kHandled;
      m.handler = &r.handler;
      m.params = std::move(params);
      return m;
    }
    m.outcome = Outcome::kMethodNotAllowed;
    if (m.allowed.find(r.method) == std::string::npos)
      m.allowed += (m.allowed.empty() ? "" : ", ") + r.method;
  }
  return m;
}

void answer_other_methods_with_405(httplib::Server& server, const std::string& pattern,
                                   const std::string& allowed) {
  auto handler = [allowed](const httplib::Request& req, httplib::Response& res) {
    send_method_not_allowed(res, req.method, allowed);
  };
  auto allows = [&allowed](std::string_view method) {
    return allowed.find(method) != std::string::npos;
  };
  if (!allows("GET")) server.Get(pattern, handler);
  if (!allows("POST")) server.Post(pattern, handler);
  if (!allows("PUT")) server.Put(pattern, handler);
  if (!allows("PATCH")) server.Patch(pattern, handler);
  if (!allows("DELETE")) server.Delete(pattern, handler);
}

}  // namespace fake_org::http
