#include "report/failure_text.h"

#include <cstdio>
#include <sstream>

#include "net/curl.h"
#include "report/running_binary.h"

namespace runner {
namespace {

// Lines of a response body shown under a failure; fewer when a diff already
// shows the disagreement.
constexpr size_t kBodyLines = 60;
constexpr size_t kBodyLinesAfterDiff = 15;
// Characters of one line of a failure message (an arrived webhook's body).
constexpr size_t kMessageLineChars = 400;

// `text` with each line over `max` characters cut, saying how much is left out.
std::string cap_line_length(const std::string& text, size_t max) {
  std::istringstream in(text);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (!out.empty()) out += "\n";
    if (line.size() > max)
      line = line.substr(0, max) + "... (" + std::to_string(line.size() - max) +
             " more characters; --report-json keeps them)";
    out += line;
  }
  return out;
}

}  // namespace

std::string indent(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::string out;
  for (std::string line; std::getline(in, line);) out += prefix + line + "\n";
  return out;
}

std::string seconds(double ms, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, ms / 1000.0);
  return buf;
}

std::string step_line(const StepResult& s) {
  const char* mark = s.outcome == Outcome::kPassed   ? "ok  "
                     : s.outcome == Outcome::kFailed ? "FAIL"
                                                     : "skip";
  std::string line = std::string(mark) + " " + std::to_string(s.index + 1) + " " + s.name;
  // A name written with ${...} says which variable, not which record: the
  // request as sent says that.
  if (s.name.find("${") != std::string::npos && s.exchange) {
    const std::string& url = s.exchange->request.url;
    const size_t host = url.find("://");
    const size_t path = url.find('/', host == std::string::npos ? 0 : host + 3);
    if (path != std::string::npos)
      line += " -> " + s.exchange->request.method + " " + url.substr(path);
  }
  if (!s.detail.empty()) line += "  (" + s.detail + ")";
  if (s.outcome == Outcome::kSkipped) line += "  (not run)";
  return line;
}

// At most `max` lines of `text`, then how many were left out.
std::string cap_lines(const std::string& text, size_t max, const std::string& where) {
  std::istringstream in(text);
  std::string out;
  size_t n = 0, elided = 0;
  for (std::string line; std::getline(in, line);) {
    if (n++ < max)
      out += line + "\n";
    else
      ++elided;
  }
  if (elided)
    out += "... " + std::to_string(elided) + " more line" + (elided == 1 ? "" : "s") + " elided" +
           where + "\n";
  return out;
}

namespace {

// The commands that send the failed request again, with what they rely on.
std::string reproduction_text(const Exchange& ex, const std::string& file) {
  const std::string scenario = file.empty() ? std::string("FILE") : shell_quote(file);
  std::string out;
  if (!ex.depends_on.empty())
    out += "  the request depends on earlier steps (" + ex.depends_on +
           "): sent alone it may be answered otherwise; replay the whole scenario to be sure\n";
  const std::string commands = ex.curl_setup + ex.curl + "\n" + ex.curl_teardown;
  if (ex.org_stopped) {
    // The org the setup starts is at $ORG until the teardown stops it.
    out +=
        "  reproduce (the scenario's org stopped with it: start one like it, take a token, "
        "send the request, stop it; to replay the whole scenario on it instead of the "
        "request: " +
        sibling_binary("scenario-runner") + " --target \"$ORG\" " + scenario +
        " before the last line):\n" + indent(commands, "    ");
  } else if (!ex.curl_setup.empty()) {
    out += std::string("  reproduce (take a token, send the request") +
           (ex.curl_teardown.empty() ? "" : ", delete what it made") + "):\n" +
           indent(commands, "    ");
  } else {
    out += "  reproduce (TOKEN is the runner's bearer token):\n    " + ex.curl + "\n";
  }
  return out;
}

}  // namespace

std::string failure_text(const StepResult& s, const std::string& file) {
  std::string out = "step " + std::to_string(s.index + 1) + " '" + s.name + "' (" + s.pos.str() +
                    ", " + to_string(s.kind) + ")\n";
  for (const auto& f : s.failures) {
    // The assertion's own line, when it has one: the place to edit.
    const std::string at = f.pos.line > 0 ? " (" + f.pos.str() + ")" : "";
    out += indent(f.kind + at + ": " + cap_line_length(f.message, kMessageLineChars), "  ");
    if (!f.diff.empty()) out += indent(f.diff, "    ");
  }
  if (s.exchange) {
    const Exchange& ex = *s.exchange;
    if (s.kind == StepKind::kAwaitWebhook) {
      out += "  webhook body: " + ex.request.body.substr(0, 2000) + "\n";
      return out;
    }
    out += "  request: " + ex.request.method + " " + ex.request.url + "\n";
    if (!ex.request.body.empty())
      out += "  request body: " + ex.request.body.substr(0, 2000) + "\n";
    if (ex.response) {
      std::string body = ex.response->body;
      if (auto j = ex.response->json()) body = j->dump(2);
      if (body.size() > 4000) body = body.substr(0, 4000) + "\n...";
      // A diff above already shows what disagrees: the body is context.
      bool diffed = false;
      for (const auto& f : s.failures) diffed = diffed || !f.diff.empty();
      body = cap_lines(body, diffed ? kBodyLinesAfterDiff : kBodyLines,
                       " (--report-json keeps the whole body)");
      out += "  response: " + std::to_string(ex.response->status) + "\n" + indent(body, "    ");
    }
    if (ex.token_refreshed) out += "  (the runner refreshed its token after a 401 and retried)\n";
    out += reproduction_text(ex, file);
  }
  return out;
}

std::string step_failure_headline(const StepResult& s) {
  std::string what = "failed";
  if (!s.failures.empty()) {
    const Failure& f = s.failures.front();
    // A status mismatch's own message is the clearest ("expected status 201,
    // got 200"); for a body, the first mismatch names the field.
    what = f.kind != "status" && !f.mismatches.empty() ? f.mismatches.front().str() : f.message;
    what = what.substr(0, what.find('\n'));
  }
  return "step " + std::to_string(s.index + 1) + " '" + s.name + "': " + what;
}

std::string failure_headline(const ScenarioResult& r) {
  if (!r.error.empty()) return r.error.substr(0, r.error.find('\n'));
  if (const StepResult* s = r.first_failed_step()) return step_failure_headline(*s);
  return "failed";
}

std::string scenario_failure_text(const ScenarioResult& r) {
  if (!r.error.empty()) return r.error + "\n";
  if (const StepResult* s = r.first_failed_step()) return failure_text(*s, r.file);
  return "";
}

}  // namespace runner
