// The embedded target: a fresh fake org per scenario, in this process, on an
// ephemeral loopback port, configured by the scenario's fixture. Scenarios
// never share records, so they run in parallel.
#include "embedded.h"
#include "targets/fixture_cache.h"
#include "targets/target.h"

namespace runner {
namespace {

class EmbeddedTarget final : public Target {
 public:
  std::string describe() const override { return "embedded"; }
  bool parallel() const override { return true; }
  contracts::Profile default_profile() const override { return contracts::Profile::kStrict; }
  std::vector<LoadError> prepare(const std::vector<const Scenario*>& scenarios) override {
    return fixtures_.load_all(scenarios);
  }
  std::optional<std::string> skip_reason(const Scenario&) const override { return std::nullopt; }

  std::unique_ptr<OrgSession> open(const Scenario& scenario) override {
    const fake_org::OrgConfig* config = fixtures_.get(scenario);
    if (!config) throw TargetError("fixture " + FixtureCache::key(scenario) + " is not loaded");
    std::shared_ptr<fake_org::EmbeddedOrg> org;
    try {
      org = fake_org::EmbeddedOrg::start(*config);
    } catch (const std::exception& e) {
      throw TargetError(std::string("cannot start the embedded fake org: ") + e.what());
    }
    SessionConfig sc;
    sc.instance_url = org->base_url();
    sc.api_base = org->api_base();
    sc.admin = true;
    auto tokens = fixture_client_credentials(*config, sc.instance_url, sc.tls);
    return std::make_unique<OrgSession>(sc, tokens, org);
  }

 private:
  FixtureCache fixtures_;
};

}  // namespace

std::unique_ptr<Target> make_embedded_target() {
  return std::make_unique<EmbeddedTarget>();
}

}  // namespace runner
