#pragma once
// The console: a line per scenario as it ends (and per step with --verbose),
// then a report of each failure, then exactly "N passed, N failed, N skipped".
#include <ostream>

#include "run/results.h"

namespace runner {

class ConsoleReport {
 public:
  ConsoleReport(std::ostream& out, bool verbose) : out_(out), verbose_(verbose) {}
  void progress(const ScenarioResult& scenario, size_t done, size_t total);
  void finish(const RunResult& run);

 private:
  std::ostream& out_;
  bool verbose_;
};

std::string summary_line(const RunSummary& s);

}  // namespace runner
