#include "commands/explore/explore_command.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "commands/explore/explore_report.h"
#include "commands/parity/allow_list.h"
#include "commands/parity/parity_report.h"
#include "commands/parity/parity_runner.h"
#include "net/interrupt.h"
#include "report/console_report.h"
#include "report/junit_report.h"
#include "run/suite_runner.h"
#include "scenario/loader.h"
#include "util/json_text.h"

namespace runner::explore {

namespace {

struct ExploreSide {
  std::unique_ptr<Target> target;
  std::string fixture;
};

// As parity reads a target: embedded (without the fake's own self-check:
// the checks are explore's), embedded:FIXTURE, a URL, a sandbox file.
ExploreSide explore_side(const std::string& spec, const std::string& ca_file) {
  ExploreSide s;
  const std::string prefix = "embedded";
  if (spec.rfind(prefix, 0) == 0 && (spec.size() == prefix.size() || spec[prefix.size()] == ':')) {
    s.target = make_embedded_target(/*contract_self_check=*/false);
    if (spec.size() > prefix.size()) s.fixture = spec.substr(prefix.size() + 1);
  } else {
    s.target = make_target(spec, TargetOptions{ca_file});
  }
  Scenario probe;
  probe.name = "explore";
  probe.file = "explore";
  probe.fixture = s.fixture;
  const auto errors = s.target->prepare({&probe});
  if (!errors.empty()) throw TargetError(errors.front().str());
  return s;
}

std::string explore_command_line(const ExploreCommandOptions& o) {
  std::ostringstream s;
  s << "scenario-runner explore --seed " << o.seed << " --budget " << o.budget;
  if (o.target != "embedded") s << " --target " << o.target;
  return s.str();
}

int explore_write(const std::string& path, const std::string& text, std::ostream& err) {
  if (path.empty()) return 0;
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (f) return 0;
  err << "cannot write " << path << "\n";
  return 2;
}

// What two targets may answer differently to the same case, by nature: a
// Bulk job read right after its create shows the state it has reached, at
// each org's own pace.
const parity::AllowList& explore_allowances() {
  static const parity::AllowList list = parity::AllowList::load_text(
      "allow:\n"
      "  - reason: a Bulk job read right after its create shows the state the org's own pace "
      "reached\n"
      "    kind: enum\n"
      "    step: \"^read(Ingest|Query)Job\"\n"
      "    path: /state\n",
      "explore");
  return list;
}

// The same cases on the second target, compared step by step as parity does.
size_t explore_against(const ExploreRun& a, const ExploreCommandOptions& o, ExploreSide& b,
                       const std::optional<contracts::Profile>& profile, std::ostream& out,
                       nlohmann::json& report) {
  std::vector<Scenario> scenarios;
  for (const auto& c : a.cases) {
    scenarios.push_back(c.scenario);
    scenarios.back().fixture = b.fixture;
  }
  SuiteOptions so;
  so.jobs = o.jobs;
  so.profile = profile;
  RunResult rb = run_suite(scenarios, *b.target, so);
  parity::ParityResult pr;
  pr.a = a.raw.target;
  pr.b = b.target->describe();
  pr.side_a = {pr.a, o.target, a.facts.api_version};
  pr.side_b = {pr.b, o.against, ""};
  pr.scenarios = pr.compared = scenarios.size();
  pr.differences = parity::compare_runs(a.raw, rb);
  explore_allowances().apply(pr.differences);
  out << "\n";
  parity::print_table(pr, out);
  report["against"] = parity::json_report(pr);
  return pr.unallowed();
}

}  // namespace

bool parse_budget(const std::string& text, size_t& cases, double& seconds) {
  if (text.empty()) return false;
  const bool secs = text.back() == 's';
  const std::string digits = secs ? text.substr(0, text.size() - 1) : text;
  if (digits.empty() || digits.size() > 9 ||
      digits.find_first_not_of("0123456789") != std::string::npos)
    return false;
  const size_t n = std::stoul(digits);
  if (n == 0) return false;
  if (secs) {
    seconds = static_cast<double>(n);
  } else {
    cases = n;
  }
  return true;
}

CLI::App* add_explore_command(CLI::App& app, ExploreCommandOptions& o) {
  CLI::App* sub = app.add_subcommand(
      "explore",
      "Generate requests and sequences from the route table (valid ones and near-misses), check "
      "every answer, and write each failure, shrunk, as a scenario");
  sub->add_option("--target,-t", o.target,
                  "embedded (default), embedded:FIXTURE, a fake-org URL, or a sandbox .yaml");
  sub->add_option("--against", o.against,
                  "Run the same cases on this target too and report where the answers differ");
  sub->add_option("--seed", o.seed, "The cases are the same for the same seed")
      ->capture_default_str();
  sub->add_option("--budget", o.budget, "Cases (200) or seconds (30s)")->capture_default_str();
  sub->add_option("-j,--jobs", o.jobs, "Cases run at once")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  sub->add_option("--profile", o.profile, "strict | lenient (default: the target's)");
  sub->add_option("--out", o.out, "Folder for the shrunk failing scenarios")->capture_default_str();
  sub->add_option("--report-junit", o.report_junit, "Write JUnit XML to FILE");
  sub->add_option("--report-json", o.report_json, "Write the cases, counts and findings as JSON");
  sub->add_option("--ca-file", o.ca_file, "Trust this CA (PEM) for HTTPS targets")
      ->check(CLI::ExistingFile);
  sub->add_option("--prelude", o.prelude,
                  "A scenario file whose steps run before every case (faults to plant, records "
                  "to seed)")
      ->check(CLI::ExistingFile);
  sub->add_flag("--list-checks", o.list_checks, "Print the checks and the near-miss families");
  return sub;
}

int explore_command(const ExploreCommandOptions& o, std::ostream& out, std::ostream& err) {
  if (o.list_checks) {
    for (const auto& c : checks()) out << c.name << ": " << c.what << "\n";
    return 0;
  }
  ExploreOptions eo;
  eo.seed = o.seed;
  eo.jobs = o.jobs;
  eo.out_dir = o.out;
  eo.command = explore_command_line(o);
  if (!parse_budget(o.budget, eo.cases, eo.seconds)) {
    err << "--budget: a number of cases (200) or of seconds (30s), not " << o.budget << "\n";
    return 2;
  }
  if (!o.profile.empty()) {
    eo.profile = contracts::profile_from_string(o.profile);
    if (!eo.profile) {
      err << "--profile: strict or lenient, not " << o.profile << "\n";
      return 2;
    }
  }
  if (!o.prelude.empty()) {
    LoadResult pre = load_scenario_file(o.prelude);
    for (const auto& e : pre.errors) err << e.str() << "\n";
    if (!pre.ok()) return 2;
    eo.prelude = pre.scenario->steps;
  }
  ExploreSide a, b;
  try {
    a = explore_side(o.target, o.ca_file);
    if (!o.against.empty()) b = explore_side(o.against, o.ca_file);
  } catch (const std::exception& e) {
    err << e.what() << "\n";
    return 2;
  }
  eo.fixture = a.fixture;
  std::string error;
  const TargetFacts facts = fetch_facts(*a.target, a.fixture, error);
  if (!error.empty()) {
    err << "cannot learn the target's payment methods: " << error << "\n";
    return 2;
  }
  ExploreRun r = explore(*a.target, facts, eo);
  ConsoleReport console(out, false);
  console.finish(r.run);
  print_counts(r, out);
  print_findings(r, out);
  nlohmann::json report = explore_json(r, eo);
  size_t differences = 0;
  if (b.target) differences = explore_against(r, o, b, eo.profile, out, report);
  int rc = explore_write(o.report_junit, junit_xml(r.run, true), err);
  if (!o.report_json.empty())
    rc = std::max(rc,
                  explore_write(o.report_json, fake_org::text::json_text(report, 2) + "\n", err));
  if (rc) return rc;
  if (!r.run.interrupted.empty()) return 128 + interrupt::received();
  return r.findings.empty() && differences == 0 ? 0 : 1;
}

}  // namespace runner::explore
