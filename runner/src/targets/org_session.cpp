#include "targets/org_session.h"

#include "util/calendar.h"

namespace runner {

OrgSession::OrgSession(SessionConfig config, std::shared_ptr<TokenProvider> tokens,
                       std::shared_ptr<void> keepalive)
    : keepalive_(std::move(keepalive)),
      config_(std::move(config)),
      tokens_(std::move(tokens)),
      http_(config_.tls) {}

std::string OrgSession::url_for(const std::string& path) const {
  if (path.rfind("http://", 0) == 0 || path.rfind("https://", 0) == 0) return path;
  return (is_absolute_org_path(path) ? config_.instance_url : config_.api_base) + path;
}

SentRequest OrgSession::send(HttpRequest request, bool with_auth, Millis timeout) {
  SentRequest out;
  bool has_auth = false;
  for (const auto& [k, v] : request.headers) has_auth = has_auth || iequals(k, "Authorization");
  const bool add_auth = with_auth && !has_auth && tokens_;
  if (add_auth) {
    out.token = tokens_->token();
    request.headers.emplace_back("Authorization", "Bearer " + out.token);
  }
  out.response = http_.send(request, timeout);
  if (add_auth && out.response.status == 401) {
    out.token = tokens_->refresh(out.token);
    request.headers.back().second = "Bearer " + out.token;
    out.response = http_.send(request, timeout);
    out.refreshed = true;
  }
  out.request = std::move(request);
  out.ca_file = config_.tls.ca_file;
  if (config_.reproduce) {
    out.reproduce = config_.reproduce;
    const std::string& url = out.request.url;
    out.reproduce_url =
        url.rfind(config_.instance_url, 0) == 0
            ? config_.reproduce->instance_url + url.substr(config_.instance_url.size())
            : url;
  }
  return out;
}

SentRequest OrgSession::admin(const std::string& method, const std::string& path,
                              const nlohmann::json& body) {
  if (!config_.admin) throw TargetError("this target has no admin API (" + path + ")");
  HttpRequest req;
  req.method = method;
  req.url = config_.instance_url + "/__admin" + path;
  req.headers = {{"Accept", "application/json"}};
  // fake-org's admin guard takes a write only as JSON, an empty one too.
  if (!body.is_null() || (method != "GET" && method != "DELETE"))
    req.headers.emplace_back("Content-Type", "application/json");
  if (!body.is_null()) req.body = body.dump();
  return send(std::move(req), false, Millis(30000));
}

std::string OrgSession::now() {
  if (config_.admin) {
    auto res = admin("GET", "/clock").response;
    auto j = res.json();
    if (res.status == 200 && j && j->contains("now") && (*j)["now"].is_string())
      return (*j)["now"].get<std::string>();
    throw TargetError("GET /__admin/clock answered " + std::to_string(res.status) + ": " +
                      res.body.substr(0, 200));
  }
  return fake_org::format_iso8601(
      std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now()));
}

std::string OrgSession::today() {
  auto t = fake_org::parse_iso8601(now());
  if (!t) throw TargetError("the org's clock is not an ISO 8601 instant");
  return fake_org::format_date(fake_org::date_of(*t));
}

}  // namespace runner
