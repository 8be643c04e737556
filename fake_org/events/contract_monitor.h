#pragma once
// `fake-org --check-contracts`: every response and webhook body the fake
// emits is validated against the strict contracts (contracts/); a mismatch is
// logged loudly and counted, so tests can fail on it.
//
// Locking rule: the checker is immutable and thread-safe; one mutex guards
// the list of recent violations; the counter is atomic.
#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

namespace contracts {
class Checker;
}

namespace fake_org {

class ContractMonitor {
 public:
  explicit ContractMonitor(bool log_to_stderr = true);
  void check_response(std::string_view method, std::string_view path, int status,
                      const std::string& body);
  void check_webhook(const nlohmann::json& body);
  size_t violations() const { return violations_.load(); }
  nlohmann::json recent() const;  // the last violations, newest last

 private:
  void record(const std::string& what, const std::string& report);
  std::shared_ptr<const contracts::Checker> checker_;
  bool log_;
  std::atomic<size_t> violations_{0};
  mutable std::mutex mu_;
  std::deque<nlohmann::json> recent_;
};

}  // namespace fake_org
