#include "report/json_report.h"

namespace runner {
namespace {

nlohmann::json headers_json(const Headers& h) {
  nlohmann::json o = nlohmann::json::object();
  for (const auto& [k, v] : h) o[k] = v;
  return o;
}

nlohmann::json body_json(const std::string& body) {
  if (body.empty()) return nullptr;
  auto j = nlohmann::json::parse(body, nullptr, false);
  return j.is_discarded() ? nlohmann::json(body) : j;
}

nlohmann::json step_json(const StepResult& s) {
  nlohmann::json j = {{"index", s.index + 1},
                      {"name", s.name},
                      {"kind", to_string(s.kind)},
                      {"location", s.pos.str()},
                      {"outcome", to_string(s.outcome)},
                      {"detail", s.detail},
                      {"duration_ms", s.ms},
                      {"failures", nlohmann::json::array()}};
  for (const auto& f : s.failures) {
    nlohmann::json fj = {{"kind", f.kind}, {"message", f.message}};
    if (f.pos.line > 0) fj["location"] = f.pos.str();
    if (!f.diff.empty()) fj["diff"] = f.diff;
    if (!f.mismatches.empty()) {
      fj["mismatches"] = nlohmann::json::array();
      for (const auto& m : f.mismatches)
        fj["mismatches"].push_back(
            {{"pointer", m.pointer}, {"expected", m.expected}, {"actual", m.actual}});
    }
    j["failures"].push_back(fj);
  }
  if (s.exchange) {
    const Exchange& ex = *s.exchange;
    Headers shown;
    for (const auto& [k, v] : ex.request.headers)
      shown.emplace_back(k, k == "Authorization" ? "Bearer $TOKEN" : v);
    j["request"] = {{"method", ex.request.method},
                    {"url", ex.request.url},
                    {"headers", headers_json(shown)},
                    {"body", body_json(ex.request.body)}};
    if (ex.response)
      j["response"] = {{"status", ex.response->status},
                       {"headers", headers_json(ex.response->headers)},
                       {"body", body_json(ex.response->body)},
                       {"elapsed_ms", ex.response->elapsed_ms}};
    if (!ex.curl.empty()) j["curl"] = ex.curl;
    if (!ex.curl_setup.empty()) j["curl_setup"] = ex.curl_setup;
    if (!ex.curl_teardown.empty()) j["curl_teardown"] = ex.curl_teardown;
    if (!ex.depends_on.empty()) j["depends_on"] = ex.depends_on;
  }
  return j;
}

}  // namespace

nlohmann::json json_report(const RunResult& run) {
  RunSummary s = run.summary();
  nlohmann::json j = {{"target", run.target},
                      {"contract_profile", run.profile},
                      {"summary",
                       {{"passed", s.passed},
                        {"failed", s.failed},
                        {"skipped", s.skipped},
                        {"duration_ms", run.ms}}},
                      {"scenarios", nlohmann::json::array()}};
  // An interrupted run's report says so: what ran, not the whole selection.
  j["partial"] = !run.interrupted.empty();
  j["interrupted"] = run.interrupted.empty() ? nlohmann::json() : nlohmann::json(run.interrupted);
  size_t not_run = 0;
  for (const auto& r : run.scenarios) not_run += r.not_run ? 1 : 0;
  j["summary"]["not_run"] = not_run;
  for (const auto& r : run.scenarios) {
    nlohmann::json sj = {{"file", r.file},      {"name", r.name},
                         {"tags", r.tags},      {"outcome", to_string(r.outcome)},
                         {"duration_ms", r.ms}, {"steps", nlohmann::json::array()}};
    if (!r.skip_reason.empty()) sj["skip_reason"] = r.skip_reason;
    if (!r.error.empty()) sj["error"] = r.error;
    if (r.not_run) sj["not_run"] = true;
    for (const auto& st : r.steps) sj["steps"].push_back(step_json(st));
    j["scenarios"].push_back(sj);
  }
  return j;
}

}  // namespace runner
