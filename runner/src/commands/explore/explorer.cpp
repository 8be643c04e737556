#include "commands/explore/explorer.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "commands/explore/mutations.h"
#include "commands/explore/operations.h"
#include "commands/explore/scenario_writer.h"
#include "commands/explore/sequences.h"
#include "commands/explore/sweep.h"
#include "net/interrupt.h"
#include "run/suite_runner.h"

namespace runner::explore {

namespace {

using ExploreClock = std::chrono::steady_clock;

std::string explore_op_id(const std::string& name) {
  const Operation* op = find_operation(name);
  return op ? op->operation_id : name;
}

std::string explore_signature(const Case& c, const CheckFailure& f) {
  const std::string op = c.meta.size() > f.step ? c.meta[f.step].op : c.operation();
  // The near-miss's family names the failure only where the changed request failed
  // (or the counts around it did): an earlier step failed whatever came after.
  const bool changed = f.step < c.meta.size() && (c.meta[f.step].focus || op.empty());
  return f.check + " " + explore_op_id(op.empty() ? c.operation() : op) +
         (c.family.empty() || !changed ? "" : " " + c.family);
}

// The suite's result for a case, its failures replaced by the checks'.
void explore_apply_judgement(ScenarioResult& r, const Judgement& j) {
  for (auto& s : r.steps) s.failures.clear();
  r.error.clear();
  for (const auto& f : j.failures)
    if (f.step < r.steps.size()) {
      r.steps[f.step].failures.emplace_back(f.check, f.message);
      r.steps[f.step].outcome = Outcome::kFailed;
    }
  if (r.outcome == Outcome::kSkipped) return;
  for (auto& s : r.steps)
    if (s.outcome == Outcome::kFailed && s.failures.empty()) s.outcome = Outcome::kPassed;
  r.outcome = j.failures.empty() ? Outcome::kPassed : Outcome::kFailed;
}

int explore_focus_status(const Case& c, const ScenarioResult& r) {
  for (size_t i = 0; i < r.steps.size() && i < c.meta.size(); ++i)
    if (c.meta[i].focus && r.steps[i].exchange && r.steps[i].exchange->response)
      return r.steps[i].exchange->response->status;
  return 0;
}

int explore_status_of(const ScenarioResult& r, size_t step) {
  if (step >= r.steps.size() || !r.steps[step].exchange || !r.steps[step].exchange->response)
    return 0;
  return r.steps[step].exchange->response->status;
}

struct ExploreCaseRunner {
  Target& target;
  const ExploreOptions& o;
  const contracts::Checker* checker;

