#include "commands/cli/run_command.h"

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include <CLI/CLI.hpp>

#include "checker/checker.h"
#include "net/interrupt.h"
#include "project_version.h"
#include "report/console_report.h"
#include "report/json_report.h"
#include "report/junit_report.h"
#include "run/plan.h"
#include "run/suite_runner.h"
#include "targets/target.h"
#include "util/json_text.h"

namespace runner {
namespace {

bool write_file(const std::string& path, const std::string& text, std::ostream& err) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (f) return true;
  err << "cannot write " << path << "\n";
  return false;
}

// The paths given, or scenarios/ of the current folder.
std::optional<std::vector<std::string>> scenario_paths(const RunOptions& o, std::ostream& err) {
  if (!o.paths.empty()) return o.paths;
  if (!std::filesystem::is_directory("scenarios")) {
    err << "no scenarios/ folder in " << std::filesystem::current_path().string()
        << "; pass scenario files or folders\n";
    return std::nullopt;
  }
  return std::vector<std::string>{"scenarios"};
}

std::optional<Selection> selection(const RunOptions& o, std::ostream& err) {
  Selection sel;
  sel.tags = o.tags;
  if (!o.name.empty()) {
    try {
      sel.name = std::regex(o.name);
    } catch (const std::regex_error& e) {
      err << "--name: invalid regular expression: " << e.what() << "\n";
      return std::nullopt;
    }
  }
  if (!o.shard.empty()) {
    sel.shard = parse_shard(o.shard);
    if (!sel.shard) {
      err << "--shard takes K/N with 1 <= K <= N, e.g. 1/2; got '" << o.shard << "'\n";
      return std::nullopt;
    }
  }
  return sel;
}

// Every --target in one, or the embedded org; nullptr when one cannot be made.
std::unique_ptr<Target> open_target(const RunOptions& o, std::ostream& err) {
  try {
    std::vector<std::unique_ptr<Target>> targets;
    for (const auto& spec : o.targets) targets.push_back(make_target(spec, {o.ca_file}));
    if (targets.empty()) targets.push_back(make_embedded_target());
    return make_routed_target(std::move(targets));
  } catch (const std::exception& e) {
    err << e.what() << "\n";
    return nullptr;
  }
}

// The target's own checks of the chosen scenarios join the load errors: any
// error stops the run before it starts.
bool ready_to_run(Target& target, const std::vector<Scenario>& chosen,
                  std::vector<LoadError> errors, std::ostream& err) {
  std::vector<const Scenario*> ptrs;
  for (const auto& s : chosen) ptrs.push_back(&s);
  try {
    auto more = target.prepare(ptrs);
    errors.insert(errors.end(), more.begin(), more.end());
  } catch (const std::exception& e) {
    err << e.what() << "\n";
    return false;
  }
  if (errors.empty()) return true;
  for (const auto& e : errors) err << e.str() << "\n";
  err << errors.size() << " error(s); nothing was run\n";
  return false;
}

// A run that tests nothing must not look like a green one (a mistyped --tag
// selects nothing): says which filters left nothing.
void explain_empty_selection(const RunOptions& o, size_t loaded, std::ostream& err) {
  std::string filters;
  for (const auto& t : o.tags) filters += " --tag " + t;
  if (!o.name.empty()) filters += " --name " + o.name;
  if (!o.shard.empty()) filters += " --shard " + o.shard;
  if (loaded == 0)
    err << "no scenario found in the given paths; nothing was run\n";
  else
    err << "no scenario matches" << filters << " (of " << loaded << " loaded); nothing was run\n";
}

void list_scenarios(const std::vector<Scenario>& chosen, const Target& target, std::ostream& out) {
  for (const auto& s : chosen) {
    out << s.file << "  " << s.name;
    if (auto why = target.skip_reason(s)) out << "  (skipped: " << *why << ")";
    out << "\n";
  }
  out << chosen.size() << " scenario(s)\n";
}

std::optional<RunResult> run_scenarios(const RunOptions& o, const std::vector<Scenario>& chosen,
                                       Target& target, ConsoleReport& console, std::ostream& err) {
  SuiteOptions so;
  so.jobs = o.jobs;
  so.fail_fast = o.fail_fast;
  if (!o.profile.empty()) so.profile = contracts::profile_from_string(o.profile);
  try {
    return run_suite(
        chosen, target, so,
        [&](const ScenarioResult& r, size_t done, size_t total) {
          console.progress(r, done, total);
        },
        [&](const Scenario& s) { console.started(s.name); });
  } catch (const std::exception& e) {
    err << "cannot run: " << e.what() << "\n";
    return std::nullopt;
  }
}

// Every report asked for, each tried even when another fails.
bool write_reports(const RunOptions& o, const RunResult& run, std::ostream& err) {
  bool written = true;
  if (!o.report_junit.empty())
    written = write_file(o.report_junit, junit_xml(run, o.junit_per_step), err) && written;
  if (!o.report_json.empty())
    written =
        write_file(o.report_json, fake_org::text::json_text(json_report(run), 2) + "\n", err) &&
        written;
  return written;
}

int exit_code(const RunOptions& o, const RunSummary& sum, const Target& target, std::ostream& err) {
  if (sum.failed > 0) return 1;
  if (sum.passed == 0 && sum.skipped > 0) {
    // Every selected scenario skipped (the wrong target or fixture, say): CI
    // must not go green with nothing tested unless asked to.
    err << "WARNING: all " << sum.skipped << " selected scenario(s) were skipped on "
        << target.describe() << "; nothing was tested"
        << (o.allow_all_skipped ? " (--allow-all-skipped: exit 0)\n"
                                : ". Exit 3; pass --allow-all-skipped to accept this\n");
    return o.allow_all_skipped ? 0 : 3;
  }
  return 0;
}

// A run stopped by SIGINT/SIGTERM: its reports were written (partial), and
// the exit status is the shell's for that signal (130, 143).
int interrupted_exit(const RunResult& run, std::ostream& err) {
  size_t not_run = 0;
  for (const auto& r : run.scenarios) not_run += r.not_run ? 1 : 0;
  err << "interrupted by " << run.interrupted << ": " << not_run << " of " << run.scenarios.size()
      << " scenario(s) not started, the running ones stopped and their orgs deleted; the "
         "reports are partial\n";
  return 128 + interrupt::received();
}

int run_and_report(const RunOptions& o, const std::vector<Scenario>& chosen, Target& target,
                   std::ostream& out, std::ostream& err, bool& reported) {
  if (o.jobs > 1 && !target.parallel())
    out << "note: " << target.describe()
        << " is one shared org, so scenarios run one at a time (-j ignored)\n";
  ConsoleReport console(out, o.verbose, o.console);
  console.begin(chosen.size());
  const std::optional<RunResult> run = run_scenarios(o, chosen, target, console, err);
  if (!run) return 2;
  reported = true;
  const bool written = write_reports(o, *run, err);
  console.finish(*run);
  if (!written) return 2;
  if (!run->interrupted.empty()) return interrupted_exit(*run, err);
  return exit_code(o, run->summary(), target, err);
}

}  // namespace

