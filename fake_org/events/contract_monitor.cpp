#include "events/contract_monitor.h"

#include <cstdio>

#include "checker/checker.h"

namespace fake_org {

ContractMonitor::ContractMonitor(bool log_to_stderr)
    : checker_(contracts::Checker::embedded(contracts::Profile::kStrict)), log_(log_to_stderr) {}

void ContractMonitor::check_response(std::string_view method, std::string_view path, int status,
                                     const std::string& body) {
  nlohmann::json j = body.empty() ? nlohmann::json() : nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded()) return;  // not JSON: HTML pages and redirects have no contract
  auto r = checker_->check_response(method, path, status, j);
  if (!r.matched_schema || r.ok()) return;
  record(std::string(method) + " " + std::string(path) + " -> " + std::to_string(status),
         r.report());
}

void ContractMonitor::check_webhook(const nlohmann::json& body) {
  auto r = checker_->check_webhook(body);
  if (r.ok()) return;
  record("webhook " + body.value("type", "?"), r.report());
}

void ContractMonitor::record(const std::string& what, const std::string& report) {
  ++violations_;
  if (log_) std::fprintf(stderr, "CONTRACT VIOLATION: %s\n%s\n", what.c_str(), report.c_str());
  std::lock_guard lock(mu_);
  recent_.push_back({{"what", what}, {"report", report}});
  if (recent_.size() > 50) recent_.pop_front();
}

nlohmann::json ContractMonitor::recent() const {
  std::lock_guard lock(mu_);
  return nlohmann::json(recent_);
}

}  // namespace fake_org
