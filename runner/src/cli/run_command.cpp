#include "cli/run_command.h"

#include <filesystem>
#include <fstream>

#include <CLI/CLI.hpp>

#include "checker/checker.h"
#include "report/console_report.h"
#include "report/json_report.h"
#include "report/junit_report.h"
#include "run/plan.h"
#include "run/suite_runner.h"
#include "targets/target.h"

namespace runner {
namespace {

bool write_file(const std::string& path, const std::string& text, std::ostream& err) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (f) return true;
  err << "cannot write " << path << "\n";
  return false;
}

}  // namespace

std::string version() {
  return RUNNER_VERSION;
}

void add_run_options(CLI::App& app, RunOptions& o) {
  app.set_version_flag("--version", "scenario-runner " + version(),
                       "Print the version (the project's, from CMake) and exit");
  app.add_option("paths", o.paths,
                 "Scenario files or folders (default: every *.yaml under scenarios/)");
  app.add_option("--target,-t", o.targets,
                 "embedded (default: a fresh fake org per scenario), a fake-org URL, or a sandbox "
                 ".yaml; repeat with one sandbox or URL per fixture to run each scenario on the "
                 "org of its fixture")
      ->allow_extra_args(false);  // one value per --target; paths stay positional
  app.add_option("-j,--jobs", o.jobs, "Scenarios run at once (embedded and sandbox targets)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  app.add_option("--shard", o.shard, "Run only shard K of N (K/N), for a CI matrix");
  app.add_option("--tag", o.tags, "Only scenarios with this tag (repeatable: any of them)");
  app.add_option("--name", o.name, "Only scenarios whose name matches this regular expression");
  app.add_flag("--fail-fast", o.fail_fast, "Start no new scenario after a failure");
  app.add_option("--report-junit", o.report_junit, "Write a JUnit XML report to FILE");
  app.add_option("--report-json", o.report_json, "Write a JSON report to FILE");
  app.add_flag("--junit-per-step", o.junit_per_step, "JUnit: one test case per step");
  app.add_flag("-v,--verbose", o.verbose, "Print every step");
  app.add_flag("--list", o.list, "Print the selected scenarios and exit");
  app.add_flag("--allow-all-skipped", o.allow_all_skipped,
               "Exit 0 when every selected scenario is skipped (otherwise exit 3: nothing "
               "was tested)");
  app.add_option("--profile", o.profile,
                 "Contract profile: strict (default for the fake) or lenient (default for a "
                 "sandbox)")
      ->check(CLI::IsMember({"strict", "lenient"}));
  app.add_option("--ca-file", o.ca_file, "Trust this CA (PEM) for HTTPS targets")
      ->check(CLI::ExistingFile);
}

int run_command(const RunOptions& o, std::ostream& out, std::ostream& err) {
  std::vector<std::string> paths = o.paths;
  if (paths.empty()) {
    if (!std::filesystem::is_directory("scenarios")) {
      err << "no scenarios/ folder in " << std::filesystem::current_path().string()
          << "; pass scenario files or folders\n";
      return 2;
    }
    paths = {"scenarios"};
  }
  Selection sel;
  sel.tags = o.tags;
  if (!o.name.empty()) {
    try {
      sel.name = std::regex(o.name);
    } catch (const std::regex_error& e) {
      err << "--name: invalid regular expression: " << e.what() << "\n";
      return 2;
    }
  }
  if (!o.shard.empty()) {
    sel.shard = parse_shard(o.shard);
    if (!sel.shard) {
      err << "--shard takes K/N with 1 <= K <= N, e.g. 1/2; got '" << o.shard << "'\n";
      return 2;
    }
  }

  Plan plan = load_plan(paths);
  std::unique_ptr<Target> target;
  try {
    std::vector<std::unique_ptr<Target>> targets;
    for (const auto& spec : o.targets) targets.push_back(make_target(spec, {o.ca_file}));
    if (targets.empty()) targets.push_back(make_embedded_target());
    target = make_routed_target(std::move(targets));
  } catch (const std::exception& e) {
    err << e.what() << "\n";
    return 2;
  }
  const size_t loaded = plan.scenarios.size();
  std::vector<Scenario> chosen = select(std::move(plan.scenarios), sel);
  std::vector<const Scenario*> ptrs;
  for (const auto& s : chosen) ptrs.push_back(&s);
  try {
    auto more = target->prepare(ptrs);
    plan.errors.insert(plan.errors.end(), more.begin(), more.end());
  } catch (const std::exception& e) {
    err << e.what() << "\n";
    return 2;
  }
  if (!plan.errors.empty()) {
    for (const auto& e : plan.errors) err << e.str() << "\n";
    err << plan.errors.size() << " error(s); nothing was run\n";
    return 2;
  }
  // A run that tests nothing must not look like a green one: a mistyped
  // --tag selected nothing and used to report "0 passed" with exit 0.
  if (chosen.empty()) {
    std::string filters;
    for (const auto& t : o.tags) filters += " --tag " + t;
    if (!o.name.empty()) filters += " --name " + o.name;
    if (!o.shard.empty()) filters += " --shard " + o.shard;
    if (loaded == 0)
      err << "no scenario found in the given paths; nothing was run\n";
    else
      err << "no scenario matches" << filters << " (of " << loaded << " loaded); nothing was run\n";
    return 2;
  }
  if (o.list) {
    for (const auto& s : chosen) {
      out << s.file << "  " << s.name;
      if (auto why = target->skip_reason(s)) out << "  (skipped: " << *why << ")";
      out << "\n";
    }
    out << chosen.size() << " scenario(s)\n";
    return 0;
  }
  if (o.jobs > 1 && !target->parallel())
    out << "note: " << target->describe()
        << " is one shared org, so scenarios run one at a time (-j ignored)\n";

  SuiteOptions so;
  so.jobs = o.jobs;
  so.fail_fast = o.fail_fast;
  if (!o.profile.empty()) so.profile = contracts::profile_from_string(o.profile);
  ConsoleReport console(out, o.verbose);
  RunResult run;
  try {
    run = run_suite(chosen, *target, so, [&](const ScenarioResult& r, size_t done, size_t total) {
      console.progress(r, done, total);
    });
  } catch (const std::exception& e) {
    err << "cannot run: " << e.what() << "\n";
    return 2;
  }
  bool written = true;
  if (!o.report_junit.empty())
    written = write_file(o.report_junit, junit_xml(run, o.junit_per_step), err) && written;
  if (!o.report_json.empty())
    written = write_file(o.report_json, json_report(run).dump(2) + "\n", err) && written;
  console.finish(run);
  if (!written) return 2;
  const RunSummary sum = run.summary();
  if (sum.failed > 0) return 1;
  if (sum.passed == 0 && sum.skipped > 0) {
    // Every selected scenario skipped (the wrong target or fixture, say): CI
    // must not go green with nothing tested unless asked to.
    err << "WARNING: all " << sum.skipped << " selected scenario(s) were skipped on "
        << target->describe() << "; nothing was tested"
        << (o.allow_all_skipped ? " (--allow-all-skipped: exit 0)\n"
                                : ". Exit 3; pass --allow-all-skipped to accept this\n");
    return o.allow_all_skipped ? 0 : 3;
  }
  return 0;
}

}  // namespace runner
