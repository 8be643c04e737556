#include "report/junit_report.h"

#include <filesystem>

#include "report/failure_text.h"
#include "util/text.h"

namespace runner {
namespace {

// "scenarios/payment_intent/one_time.yaml" -> "scenarios.payment_intent.one_time".
// An absolute path under the current directory reads as the relative one
// (`scenario-runner /work/main/scenarios` run in /work/main); no classname
// starts with a dot, which CI views show as an empty package.
std::string classname(const std::string& file) {
  namespace fs = std::filesystem;
  std::string c = file;
  if (fs::path(file).is_absolute()) {
    std::error_code ec;
    const fs::path cwd = fs::current_path(ec);
    const fs::path rel = fs::path(file).lexically_normal().lexically_relative(cwd);
    if (!ec && !rel.empty() && *rel.begin() != "..") c = rel.generic_string();
  }
  auto dot = c.rfind('.');
  if (dot != std::string::npos && c.find('/', dot) == std::string::npos) c.erase(dot);
  for (bool again = true; again;) {
    again = false;
    for (const char* lead : {"./", "../", "/", "\\"})
      if (c.rfind(lead, 0) == 0) {
        c.erase(0, std::char_traits<char>::length(lead));
        again = true;
      }
  }
  for (char& ch : c)
    if (ch == '/' || ch == '\\') ch = '.';
  return c;
}

std::string attr(const std::string& name, const std::string& value) {
  return " " + name + "=\"" + xml_escape(value) + "\"";
}

// The line a CI view links a step's test case to: its first failed
// assertion's own line when it has one, else the step's.
std::string line_attr(const StepResult& s) {
  int line = s.pos.line;
  if (s.outcome == Outcome::kFailed && !s.failures.empty() && s.failures.front().pos.line > 0 &&
      s.failures.front().pos.file == s.pos.file)
    line = s.failures.front().pos.line;
  return attr("line", std::to_string(line));
}

std::string first_line(const std::string& s) {
  return s.substr(0, s.find('\n'));
}

// An interrupted run's report is partial, and says so where CI views show it.
std::string interrupted_property(const RunResult& run) {
  if (run.interrupted.empty()) return "";
  return "<property" + attr("name", "interrupted") + attr("value", run.interrupted) +
         "/><property" + attr("name", "partial") + attr("value", "true") + "/>";
}

}  // namespace

std::string xml_escape(const std::string& text) {
  std::string out = fake_org::text::escape_markup(text, "&apos;");
  // XML 1.0 forbids most control characters even when escaped.
  for (char& c : out) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\n' && c != '\r' && c != '\t') c = '?';
  }
  return out;
}

std::string junit_xml(const RunResult& run, bool per_step) {
  RunSummary sum = run.summary();
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  if (!per_step) {
    const std::string counts = attr("tests", std::to_string(run.scenarios.size())) +
                               attr("failures", std::to_string(sum.failed)) + attr("errors", "0") +
                               attr("skipped", std::to_string(sum.skipped)) +
                               attr("time", seconds(run.ms, 3));
    x += "<testsuites" + attr("name", "scenario-runner") + counts + ">\n";
    x += "  <testsuite" + attr("name", "scenarios on " + run.target) + counts + ">\n";
    x += "    <properties><property" + attr("name", "contract_profile") +
         attr("value", run.profile) + "/>" + interrupted_property(run) + "</properties>\n";
    for (const auto& r : run.scenarios) {
      x += "    <testcase" + attr("classname", classname(r.file)) + attr("name", r.name) +
           attr("file", r.file) + attr("time", seconds(r.ms, 3)) + ">\n";
      if (r.outcome == Outcome::kSkipped) {
        x += "      <skipped" + attr("message", r.skip_reason) + "/>\n";
      } else if (r.outcome == Outcome::kFailed) {
        const std::string text = scenario_failure_text(r);
        x += "      <failure" + attr("message", failure_headline(r)) + attr("type", "scenario") +
             ">" + xml_escape(text) + "</failure>\n";
      }
      std::string out;
      for (const auto& s : r.steps) out += step_line(s) + "\n";
      x += "      <system-out>" + xml_escape(out) + "</system-out>\n";
      x += "    </testcase>\n";
    }
    x += "  </testsuite>\n</testsuites>\n";
    return x;
  }
  size_t tests = 0, failures = 0, skipped = 0;
  std::string suites;
  for (const auto& r : run.scenarios) {
    size_t t = 0, f = 0, sk = 0;
    std::string cases;
    if (!r.error.empty()) {  // the scenario failed before its first step
      ++t;
      ++f;
      cases += "    <testcase" + attr("classname", classname(r.file)) + attr("name", "setup") +
               attr("time", "0") + "><failure" + attr("message", first_line(r.error)) + ">" +
               xml_escape(r.error) + "</failure></testcase>\n";
    }
    for (const auto& s : r.steps) {
      ++t;
      cases += "    <testcase" + attr("classname", classname(r.file)) +
               attr("name", std::to_string(s.index + 1) + " " + s.name) + attr("file", r.file) +
               line_attr(s) + attr("time", seconds(s.ms, 3)) + ">\n";
      if (s.outcome == Outcome::kFailed) {
        ++f;
        const std::string text = failure_text(s, r.file);
        cases += "      <failure" + attr("message", step_failure_headline(s)) +
                 attr("type", s.failures.empty() ? "step" : s.failures[0].kind) + ">" +
                 xml_escape(text) + "</failure>\n";
      } else if (s.outcome == Outcome::kSkipped) {
        ++sk;
        cases += "      <skipped" +
                 attr("message",
                      r.skip_reason.empty() ? "not run after an earlier failure" : r.skip_reason) +
                 "/>\n";
      }
      cases += "      <system-out>" + xml_escape(step_line(s)) + "</system-out>\n    </testcase>\n";
    }
    suites += "  <testsuite" + attr("name", r.name) + attr("file", r.file) +
              attr("tests", std::to_string(t)) + attr("failures", std::to_string(f)) +
              attr("errors", "0") + attr("skipped", std::to_string(sk)) +
              attr("time", seconds(r.ms, 3)) + ">\n" +
              (run.interrupted.empty()
                   ? ""
                   : "    <properties>" + interrupted_property(run) + "</properties>\n") +
              cases + "  </testsuite>\n";
    tests += t;
    failures += f;
    skipped += sk;
  }
  x += "<testsuites" + attr("name", "scenario-runner") + attr("tests", std::to_string(tests)) +
       attr("failures", std::to_string(failures)) + attr("errors", "0") +
       attr("skipped", std::to_string(skipped)) + attr("time", seconds(run.ms, 3)) + ">\n" +
       suites + "</testsuites>\n";
  return x;
}

}  // namespace runner
