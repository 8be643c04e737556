// The embedded target: a fresh fake org per scenario, in this process, on an
// ephemeral loopback port, configured by the scenario's fixture. Scenarios
// never share records, so they run in parallel.
#include "app/embedded.h"
#include "domain/data/catalogue_check.h"
#include "events/contract_monitor.h"
#include "net/curl.h"
#include "report/failure_text.h"
#include "report/running_binary.h"
#include "targets/fixture_cache.h"
#include "targets/target.h"

namespace runner {
namespace {

// A scenario during which the fake sent something outside the strict
// contract (a response, or a webhook the scenario never awaited) fails with
// the monitor's reports: the fake is the project's statement of the contract.
// So does a record the fake stored that its own catalogue (the fixture's
// objects) could not hold: a real org would have refused to save it.
std::string contract_self_check(fake_org::EmbeddedOrg& org) {
  std::string text;
  const fake_org::ContractMonitor* monitor = org.contract_monitor();
  if (monitor && monitor->violations() > 0) {
    text = "the embedded fake org broke its own contract " + std::to_string(monitor->violations()) +
           " time(s) during this scenario (fix the fake or contracts/schemas):";
    for (const auto& v : monitor->recent()) {
      text += "\n  " + v.value("what", std::string()) + "\n";
      text += indent(v.value("report", std::string()), "    ");
    }
    if (!text.empty() && text.back() == '\n') text.pop_back();
  }
  const std::vector<std::string> misfits = fake_org::catalogue_violations(org.org());
  if (!misfits.empty()) {
    text += std::string(text.empty() ? "" : "\n") +
            "the embedded fake org stored values its own catalogue cannot hold (fix the fake or "
            "the fixture's objects):";
    for (const auto& m : misfits) text += "\n  " + m;
  }
  return text;
}

// The org of a scenario stops with it, so a failure report's curl would
// point at a dead port with a token nobody has: the reproduction starts a
// fake-org with the scenario's fixture (the one beside this binary, on a
// port free when it starts: 8080 may be anyone's), reads its URL from its
// first line into $ORG, takes a token with the fixture's first connected app
// (fixture_client_credentials uses the same) and stops it after the request.
Reproduction reproduction(const fake_org::OrgConfig& config, const std::string& fixture,
                          bool is_file) {
  Reproduction r;
  // Stands for $ORG while the commands are written (with_url_variable).
  r.instance_url = "http://127.0.0.1:0";
  r.url_variable = "ORG";
  const std::string spec = is_file ? fixture : "embedded:" + fixture;
  r.setup = "ORG_LOG=$(mktemp)\n" + sibling_binary("fake-org") + " --fixture " + shell_quote(spec) +
            " --port 0 >\"$ORG_LOG\" & ORG_PID=$!\n";
  // It prints "listening on URL" once it accepts connections: wait for that
  // (5 s at most), or the token request that follows meets nothing.
  r.setup +=
      "for i in $(seq 50); do ORG=$(sed -n 's/^listening on //p' \"$ORG_LOG\"); "
      "[ -n \"$ORG\" ] && break; sleep 0.1; done\n";
  r.setup += with_url_variable(fixture_token_line(config, r.instance_url), r.instance_url, "ORG");
  r.teardown = "kill \"$ORG_PID\"; rm -f \"$ORG_LOG\"\n";
  r.org_stops = true;
  return r;
}

class EmbeddedTarget final : public Target {
 public:
  explicit EmbeddedTarget(bool self_check) : self_check_(self_check) {}
  std::string describe() const override { return "embedded"; }
  bool parallel() const override { return true; }
  contracts::Profile default_profile() const override { return contracts::Profile::kStrict; }
  std::vector<LoadError> prepare(const std::vector<const Scenario*>& scenarios) override {
    return fixtures_.load_all(scenarios);
  }
  std::optional<std::string> skip_reason(const Scenario&) const override { return std::nullopt; }
  std::optional<contracts::Profile> scenario_profile(const Scenario& scenario) const override {
    const fake_org::OrgConfig* config = fixtures_.get(scenario);
    if (config && config->org.response_style == fake_org::ResponseStyle::kPackage)
      return contracts::Profile::kLenient;
    return std::nullopt;
  }

  std::unique_ptr<OrgSession> open(const Scenario& scenario) override {
    const fake_org::OrgConfig* config = fixtures_.get(scenario);
    if (!config) throw TargetError("fixture " + FixtureCache::key(scenario) + " is not loaded");
    std::shared_ptr<fake_org::EmbeddedOrg> org;
    try {
      fake_org::EmbeddedOptions options;
      options.check_contracts = self_check_;
      org = fake_org::EmbeddedOrg::start(*config, std::move(options));
    } catch (const std::exception& e) {
      throw TargetError(std::string("cannot start the embedded fake org: ") + e.what());
    }
    SessionConfig sc;
    sc.instance_url = org->base_url();
    sc.api_base = org->api_base();
    sc.api_version = config->org.api_version;
    sc.admin = true;
    sc.reproduce =
        reproduction(*config, FixtureCache::key(scenario), !scenario.fixture_path.empty());
    auto tokens = fixture_client_credentials(*config, sc.instance_url, sc.tls);
    auto session = std::make_unique<OrgSession>(sc, tokens, org);
    // The session keeps the org alive, so the raw pointer outlives the check.
    if (self_check_)
      session->set_self_check([raw = org.get()] { return contract_self_check(*raw); });
    return session;
  }

 private:
  FixtureCache fixtures_;
  bool self_check_;
};

}  // namespace

std::unique_ptr<Target> make_embedded_target(bool contract_self_check) {
  return std::make_unique<EmbeddedTarget>(contract_self_check);
}

}  // namespace runner
