// The url target: a fake-org already running (`--target http://host:port`).
// One org for the whole run, so scenarios run one at a time and each starts
// from POST /__admin/reset. The runner authenticates with the first connected
// app of the scenario's fixture, which the running fake must also have.
#include <filesystem>
#include <optional>

#include "domain/clock.h"
#include "targets/fixture_cache.h"
#include "targets/target.h"

namespace runner {

namespace {

std::string base_name(const std::string& s) {
  std::string n = s.substr(s.find(':') == std::string::npos ? 0 : s.find(':') + 1);
  return std::filesystem::path(n).filename().string();
}

// The instance part of a URL that names an API path on it
// ("http://h:1/services/apexrest/cpm/v2" gives "http://h:1"), if it does:
// the runner adds the API base itself, so such a URL answers 401/404 far from
// the mistake.
std::optional<std::string> instance_of_api_url(const std::string& url) {
  size_t scheme = url.find("://");
  size_t path = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  if (path == std::string::npos) return std::nullopt;
  if (url.compare(path, 10, "/services/") != 0 && url.substr(path) != "/services")
    return std::nullopt;
  return url.substr(0, path);
}

class UrlTarget final : public Target {
 public:
  UrlTarget(std::string url, TargetOptions options)
      : url_(std::move(url)), options_(std::move(options)) {
    while (!url_.empty() && url_.back() == '/') url_.pop_back();
    if (auto instance = instance_of_api_url(url_))
      throw TargetError("--target " + url_ +
                        ": give the instance URL (scheme://host:port), not the API base: "
                        "--target " +
                        *instance);
  }
  std::string describe() const override { return url_; }
  bool parallel() const override { return false; }
  contracts::Profile default_profile() const override { return contracts::Profile::kStrict; }

  std::vector<LoadError> prepare(const std::vector<const Scenario*>& scenarios) override {
    auto errors = fixtures_.load_all(scenarios);
    // Which fixture the running fake serves decides which scenarios fit it.
    HttpClient http(TlsOptions{options_.ca_file});
    try {
      auto res = http.send({"GET", url_ + "/__admin/health", {{"Accept", "application/json"}}, ""});
      auto j = res.json();
      if (res.status != 200 || !j)
        throw TargetError("GET " + url_ + "/__admin/health answered " + std::to_string(res.status));
      served_fixture_ = j->value("fixture", "");
      // The fixture may move the API (org.base_path); a fake-org from
      // before the field has the default one.
      base_path_ = j->value("api_base_path", std::string(kDefaultBasePath));
      api_version_ = j->value("api_version", std::string("59.0"));
      if (base_path_.empty() || base_path_[0] != '/')
        throw TargetError("GET " + url_ + "/__admin/health gave api_base_path '" + base_path_ +
                          "', not an absolute path");
    } catch (const HttpError& e) {
      throw TargetError(std::string("no fake-org answers at ") + url_ + ": " + e.what());
    }
    return errors;
  }

  std::optional<std::string> skip_reason(const Scenario& s) const override {
    return fixture_mismatch(s);
  }

  std::optional<std::string> fixture_mismatch(const Scenario& s) const override {
    if (served_fixture_.empty()) return std::nullopt;
    std::string wanted = base_name(FixtureCache::key(s));
    if (wanted == base_name(served_fixture_)) return std::nullopt;
    return "needs fixture " + FixtureCache::key(s) + "; the fake-org at " + url_ + " serves " +
           served_fixture_;
  }

  std::unique_ptr<OrgSession> open(const Scenario& scenario) override {
    SessionConfig sc;
    sc.instance_url = url_;
    sc.api_base = url_ + base_path_;
    sc.api_version = api_version_;
    sc.admin = true;
    sc.tls.ca_file = options_.ca_file;
    const fake_org::OrgConfig* config = fixtures_.get(scenario);
    if (!config) throw TargetError("fixture " + FixtureCache::key(scenario) + " is not loaded");
    // The org outlives the run, but the runner's token is not printed: the
    // reproduction takes one as the runner did.
    Reproduction again;
    again.instance_url = url_;
    again.setup = fixture_token_line(*config, url_, options_.ca_file);
    sc.reproduce = again;
    auto session = std::make_unique<OrgSession>(
        sc, fixture_client_credentials(*config, sc.instance_url, sc.tls));
    auto reset = session->admin("POST", "/reset");
    if (reset.response.status != 200)
      throw TargetError("POST /__admin/reset answered " + std::to_string(reset.response.status) +
                        ": " + reset.response.body.substr(0, 200));
    return session;
  }

 private:
  std::string url_;
  TargetOptions options_;
  FixtureCache fixtures_;
  std::string served_fixture_;
  static constexpr const char* kDefaultBasePath = "/services/apexrest/cpm/v2";
  std::string base_path_ = kDefaultBasePath;
  std::string api_version_ = "59.0";
};

}  // namespace

std::unique_ptr<Target> make_url_target(const std::string& url, const TargetOptions& options) {
  return std::make_unique<UrlTarget>(url, options);
}

}  // namespace runner
