#include "report/console_report.h"

#include "report/failure_text.h"

namespace runner {

std::string summary_line(const RunSummary& s) {
  return std::to_string(s.passed) + " passed, " + std::to_string(s.failed) + " failed, " +
         std::to_string(s.skipped) + " skipped";
}

void ConsoleReport::progress(const ScenarioResult& r, size_t done, size_t total) {
  const char* mark = r.outcome == Outcome::kPassed   ? "PASS"
                     : r.outcome == Outcome::kFailed ? "FAIL"
                                                     : "SKIP";
  out_ << "[" << done << "/" << total << "] " << mark << "  " << r.file << "  " << r.name << "  ("
       << static_cast<long>(r.ms) << " ms)";
  if (r.outcome == Outcome::kSkipped) out_ << "  " << r.skip_reason;
  out_ << "\n";
  if (verbose_ && r.outcome != Outcome::kSkipped)
    for (const auto& s : r.steps) out_ << "      " << step_line(s) << "\n";
  out_.flush();
}

void ConsoleReport::finish(const RunResult& run) {
  bool header = false;
  for (const auto& r : run.scenarios) {
    if (r.outcome != Outcome::kFailed) continue;
    if (!header) out_ << "\n=== failures ===\n";
    header = true;
    out_ << "\nFAILED " << r.file << ": " << r.name << "\n"
         << indent(scenario_failure_text(r), "  ");
  }
  RunSummary s = run.summary();
  out_ << "\n"
       << run.scenarios.size() << " scenario(s) on " << run.target << " (contract profile "
       << run.profile << ") in " << seconds(run.ms, 2) + " s"
       << "\n"
       << summary_line(s) << "\n";
  out_.flush();
}

}  // namespace runner
