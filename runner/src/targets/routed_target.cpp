// Several single-configuration targets behind one: `--target sandbox-default.yaml
// --target sandbox-nonprofit.yaml` runs each scenario on the org whose fixture
// it was written for, so one run (one report, one exit status) covers a suite
// that needs several org configurations.
//
// Locking: targets_ is fixed at construction; prepare() runs before any
// scenario; afterwards only const methods and the sub-targets' open() (each
// safe for concurrent use) are called.
#include <set>

#include "targets/target.h"

namespace runner {
namespace {

class RoutedTarget final : public Target {
 public:
  explicit RoutedTarget(std::vector<std::unique_ptr<Target>> targets)
      : targets_(std::move(targets)) {}

  std::string describe() const override {
    std::string d;
    for (const auto& t : targets_) d += (d.empty() ? "" : " + ") + t->describe();
    return d;
  }
  bool parallel() const override {
    for (const auto& t : targets_)
      if (!t->parallel()) return false;
    return true;
  }
  contracts::Profile default_profile() const override {
    return targets_.front()->default_profile();
  }

  std::vector<LoadError> prepare(const std::vector<const Scenario*>& scenarios) override {
    // Every target sees every scenario: which fixture a running fake-org
    // serves is only known after its prepare(), and routing needs it.
    std::vector<LoadError> out;
    std::set<std::string> seen;
    for (const auto& t : targets_)
      for (auto& e : t->prepare(scenarios))
        if (seen.insert(e.str()).second) out.push_back(std::move(e));
    return out;
  }

  std::optional<std::string> fixture_mismatch(const Scenario& s) const override {
    if (pick(s)) return std::nullopt;
    std::string why = "no --target fits its fixture:";
    for (const auto& t : targets_) why += "\n  " + *t->fixture_mismatch(s);
    return why;
  }

  std::optional<std::string> skip_reason(const Scenario& s) const override {
    if (const Target* t = pick(s)) return t->skip_reason(s);
    return fixture_mismatch(s);
  }

  std::unique_ptr<OrgSession> open(const Scenario& s) override {
    Target* t = pick(s);
    if (!t) throw TargetError(*fixture_mismatch(s));
    return t->open(s);
  }

 private:
  // The first target whose org configuration fits the scenario.
  Target* pick(const Scenario& s) const {
    for (const auto& t : targets_)
      if (!t->fixture_mismatch(s)) return t.get();
    return nullptr;
  }

  std::vector<std::unique_ptr<Target>> targets_;
};

}  // namespace

std::unique_ptr<Target> make_routed_target(std::vector<std::unique_ptr<Target>> targets) {
  if (targets.empty()) throw TargetError("no target given");
  if (targets.size() == 1) return std::move(targets.front());
  return std::make_unique<RoutedTarget>(std::move(targets));
}

}  // namespace runner
