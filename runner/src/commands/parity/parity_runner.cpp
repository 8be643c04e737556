#include "commands/parity/parity_runner.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "targets/fixture_cache.h"

#include "run/plan.h"
#include "run/suite_runner.h"

namespace runner::parity {
namespace {

// `embedded:FIXTURE` runs every scenario on the embedded fake with that
// fixture instead of its own, so two fixtures can be compared; a running
// fake-org's side runs every scenario on the fixture it serves.
struct Side {
  std::unique_ptr<Target> target;
  std::string fixture;  // override, empty for none
  std::string describe;
  std::vector<std::string> stands_for;  // fixture_lineage(fixture).names
  SideFacts facts;
};

// Why a scenario is left out when a side forces a fixture: its own fixture is
// neither the forced one nor one the forced one extends, so the two sides
// would compare different org configurations, not the orgs (a nonprofit
// scenario on a fixture made from default.yaml fails for reasons nobody asked
// about).
std::optional<std::string> fixture_mismatch(const Scenario& s, const Side& side,
                                            const std::string& label) {
  if (side.fixture.empty()) return std::nullopt;
  const std::string own = FixtureCache::key(s);
  const std::string name = std::filesystem::path(own).filename().string();
  if (own == side.fixture ||
      std::find(side.stands_for.begin(), side.stands_for.end(), name) != side.stands_for.end())
    return std::nullopt;
  return "its fixture " + name + " is not what " + label + " forces (" + side.fixture +
         (side.stands_for.size() > 1 ? ", which extends " + side.stands_for[1] : "") + ")";
}

// The side runs every scenario on `fixture`; throws TargetError when it does
// not load.
void force_fixture(Side& side, const std::string& fixture, const std::string& label) {
  const FixtureLineage lineage = fixture_lineage(fixture);
  if (!lineage.error.empty())
    throw TargetError(label + ": fixture " + fixture + " does not load:\n" + lineage.error);
  side.fixture = lineage.fixture;
  side.stands_for = lineage.names;
  side.facts.fixture = lineage.fixture;
  if (lineage.names.size() > 1) side.facts.fixture += ", which extends " + lineage.names[1];
  side.facts.api_version = lineage.api_version;
}

// A running fake-org's side compares the org it serves: every scenario runs
// in an org of the fixture served at its root (each scenario on its own
// fixture would compare two copies of the same fixtures, whatever the URLs
// serve). The fixture must be readable here to know its credentials.
void follow_served_fixture(Side& side, const std::string& label) {
  side.target->prepare({});
  const auto served = side.target->served();
  if (!served) return;  // an old fake-org that does not say: each scenario's own
  std::string fixture = served->fixture;
  const std::string prefix = "embedded:";
  std::error_code ec;
  if (fixture.rfind(prefix, 0) != 0 && !std::filesystem::is_regular_file(fixture, ec))
    throw TargetError(label + ": the fake-org at " + side.describe + " serves the fixture file " +
                      fixture +
                      ", which is not readable from here; run parity in the folder that fake-org "
                      "was started in, start it with an absolute --fixture path, or compare the "
                      "fixtures with --target embedded:FIXTURE");
  force_fixture(side, fixture, label);
  side.facts.api_version = served->api_version;
  side.facts.fixture += " (served at the root)";
}

bool is_url_target_spec(const std::string& spec) {
  return spec.rfind("http://", 0) == 0 || spec.rfind("https://", 0) == 0;
}

Side make_side(const std::string& spec, const std::string& ca_file, const std::string& label) {
  Side s;
  const std::string prefix = "embedded:";
  if (spec.rfind(prefix, 0) == 0) {
    // Parity turns contract checks off (for_parity); the fake's own too.
    s.target = make_embedded_target(/*contract_self_check=*/false);
    force_fixture(s, spec.substr(prefix.size()), label);
    s.describe = "embedded";
  } else {
    s.target = make_target(spec, TargetOptions{ca_file});
    s.describe = s.target->describe();
    s.facts.fixture = "each scenario's own";
    s.facts.api_version = "each fixture's own";
    if (is_url_target_spec(spec)) follow_served_fixture(s, label);
  }
  s.facts.target = s.describe;
  return s;
}

// The scenario as parity runs it: no expectations or contract checks, and
// the side's fixture.
Scenario for_parity(Scenario s, const std::string& fixture) {
  if (!fixture.empty()) {
    s.fixture = fixture;
    s.fixture_path.clear();
    if (std::filesystem::is_regular_file(fixture))
      s.fixture_path = std::filesystem::path(fixture).lexically_normal().string();
  }
  for (auto& step : s.steps) {
    if (auto* r = std::get_if<RequestStep>(&step.body)) {
      SourcePos pos = r->expect.pos;
      r->expect = Expectation{};
      r->expect.contract = false;
      r->expect.status = Json{{"$type", "integer"}};  // any status, not just 2xx
      r->expect.pos = pos;
    } else if (auto* p = std::get_if<PollStep>(&step.body)) {
      p->expect.contract = false;
      if (p->halt) p->halt->contract = false;
    } else if (auto* w = std::get_if<AwaitWebhookStep>(&step.body)) {
      w->contract = false;
    }
  }
  return s;
}

// Loads the side's fixtures and asks the target what it serves (a running
// fake-org reports its fixture only here), so skip_reason() means something
// only afterwards.
void prepare_side(Side& side, const std::vector<Scenario>& mine, std::vector<std::string>& errors) {
  std::vector<const Scenario*> ptrs;
  for (const auto& s : mine) ptrs.push_back(&s);
  for (const auto& e : side.target->prepare(ptrs)) errors.push_back(side.describe + ": " + e.str());
}

RunResult run_side(Side& side, const std::vector<Scenario>& mine, int jobs) {
  SuiteOptions so;
  so.jobs = jobs;
  so.profile = contracts::Profile::kLenient;
  return run_suite(mine, *side.target, so);
}

}  // namespace

size_t ParityResult::unallowed() const {
  size_t n = 0;
  for (const auto& d : differences) n += d.allowed ? 0 : 1;
  return n;
}

std::vector<Difference> compare_runs(const RunResult& a, const RunResult& b) {
  std::vector<Difference> out;
  for (size_t i = 0; i < a.scenarios.size() && i < b.scenarios.size(); ++i) {
    const ScenarioResult& sa = a.scenarios[i];
    const ScenarioResult& sb = b.scenarios[i];
    if (sa.outcome == Outcome::kSkipped || sb.outcome == Outcome::kSkipped) continue;
    std::vector<Difference> here;
    if (sa.error != sb.error) {
      Difference d;
      d.kind = "step";
      d.a = sa.error.empty() ? "set up" : sa.error;
      d.b = sb.error.empty() ? "set up" : sb.error;
      here.push_back(d);
    }
    for (size_t k = 0; k < sa.steps.size() && k < sb.steps.size(); ++k) {
      auto d = compare_steps(sa.steps[k], sb.steps[k]);
      here.insert(here.end(), d.begin(), d.end());
    }
    for (auto& d : here) {
      d.file = sa.file;
      d.scenario = sa.name;
    }
    out.insert(out.end(), here.begin(), here.end());
  }
  return out;
}

ParityResult run_parity(const ParityOptions& o, std::vector<std::string>& errors) {
  ParityResult result;
  Plan plan = load_plan(o.paths);
  for (const auto& e : plan.errors) errors.push_back(e.str());
  if (!errors.empty()) return result;
  Side a, b;
  try {
    a = make_side(o.a, o.ca_file, "A");
    b = make_side(o.b, o.ca_file, "B");
  } catch (const std::exception& e) {
    errors.push_back(e.what());
    return result;
  }
  result.a = a.describe;
  result.b = b.describe;
  result.side_a = a.facts;
  result.side_b = b.facts;
  result.scenarios = plan.scenarios.size();
  std::vector<Scenario> all_a, all_b;
  for (const auto& s : plan.scenarios) {
    all_a.push_back(for_parity(s, a.fixture));
    all_b.push_back(for_parity(s, b.fixture));
  }
  try {
    // Before any skip_reason(): a running fake-org says which fixture it
    // serves only when prepared, and asked earlier it fits everything.
    prepare_side(a, all_a, errors);
    prepare_side(b, all_b, errors);
  } catch (const std::exception& e) {
    errors.push_back(e.what());
  }
  if (!errors.empty()) return result;
  // A scenario one side cannot run is left out on both and listed (with
  // the first reason); the counts say how many each side cannot run.
  std::vector<Scenario> mine_a, mine_b;
  std::vector<std::string> files;
  for (size_t i = 0; i < plan.scenarios.size(); ++i) {
    const Scenario& s = plan.scenarios[i];
    auto why_a = fixture_mismatch(s, a, "A");
    if (!why_a) why_a = a.target->skip_reason(all_a[i]);
    auto why_b = fixture_mismatch(s, b, "B");
    if (!why_b) why_b = b.target->skip_reason(all_b[i]);
    if (why_a) ++result.skipped_a;
    if (why_b) ++result.skipped_b;
    if (why_a || why_b) {
      result.skipped.push_back(s.file + ": " + (why_a ? *why_a : *why_b));
      continue;
    }
    mine_a.push_back(std::move(all_a[i]));
    mine_b.push_back(std::move(all_b[i]));
  }
  try {
    RunResult ra = run_side(a, mine_a, o.jobs);
    RunResult rb = run_side(b, mine_b, o.jobs);
    // Skipped while running (not foreseen above): listed too, never dropped.
    for (size_t i = 0; i < ra.scenarios.size() && i < rb.scenarios.size(); ++i) {
      const ScenarioResult& sa = ra.scenarios[i];
      const ScenarioResult& sb = rb.scenarios[i];
      if (sa.outcome == Outcome::kSkipped) ++result.skipped_a;
      if (sb.outcome == Outcome::kSkipped) ++result.skipped_b;
      if (sa.outcome == Outcome::kSkipped || sb.outcome == Outcome::kSkipped)
        result.skipped.push_back(
            sa.file + ": " +
            (sa.outcome == Outcome::kSkipped ? "A: " + sa.skip_reason : "B: " + sb.skip_reason));
      else
        ++result.compared;
    }
    result.differences = compare_runs(ra, rb);
  } catch (const std::exception& e) {
    errors.push_back(std::string("cannot run: ") + e.what());
  }
  return result;
}

}  // namespace runner::parity
