// The url target: a fake-org already running (`--target http://host:port`).
// Each scenario gets a throwaway org of its own fixture (POST /__admin/orgs,
// deleted when the scenario ends), so scenarios run in parallel (-j) as on the
// embedded target, and CI jobs sharing one fake-org never meet (decisions 109).
// A fake-org from before several orgs has one org for the whole run: then
// scenarios run one at a time, each from POST /__admin/reset, and a scenario
// whose fixture is not the one served is skipped. The runner authenticates
// with the first connected app of the scenario's fixture.
#include <unistd.h>

#include <filesystem>
#include <mutex>
#include <optional>

#include "net/curl.h"
#include "targets/fixture_cache.h"
#include "targets/target.h"

namespace runner {

namespace {

// Longer than any scenario runs (its waits are seconds to minutes), short
// enough that an org a killed runner left is gone within the hour.
constexpr const char* kThrowawayOrgTtl = "30m";
// What fake-org keeps of `created_by` (app/org_lease.h).
constexpr size_t kCreatedByMax = 200;

// "scenario-runner 4242 on ci-host-7": the runner process an org came from.
std::string runner_identity() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return "scenario-runner " + std::to_string(::getpid()) +
         (host[0] ? std::string(" on ") + host : "");
}

// One scenario's org on a running fake-org: created with the scenario's
// fixture, deleted when the last holder (the scenario's session) lets go.
struct ThrowawayOrg {
  ThrowawayOrg(std::string server, TlsOptions tls, const nlohmann::json& request)
      : server_url(std::move(server)), http(tls) {
    HttpResponse res;
    try {
      res = http.send({"POST",
                       server_url + "/__admin/orgs",
                       {{"Accept", "application/json"}, {"Content-Type", "application/json"}},
                       request.dump()});
    } catch (const HttpError& e) {
      throw TargetError("POST " + server_url + "/__admin/orgs: " + e.what());
    }
    auto j = res.json();
    if (res.status != 201 || !j || !j->contains("name") || !j->contains("instance_url"))
      throw TargetError("POST " + server_url + "/__admin/orgs answered " +
                        std::to_string(res.status) + ": " + res.body.substr(0, 300));
    name = (*j)["name"].get<std::string>();
    instance_url = (*j)["instance_url"].get<std::string>();
  }
  ~ThrowawayOrg() {
    try {
      http.send({"DELETE", server_url + "/__admin/orgs/" + name, {}, ""});
    } catch (...) {  // the fake-org is gone: so is the org
    }
  }
  ThrowawayOrg(const ThrowawayOrg&) = delete;
  ThrowawayOrg& operator=(const ThrowawayOrg&) = delete;

  std::string server_url;
  HttpClient http;
  std::string name;
  std::string instance_url;
};

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
  bool parallel() const override { return serves_orgs(); }
  // A throwaway org of a fixture answering in the real package's layouts is
  // checked against the lenient profile, as on the embedded target.
  std::optional<contracts::Profile> scenario_profile(const Scenario& scenario) const override {
    const fake_org::OrgConfig* config = serves_orgs() ? fixtures_.get(scenario) : nullptr;
    if (config && config->org.response_style == fake_org::ResponseStyle::kPackage)
      return contracts::Profile::kLenient;
    return std::nullopt;
  }
  contracts::Profile default_profile() const override { return contracts::Profile::kStrict; }

