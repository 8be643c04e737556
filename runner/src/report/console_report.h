#pragma once
// The console: a line per scenario as it ends (and per step with --verbose,
// with its request and response bodies, secrets redacted),
// then a report of each failure, then exactly "N passed, N failed, N skipped".
// On a terminal, a live progress line instead, redrawn in place until the
// final report replaces it (failures still get their line above it).
//
// Locking: mutex_ guards the counters, the running list and every write to
// out_; the ticker thread (live mode only) redraws under it.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "report/results.h"

namespace runner {

struct ConsoleStyle {
  bool live = false;    // progress line redrawn in place (a terminal, not --no-progress)
  bool colour = false;  // ANSI colours (a terminal, NO_COLOR unset or empty)
  size_t width = 80;    // terminal columns: the live line is cut to fit, as one that
                        // wraps cannot be redrawn with a carriage return
};

// The style for a console on `fd`: live and coloured only on a terminal;
// `no_color` is getenv("NO_COLOR") (no-color.org: set and non-empty disables).
ConsoleStyle console_style(int fd, bool no_progress, const char* no_color);

class ConsoleReport {
 public:
  ConsoleReport(std::ostream& out, bool verbose, ConsoleStyle style = {});
  ~ConsoleReport();
  ConsoleReport(const ConsoleReport&) = delete;
  ConsoleReport& operator=(const ConsoleReport&) = delete;

  // Before the first scenario: the live line shows done/total from here on.
  void begin(size_t total);
  void started(const std::string& scenario_name);
  void progress(const ScenarioResult& scenario, size_t done, size_t total);
  void finish(const RunResult& run);

 private:
  void write_scenario_line(const ScenarioResult& r);
  void redraw_locked();
  void clear_line_locked();
  void stop_ticker();
  std::string paint(const std::string& text, const char* code) const;

  std::ostream& out_;
  bool verbose_;
  ConsoleStyle style_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool drawn_ = false;
  size_t total_ = 0, done_ = 0, passed_ = 0, failed_ = 0;
  std::vector<std::string> running_;
  std::thread ticker_;
};

std::string summary_line(const RunSummary& s);

// The live line's text without colours, cut to `width` - 1 columns:
// "[3/10] 2 passed, 1 failed, 4.2 s  running: NAME".
std::string progress_text(size_t done, size_t total, size_t passed, size_t failed,
                          double elapsed_ms, const std::vector<std::string>& running, size_t width);

}  // namespace runner