std::string version() {
  return std::string(FAKE_CRM_ORG_VERSION) + " (git " + FAKE_CRM_ORG_GIT_COMMIT + ")";
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
  app.add_option(
         "-j,--jobs", o.jobs,
         "Scenarios run at once, on every target (a fake-org URL gives each its own throwaway "
         "org; a fake-org without POST /__admin/orgs runs one at a time)")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  app.add_option("--shard", o.shard, "Run only shard K of N (K/N), for a CI matrix");
  app.add_option("--tag", o.tags, "Only scenarios with this tag (repeatable: any of them)");
  app.add_option("--name", o.name, "Only scenarios whose name matches this regular expression");
  app.add_flag("--fail-fast", o.fail_fast, "Start no new scenario after a failure");
  app.add_option("--report-junit", o.report_junit, "Write a JUnit XML report to FILE");
  app.add_option("--report-json", o.report_json, "Write a JSON report to FILE");
  app.add_flag("--junit-per-step", o.junit_per_step, "JUnit: one test case per step");
  app.add_flag("-v,--verbose", o.verbose,
               "Print every step with its request and response bodies, secrets redacted");
  app.add_flag("--no-progress", o.no_progress,
               "On a terminal too, a plain line per scenario instead of the live progress line");
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

namespace {

// A run that stops before any scenario (no fake-org at the URL, a load
// error, nothing selected) still leaves its reports, so CI shows why instead
// of "no test results": one failed case holding the messages.
void write_stop_reports(const RunOptions& o, const std::string& why, std::ostream& err) {
  RunResult stopped;
  stopped.target = o.targets.empty() ? "embedded" : o.targets.front();
  ScenarioResult r;
  r.file = "scenario-runner";
  r.name = "the run did not start";
  r.outcome = Outcome::kFailed;
  r.error = why.empty() ? "the run stopped before any scenario" : why;
  while (!r.error.empty() && r.error.back() == '\n') r.error.pop_back();
  stopped.scenarios.push_back(r);
  write_reports(o, stopped, err);
}

// An empty shard of a CI matrix with --allow-all-skipped: nothing to run is
// the expected answer; the reports say that nothing ran.
int empty_shard(const RunOptions& o, std::ostream& err) {
  RunResult none;
  none.target = o.targets.empty() ? "embedded" : o.targets.front();
  err << "shard " << o.shard << " selects no scenario; --allow-all-skipped: exit 0\n";
  return write_reports(o, none, err) ? 0 : 2;
}

int run_selected(const RunOptions& o, std::ostream& out, std::ostream& err, bool& reported) {
  const std::optional<std::vector<std::string>> paths = scenario_paths(o, err);
  if (!paths) return 2;
  const std::optional<Selection> sel = selection(o, err);
  if (!sel) return 2;
  Plan plan = load_plan(*paths);
  const std::unique_ptr<Target> target = open_target(o, err);
  if (!target) return 2;
  const size_t loaded = plan.scenarios.size();
  const std::vector<Scenario> chosen = select(std::move(plan.scenarios), *sel);
  if (!ready_to_run(*target, chosen, std::move(plan.errors), err)) return 2;
  if (chosen.empty()) {
    if (loaded > 0 && !o.shard.empty() && o.allow_all_skipped) {
      reported = true;
      return empty_shard(o, err);
    }
    explain_empty_selection(o, loaded, err);
    return 2;
  }
  if (o.list) {
    list_scenarios(chosen, *target, out);
    return 0;
  }
  return run_and_report(o, chosen, *target, out, err, reported);
}

}  // namespace

void handle_interrupts() {
  interrupt::install();
}

int run_command(const RunOptions& o, std::ostream& out, std::ostream& err) {
  bool reported = false;
  if (o.report_junit.empty() && o.report_json.empty()) return run_selected(o, out, err, reported);
  // What stops the run early is kept for its reports as well as printed.
  std::ostringstream said;
  const int code = run_selected(o, out, said, reported);
  err << said.str();
  if (code == 2 && !o.list && !reported) write_stop_reports(o, said.str(), err);
  return code;
}

}  // namespace runner
