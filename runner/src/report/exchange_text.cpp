#include "report/exchange_text.h"

#include "util/redaction.h"

namespace runner {
namespace {

// Characters of one body in a verbose log: enough for a record or a page of
// a list, short enough that a suite's log stays readable.
constexpr size_t kVerboseBodyChars = 2000;

std::string verbose_header(const Headers& headers, const std::string& name) {
  for (const auto& [k, v] : headers)
    if (iequals(k, name)) return v;
  return "";
}

std::string verbose_body(const std::string& prefix, const Headers& headers,
                         const std::string& body) {
  std::string shown = fake_org::redact_body(verbose_header(headers, "Content-Type"), body);
  if (shown.size() > kVerboseBodyChars)
    shown = shown.substr(0, kVerboseBodyChars) + "... (" +
            std::to_string(shown.size() - kVerboseBodyChars) +
            " more characters; --report-json keeps them)";
  return prefix + shown + "\n";
}

}  // namespace

std::string exchange_text(const StepResult& step) {
  if (!step.exchange) return "";
  const Exchange& ex = *step.exchange;
  std::string out;
  if (step.kind == StepKind::kAwaitWebhook)
    return verbose_body("< webhook ", ex.request.headers, ex.request.body);
  out += "> " + ex.request.method + " " + ex.request.url + "\n";
  if (!ex.request.body.empty()) out += verbose_body("> ", ex.request.headers, ex.request.body);
  if (ex.response) {
    out += "< " + std::to_string(ex.response->status) + "\n";
    out += verbose_body("< ", ex.response->headers, ex.response->body);
  }
  return out;
}

}  // namespace runner
