#include "report/console_report.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>

#include "report/exchange_text.h"
#include "report/failure_text.h"

namespace runner {
namespace {

constexpr const char* kGreen = "32";
constexpr const char* kRed = "31";
constexpr const char* kYellow = "33";
// Often enough for the elapsed seconds to tick, rarely enough to cost nothing.
constexpr auto kRedrawEvery = std::chrono::milliseconds(250);

// `text` cut to `max` bytes without splitting a UTF-8 sequence.
std::string console_cut_utf8(const std::string& text, size_t max) {
  if (text.size() <= max) return text;
  size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

}  // namespace

ConsoleStyle console_style(int fd, bool no_progress, const char* no_color) {
  ConsoleStyle style;
  if (!::isatty(fd)) return style;
  style.live = !no_progress;
  style.colour = no_color == nullptr || *no_color == '\0';
  struct winsize ws {};
  if (::ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) style.width = ws.ws_col;
  return style;
}

std::string summary_line(const RunSummary& s) {
  return std::to_string(s.passed) + " passed, " + std::to_string(s.failed) + " failed, " +
         std::to_string(s.skipped) + " skipped";
}

std::string progress_text(size_t done, size_t total, size_t passed, size_t failed,
                          double elapsed_ms, const std::vector<std::string>& running,
                          size_t width) {
  std::string line = "[" + std::to_string(done) + "/" + std::to_string(total) + "] " +
                     std::to_string(passed) + " passed, " + std::to_string(failed) + " failed, " +
                     seconds(elapsed_ms, 1) + " s";
  if (!running.empty()) {
    line += "  running: " + running.back();
    if (running.size() > 1) line += " (+" + std::to_string(running.size() - 1) + ")";
  }
  return console_cut_utf8(line, width > 1 ? width - 1 : 0);
}

ConsoleReport::ConsoleReport(std::ostream& out, bool verbose, ConsoleStyle style)
    : out_(out), verbose_(verbose), style_(style), start_(std::chrono::steady_clock::now()) {}

ConsoleReport::~ConsoleReport() {
  stop_ticker();
}

void ConsoleReport::begin(size_t total) {
  std::lock_guard<std::mutex> lock(mutex_);
  total_ = total;
  if (!style_.live || ticker_.joinable()) return;
  redraw_locked();
  ticker_ = std::thread([this] {
    std::unique_lock<std::mutex> guard(mutex_);
    while (!wake_.wait_for(guard, kRedrawEvery, [this] { return stopping_; })) redraw_locked();
  });
}

void ConsoleReport::started(const std::string& name) {
  if (!style_.live) return;
  std::lock_guard<std::mutex> lock(mutex_);
  running_.push_back(name);
  redraw_locked();
}

std::string ConsoleReport::paint(const std::string& text, const char* code) const {
  if (!style_.colour) return text;
  return std::string("\x1b[") + code + "m" + text + "\x1b[0m";
}

void ConsoleReport::write_scenario_line(const ScenarioResult& r) {
  const std::string mark = r.outcome == Outcome::kPassed   ? paint("PASS", kGreen)
                           : r.outcome == Outcome::kFailed ? paint("FAIL", kRed)
                                                           : paint("SKIP", kYellow);
  out_ << "[" << done_ << "/" << total_ << "] " << mark << "  " << r.file << "  " << r.name << "  ("
       << static_cast<long>(r.ms) << " ms)";
  if (r.outcome == Outcome::kSkipped) out_ << "  " << r.skip_reason;
  out_ << "\n";
  if (verbose_ && r.outcome != Outcome::kSkipped)
    for (const auto& s : r.steps) {
      out_ << "      " << step_line(s) << "\n";
      // What was sent and answered, secrets redacted: a verbose log is
      // often a CI artifact anyone on the team can read.
      out_ << indent(exchange_text(s), "          ");
    }
}

void ConsoleReport::progress(const ScenarioResult& r, size_t done, size_t total) {
  std::lock_guard<std::mutex> lock(mutex_);
  done_ = done;
  total_ = total;
  if (r.outcome == Outcome::kPassed) ++passed_;
  if (r.outcome == Outcome::kFailed) ++failed_;
  auto it = std::find(running_.begin(), running_.end(), r.name);
  if (it != running_.end()) running_.erase(it);
  if (!style_.live) {
    write_scenario_line(r);
    out_.flush();
    return;
  }
  // A failure (or every scenario with --verbose) keeps its line above the live one.
  if (r.outcome == Outcome::kFailed || verbose_) {
    clear_line_locked();
    write_scenario_line(r);
  }
  redraw_locked();
}

void ConsoleReport::clear_line_locked() {
  if (!drawn_) return;
  out_ << "\r\x1b[K";
  drawn_ = false;
}

void ConsoleReport::redraw_locked() {
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
  const std::string text =
      progress_text(done_, total_, passed_, failed_, ms, running_, style_.width);
  out_ << "\r\x1b[K" << text;
  out_.flush();
  drawn_ = true;
}

void ConsoleReport::stop_ticker() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
}

void ConsoleReport::finish(const RunResult& run) {
  stop_ticker();
  std::lock_guard<std::mutex> lock(mutex_);
  clear_line_locked();
  bool header = false;
  for (const auto& r : run.scenarios) {
    if (r.outcome != Outcome::kFailed) continue;
    if (!header) out_ << "\n=== failures ===\n";
    header = true;
    out_ << "\n"
         << paint("FAILED", kRed) << " " << r.file << ": " << r.name << "\n"
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
