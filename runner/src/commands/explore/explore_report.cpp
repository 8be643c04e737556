#include "commands/explore/explore_report.h"

#include <iomanip>

#include "commands/explore/coverage.h"
#include "report/json_report.h"

namespace runner::explore {

namespace {

void explore_table(const std::string& title, const std::map<std::string, Counts>& m,
                   const char* first, const char* second, std::ostream& out) {
  out << title << "\n";
  for (const auto& [name, c] : m)
    out << "  " << std::left << std::setw(34) << name << std::right << std::setw(6) << c.cases
        << " " << first << std::setw(6) << c.failed << " " << second << "\n";
}

nlohmann::json explore_counts_json(const std::map<std::string, Counts>& m, const char* first) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, c] : m) j[name] = {{first, c.cases}, {"failed", c.failed}};
  return j;
}

nlohmann::json explore_facts_json(const TargetFacts& f) {
  nlohmann::json methods = nlohmann::json::array();
  for (const auto& m : f.methods) methods.push_back(m.name);
  nlohmann::json fields = nlohmann::json::array();
  for (const auto& a : f.account_fields) fields.push_back(a.name);
  nlohmann::json actions = nlohmann::json::array();
  for (const auto& a : f.package_actions) actions.push_back(a.package + "." + a.action);
  nlohmann::json crm = nlohmann::json::object();
  for (const auto& [object, list] : f.crm_fields) {
    crm[object] = nlohmann::json::array();
    for (const auto& field : list) crm[object].push_back(field.name);
  }
  return {{"payment_methods", methods},
          {"api_version", f.api_version},
          {"frequencies", f.frequencies},
          {"account_fields", fields},
          {"source_connector", f.connector},
          {"currency", f.currency},
          {"campaign_id", f.campaign_id},
          {"account_record_types", f.account_record_types},
          {"contact_record_types", f.contact_record_types},
          {"package_actions", actions},
          {"crm_fields", crm}};
}

// The operation of the step that failed (a sweep's valid case runs several).
std::string explore_failing_op(const Finding& f) {
  const auto& meta = f.original.meta;
  if (f.failure.step < meta.size() && !meta[f.failure.step].op.empty())
    return meta[f.failure.step].op;
  return f.original.operation();
}

}  // namespace

void print_counts(const ExploreRun& r, std::ostream& out) {
  explore_table("by operation:", r.by_operation, "cases", "failed", out);
  explore_table("by check:", r.by_check, "applied", "failed", out);
  print_coverage(coverage(r.cases), out);
}

void print_findings(const ExploreRun& r, std::ostream& out) {
  if (r.findings.empty()) {
    out << "no check failed in " << r.cases.size() << " case(s)\n";
    return;
  }
  out << r.findings.size() << " distinct failure(s):\n";
  for (const auto& f : r.findings) {
    std::string message = f.failure.message;
    for (size_t at = message.find('\n'); at != std::string::npos; at = message.find('\n'))
      message.replace(at, 1, " ");
    out << "  " << f.signature << " (" << f.hits << " case(s)): " << message.substr(0, 300) << "\n";
    out << "    shrunk from " << f.original.scenario.steps.size() << " step(s) to "
        << f.shrunk.scenario.steps.size() << " in " << f.shrink.tries << " run(s)";
    if (!f.file.empty()) out << "; replay: scenario-runner " << f.file;
    if (!f.write_error.empty()) out << "; not written: " << f.write_error;
    out << "\n";
  }
}

nlohmann::json explore_json(const ExploreRun& r, const ExploreOptions& o) {
  nlohmann::json j = json_report(r.run);
  nlohmann::json e;
  e["seed"] = o.seed;
  e["cases"] = r.cases.size();
  e["seconds"] = r.seconds;
  e["facts"] = explore_facts_json(r.facts);
  e["by_operation"] = explore_counts_json(r.by_operation, "cases");
  e["by_check"] = explore_counts_json(r.by_check, "applied");
  e["coverage"] = coverage_json(coverage(r.cases));
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : r.findings)
    findings.push_back({{"signature", f.signature},
                        {"check", f.failure.check},
                        {"operation", explore_failing_op(f)},
                        {"mutation", f.original.mutation},
                        {"message", f.failure.message},
                        {"hits", f.hits},
                        {"steps", f.original.scenario.steps.size()},
                        {"shrunk_steps", f.shrunk.scenario.steps.size()},
                        {"shrink_runs", f.shrink.tries},
                        {"file", f.file},
                        {"write_error", f.write_error}});
  e["findings"] = findings;
  j["explore"] = e;
  return j;
}

}  // namespace runner::explore
