#include "report/failure_text.h"

#include <sstream>

namespace runner {

std::string indent(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::string out;
  for (std::string line; std::getline(in, line);) out += prefix + line + "\n";
  return out;
}

std::string step_line(const StepResult& s) {
  const char* mark = s.outcome == Outcome::kPassed   ? "ok  "
                     : s.outcome == Outcome::kFailed ? "FAIL"
                                                     : "skip";
  std::string line = std::string(mark) + " " + std::to_string(s.index + 1) + " " + s.name;
  if (!s.detail.empty()) line += "  (" + s.detail + ")";
  if (s.outcome == Outcome::kSkipped) line += "  (not run)";
  return line;
}

std::string failure_text(const StepResult& s) {
  std::string out = "step " + std::to_string(s.index + 1) + " '" + s.name + "' (" + s.pos.str() +
                    ", " + to_string(s.kind) + ")\n";
  for (const auto& f : s.failures) {
    out += indent(f.kind + ": " + f.message, "  ");
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
      out += "  response: " + std::to_string(ex.response->status) + "\n" + indent(body, "    ");
    }
    if (ex.token_refreshed) out += "  (the runner refreshed its token after a 401 and retried)\n";
    out += "  reproduce (TOKEN is the runner's bearer token):\n    " + ex.curl + "\n";
  }
  return out;
}

std::string scenario_failure_text(const ScenarioResult& r) {
  if (!r.error.empty()) return r.error + "\n";
  if (const StepResult* s = r.first_failed_step()) return failure_text(*s);
  return "";
}

}  // namespace runner
