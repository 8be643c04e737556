#include "events/contract_monitor.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

#include "checker/checker.h"
#include "checker/routes.h"
#include "util/json_text.h"
#include "util/text.h"

namespace fake_org {
namespace {

// One sequence for the process: several orgs (the runner's parallel
// scenarios) may capture into the same folder.
std::atomic<unsigned long> capture_sequence{0};

nlohmann::json verdict(contracts::Profile profile, const contracts::CheckResult& r) {
  nlohmann::json v = {{"profile", contracts::to_string(profile)},
                      {"schema", r.schema.empty() ? nlohmann::json() : nlohmann::json(r.schema)},
                      {"valid", r.ok()}};
  if (!r.ok()) v["report"] = r.report();
  return v;
}

}  // namespace

ContractMonitor::ContractMonitor(bool log_to_stderr, std::string capture_dir, bool lenient)
    : checker_(contracts::Checker::embedded(contracts::Profile::kStrict)),
      enforce_lenient_(lenient),
      log_(log_to_stderr),
      capture_dir_(std::move(capture_dir)) {
  if (lenient) lenient_ = contracts::Checker::embedded(contracts::Profile::kLenient);
  if (capture_dir_.empty()) {
    const char* env = std::getenv(kCaptureDirEnv);
    if (env) capture_dir_ = env;
  }
  if (capture_dir_.empty()) return;
  lenient_ = contracts::Checker::embedded(contracts::Profile::kLenient);
  std::error_code ec;
  std::filesystem::create_directories(capture_dir_, ec);
  if (ec) {
    std::fprintf(stderr, "fake-org: cannot create the capture folder %s: %s\n",
                 capture_dir_.c_str(), ec.message().c_str());
  }
}

void ContractMonitor::check_response(std::string_view method, std::string_view path, int status,
                                     const std::string& body) {
  // An OPTIONS answer has no body and no contract.
  if (method == "OPTIONS") return;
  // A HEAD is answered as its GET (the body is left unsent): the GET's
  // contract.
  if (method == "HEAD") method = "GET";
  // HTML pages and redirects (authorize, the PSP's pages) have no contract.
  contracts::routes::Match match = contracts::routes::match(method, path);
  if (!contracts::routes::in_contract(match)) return;
  // The platform's plain-text answers (the identity service's errors).
  if (contracts::routes::text_response(match, status)) return;
  nlohmann::json j = body.empty() ? nlohmann::json() : nlohmann::json::parse(body, nullptr, false);
  const std::string what =
      std::string(method) + " " + std::string(path) + " -> " + std::to_string(status);
  if (j.is_discarded()) {
    // A route of the contract always answers JSON.
    std::string head = body.substr(0, 120);
    return record(what,
                  "the body is not JSON; the contract's routes answer JSON only. It starts: " +
                      text::json_text(nlohmann::json(head)));
  }
  auto r = checker_->check_response(method, path, status, j);
  std::optional<contracts::CheckResult> lenient;
  if (lenient_) lenient = lenient_->check_response(method, path, status, j);
  if (lenient_ && !capture_dir_.empty()) {
    capture({{"kind", "response"},
             {"method", std::string(method)},
             {"path", std::string(path)},
             {"status", status}},
            r, *lenient, j);
  }
  // A status the contract has no schema for is a violation too: a client
  // written against the contract would not expect it.
  const contracts::CheckResult& decides = enforce_lenient_ ? *lenient : r;
  if (decides.ok()) return;
  record(what, decides.report());
}

void ContractMonitor::check_webhook(const nlohmann::json& body) {
  auto r = checker_->check_webhook(body);
  std::optional<contracts::CheckResult> lenient;
  if (lenient_) lenient = lenient_->check_webhook(body);
  if (lenient_ && !capture_dir_.empty()) capture({{"kind", "webhook"}}, r, *lenient, body);
  const contracts::CheckResult& decides = enforce_lenient_ ? *lenient : r;
  if (decides.ok()) return;
  record("webhook " + body.value("type", "?"), decides.report());
}

void ContractMonitor::capture(nlohmann::json entry, const contracts::CheckResult& strict,
                              const contracts::CheckResult& lenient, const nlohmann::json& body) {
  entry["checks"] = {verdict(contracts::Profile::kStrict, strict),
                     verdict(contracts::Profile::kLenient, lenient)};
  entry["body"] = body;
  char name[64];
  std::snprintf(name, sizeof name, "%ld-%06lu.json", static_cast<long>(::getpid()),
                capture_sequence.fetch_add(1) + 1);
  const std::filesystem::path file = std::filesystem::path(capture_dir_) / name;
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text::json_text(entry, 2) << "\n";
  if (!out) std::fprintf(stderr, "fake-org: cannot write %s\n", file.c_str());
}

void ContractMonitor::record(const std::string& what, const std::string& report) {
  ++violations_;
  // `what` holds the request's path: a client's control bytes stay escaped.
  if (log_)
    std::fprintf(stderr, "CONTRACT VIOLATION: %s\n%s\n", text::escape_control(what).c_str(),
                 text::escape_control(report, true).c_str());
  std::lock_guard lock(mu_);
  recent_.push_back({{"what", what}, {"report", report}});
  if (recent_.size() > 50) recent_.pop_front();
}

nlohmann::json ContractMonitor::recent() const {
  std::lock_guard lock(mu_);
  return nlohmann::json(recent_);
}

}  // namespace fake_org