  std::vector<LoadError> prepare(const std::vector<const Scenario*>& scenarios) override {
    auto errors = fixtures_.load_all(scenarios);
    // Which fixture the running fake serves decides which scenarios fit it.
    HttpClient http(TlsOptions{options_.ca_file});
    try {
      auto res = http.send({"GET", url_ + "/__admin/health", {{"Accept", "application/json"}}, ""});
      auto j = res.json();
      // A real org, a proxy or another server answers too, but not as a
      // fake-org's health does.
      if (res.status != 200 || !j || !j->is_object() || !j->contains("status") ||
          (*j)["status"] != "ok")
        throw TargetError("GET " + url_ + "/__admin/health answered " + std::to_string(res.status) +
                          (res.status == 200 ? " without a fake-org's health fields" : "") +
                          ": this is not a fake-org; for a real org use a sandbox .yaml "
                          "(docs/ci.md)");
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

  std::optional<Served> served() const override {
    if (served_fixture_.empty()) return std::nullopt;
    return Served{served_fixture_, api_version_};
  }

  std::optional<std::string> skip_reason(const Scenario& s) const override {
    return fixture_mismatch(s);
  }

  std::optional<std::string> fixture_mismatch(const Scenario& s) const override {
    if (served_fixture_.empty() || serves_orgs()) return std::nullopt;
    std::string wanted = base_name(FixtureCache::key(s));
    if (wanted == base_name(served_fixture_)) return std::nullopt;
    return "needs fixture " + FixtureCache::key(s) + "; the fake-org at " + url_ + " serves " +
           served_fixture_;
  }

  std::unique_ptr<OrgSession> open(const Scenario& scenario) override {
    if (serves_orgs()) return open_throwaway(scenario);
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
  // True when the fake-org creates orgs (GET /__admin/orgs answers 200);
  // asked once, before the run decides how many scenarios run at a time.
  bool serves_orgs() const {
    std::call_once(orgs_probe_, [this] {
      try {
        HttpClient http(TlsOptions{options_.ca_file});
        auto res = http.send({"GET", url_ + "/__admin/orgs", {{"Accept", "application/json"}}, ""});
        serves_orgs_ = res.status == 200;
      } catch (const HttpError&) {
        serves_orgs_ = false;  // prepare() says that nothing answers
      }
    });
    return serves_orgs_;
  }

  // What POST /__admin/orgs is given for the scenario's fixture: a shipped
  // one by name, a file by its absolute path (the fake-org reads it, so it
  // runs on this machine), served under its prefix only; with a time to
  // live, so a runner killed before it could delete the org (SIGKILL, a
  // cancelled job) does not leave it for good, and who made it, for GET
  // /__admin/orgs to say.
  static nlohmann::json org_request(const Scenario& scenario) {
    std::string fixture = FixtureCache::key(scenario);
    if (!scenario.fixture_path.empty())
      fixture = std::filesystem::absolute(scenario.fixture_path).lexically_normal().string();
    return {{"fixture", fixture},
            {"login_paths", false},
            {"ttl", kThrowawayOrgTtl},
            {"created_by", (runner_identity() + ": " + scenario.file).substr(0, kCreatedByMax)}};
  }

  std::unique_ptr<OrgSession> open_throwaway(const Scenario& scenario) {
    const fake_org::OrgConfig* config = fixtures_.get(scenario);
    if (!config) throw TargetError("fixture " + FixtureCache::key(scenario) + " is not loaded");
    const nlohmann::json request = org_request(scenario);
    auto org = std::make_shared<ThrowawayOrg>(url_, TlsOptions{options_.ca_file}, request);
    SessionConfig sc;
    sc.instance_url = org->instance_url;
    sc.api_base = org->instance_url + config->base_path();
    sc.api_version = config->org.api_version;
    sc.admin = true;
    sc.tls.ca_file = options_.ca_file;
    // The org goes with the scenario, the server stays: the reproduction
    // makes an org like it there (named repro) and sends the request to it.
    Reproduction again;
    again.instance_url = url_ + "/orgs/repro";
    nlohmann::json named = request;
    named["name"] = "repro";
    named["created_by"] = ("a reproduction of " + scenario.file).substr(0, kCreatedByMax);
    const std::string curl =
        options_.ca_file.empty() ? "curl" : "curl --cacert " + shell_quote(options_.ca_file);
    again.setup = curl + " -s -o /dev/null -X DELETE " + url_ + "/__admin/orgs/repro\n" + curl +
                  " -sf -o /dev/null -X POST " + url_ +
                  "/__admin/orgs -H 'Content-Type: application/json' -d " +
                  shell_quote(named.dump()) + "\n" +
                  fixture_token_line(*config, again.instance_url, options_.ca_file);
    // Left behind, it would count against --max-orgs for every run after.
    again.teardown = curl + " -s -o /dev/null -X DELETE " + url_ + "/__admin/orgs/repro\n";
    sc.reproduce = again;
    return std::make_unique<OrgSession>(
        sc, fixture_client_credentials(*config, sc.instance_url, sc.tls), org);
  }

  std::string url_;
  TargetOptions options_;
  FixtureCache fixtures_;
  std::string served_fixture_;
  static constexpr const char* kDefaultBasePath = "/services/apexrest/cpm/v2";
  std::string base_path_ = kDefaultBasePath;
  std::string api_version_ = "59.0";
  mutable std::once_flag orgs_probe_;
  mutable bool serves_orgs_ = false;
};

}  // namespace

std::unique_ptr<Target> make_url_target(const std::string& url, const TargetOptions& options) {
  return std::make_unique<UrlTarget>(url, options);
}

}  // namespace runner