  RunResult run(const std::vector<Case>& cases) const {
    std::vector<Scenario> scenarios;
    for (const auto& c : cases) scenarios.push_back(c.scenario);
    SuiteOptions so;
    so.jobs = o.jobs;
    so.profile = o.profile;
    return run_suite(scenarios, target, so);
  }
  // The same check fails on the same step with the same status: a cut
  // that turns one failure into another is not kept.
  bool fails(const Case& c, const std::string& check, const std::string& step, int status) const {
    RunResult r = run({c});
    if (r.scenarios.empty()) return false;
    const ScenarioResult& sr = r.scenarios.front();
    const Judgement j = judge_case(c, sr, checker);
    for (const auto& f : j.failures)
      if (f.check == check && c.scenario.steps[f.step].name == step)
        return status == 0 || explore_status_of(sr, f.step) == status;
    return false;
  }
};

void explore_count(ExploreRun& out, const Case& c, const Judgement& j) {
  Counts& op = out.by_operation[explore_op_id(c.operation())];
  ++op.cases;
  if (!j.failures.empty()) ++op.failed;
  for (const auto& name : j.applied) ++out.by_check[name].cases;
  for (const auto& f : j.failures) ++out.by_check[f.check].failed;
}

void explore_note_findings(ExploreRun& out, const Case& c, const ScenarioResult& r,
                           const Judgement& j) {
  for (const auto& f : j.failures) {
    const std::string sig = explore_signature(c, f);
    bool seen = false;
    for (auto& fd : out.findings)
      if (fd.signature == sig) {
        ++fd.hits;
        seen = true;
      }
    if (seen) continue;
    Finding fd;
    fd.signature = sig;
    fd.failure = f;
    fd.original = c;
    fd.hits = 1;
    fd.status = explore_status_of(r, f.step);
    out.findings.push_back(std::move(fd));
  }
}

std::string explore_file_name(const Finding& f, size_t n) {
  std::string s = f.signature;
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return std::to_string(n + 1) + "_" + s + ".yaml";
}

// A valid case's request stays as the generator made it (cut, it is no
// longer valid), and so do the reads a rule checks.
bool explore_cuts_members(const std::string& check) {
  return check == "no_5xx" || check == "declared_status" || check == "contract" ||
         check == "refused_write_unchanged";
}

void explore_shrink_and_write(Finding& f, size_t n, const ExploreCaseRunner& runner,
                              const ExploreOptions& o) {
  const std::string step = f.original.scenario.steps[f.failure.step].name;
  f.shrunk = shrink_case(
      f.original, step,
      [&](const Case& c) { return runner.fails(c, f.failure.check, step, f.status); },
      o.shrink_tries, f.shrink, explore_cuts_members(f.failure.check));
  // The failure as the shrunk case shows it: its step, its message, the near-miss's answer.
  RunResult r = runner.run({f.shrunk});
  WriteContext w;
  w.command = o.command;
  CheckFailure failure = f.failure;
  failure.step = step_named(f.shrunk, step);
  if (!r.scenarios.empty()) {
    w.focus_status = explore_focus_status(f.shrunk, r.scenarios.front());
    for (const auto& jf : judge_case(f.shrunk, r.scenarios.front(), runner.checker).failures)
      if (jf.check == failure.check && jf.step == failure.step) failure.message = jf.message;
  }
  f.yaml = scenario_yaml(f.shrunk, failure, w, f.write_error);
  if (f.yaml.empty() || o.out_dir.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(o.out_dir, ec);
  const std::string path = (std::filesystem::path(o.out_dir) / explore_file_name(f, n)).string();
  std::ofstream file(path, std::ios::binary);
  file << f.yaml;
  if (file)
    f.file = path;
  else
    f.write_error = "cannot write " + path;
}

Case explore_pick_case(const TargetFacts& facts, uint64_t seed, size_t index,
                       unsigned near_miss_percent) {
  // A run that is only valid cases, or only near-misses, has no sweep.
  const bool mixed = near_miss_percent > 0 && near_miss_percent < 100;
  if (auto swept = mixed ? sweep_case(facts, seed, index) : std::nullopt) return *swept;
  Case valid = valid_case(facts, seed, index);
  Rng rng = Rng::for_case(seed ^ 0x6B696E64ULL, index);
  if (!rng.chance(near_miss_percent)) return valid;
  // A near-miss needs a request a family can change: the first of a few
  // valid cases (their own indexes far apart) that has one.
  for (uint64_t k = 0; k < 8; ++k) {
    Case c = near_miss_case(valid, seed, index);
    if (!c.mutation.empty()) return c;
    valid = valid_case(facts, seed ^ (0x51ED27ULL * (k + 1)), index);
    valid.index = index;
  }
  return valid;
}

}  // namespace

Case make_case(const TargetFacts& facts, uint64_t seed, size_t index, unsigned near_miss_percent) {
  Case c = explore_pick_case(facts, seed, index, near_miss_percent);
  c.scenario.name = "explore " + std::to_string(seed) + "/" + std::to_string(index) +
                    (c.mutation.empty() ? "" : " near-miss");
  c.scenario.file = "explore/" + std::to_string(seed) + "/" + std::to_string(index);
  return c;
}

ExploreRun explore(Target& target, const TargetFacts& facts, const ExploreOptions& o) {
  const auto start = ExploreClock::now();
  ExploreRun out;
  out.facts = facts;
  Scenario probe;
  probe.fixture = o.fixture;
  const auto profile =
      o.profile.value_or(target.scenario_profile(probe).value_or(target.default_profile()));
  auto checker = contracts::Checker::embedded(profile);
  ExploreCaseRunner runner{target, o, checker.get()};
  out.run.target = out.raw.target = target.describe();
  out.run.profile = contracts::to_string(profile);
  const size_t batch = std::max<size_t>(8, 4 * static_cast<size_t>(o.jobs));
  auto elapsed = [&] { return std::chrono::duration<double>(ExploreClock::now() - start).count(); };
  for (size_t next = 0; !interrupt::received();) {
    if (o.seconds > 0 ? elapsed() >= o.seconds : next >= o.cases) break;
    const size_t n = o.seconds > 0 ? batch : std::min(batch, o.cases - next);
    std::vector<Case> cases;
    for (size_t i = 0; i < n; ++i) {
      cases.push_back(make_case(facts, o.seed, next + i, o.near_miss_percent));
      Case& c = cases.back();
      c.scenario.fixture = o.fixture;
      c.scenario.steps.insert(c.scenario.steps.begin(), o.prelude.begin(), o.prelude.end());
      c.meta.insert(c.meta.begin(), o.prelude.size(), StepMeta{"", "", false, true});
    }
    next += n;
    RunResult r = runner.run(cases);
    for (size_t i = 0; i < cases.size() && i < r.scenarios.size(); ++i) {
      out.raw.scenarios.push_back(r.scenarios[i]);
      Judgement j = judge_case(cases[i], r.scenarios[i], checker.get());
      explore_count(out, cases[i], j);
      explore_note_findings(out, cases[i], r.scenarios[i], j);
      explore_apply_judgement(r.scenarios[i], j);
      out.run.scenarios.push_back(std::move(r.scenarios[i]));
      out.judgements.push_back(std::move(j));
      out.cases.push_back(std::move(cases[i]));
    }
  }
  for (size_t i = 0; i < out.findings.size() && !interrupt::received(); ++i)
    explore_shrink_and_write(out.findings[i], i, runner, o);
  out.seconds = elapsed();
  out.run.ms = out.seconds * 1000;
  out.run.interrupted = interrupt::received_name();
  return out;
}

}  // namespace runner::explore
