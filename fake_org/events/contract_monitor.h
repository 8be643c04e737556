#pragma once
// `fake-org --check-contracts`: every response and webhook body the fake
// emits is validated against the strict contracts (contracts/; the lenient ones
// for an org answering in the package's layouts); a mismatch is
// logged loudly and counted, so tests can fail on it.
//
// Capture (`fake-org --capture-dir DIR`, or FAKE_ORG_CAPTURE_DIR=DIR for an
// embedded org): each checked body is also written to DIR as one JSON file
// with its route, the schema each profile chose and the checker's verdicts,
// so that an independent validator (contracts/tools/ajv_check.js) can check
// the same bodies against the same schemas and must reach the same verdicts.
//
// Locking rule: the checkers are immutable and thread-safe; one mutex guards
// the list of recent violations; the counters are atomic; each capture file is
// written by one thread under a unique name, so capture takes no lock.
#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

namespace contracts {
class Checker;
struct CheckResult;
}  // namespace contracts

namespace fake_org {

class ContractMonitor {
 public:
  // The environment variable that turns capture on, for any monitor.
  static constexpr const char* kCaptureDirEnv = "FAKE_ORG_CAPTURE_DIR";

  // `capture_dir` empty: the environment variable decides. `lenient`: the
  // org answers in the real package's layouts (fixture `org.response_style:
  // package`), which only the lenient profile accepts, so that one decides.
  explicit ContractMonitor(bool log_to_stderr = true, std::string capture_dir = "",
                           bool lenient = false);
  void check_response(std::string_view method, std::string_view path, int status,
                      const std::string& body);
  void check_webhook(const nlohmann::json& body);
  size_t violations() const { return violations_.load(); }
  nlohmann::json recent() const;  // the last violations, newest last
  const std::string& capture_dir() const { return capture_dir_; }

 private:
  void record(const std::string& what, const std::string& report);
  void capture(nlohmann::json entry, const contracts::CheckResult& strict,
               const contracts::CheckResult& lenient, const nlohmann::json& body);
  std::shared_ptr<const contracts::Checker> checker_;
  std::shared_ptr<const contracts::Checker> lenient_;  // when capturing or enforcing it
  bool enforce_lenient_;
  bool log_;
  std::string capture_dir_;
  std::atomic<size_t> violations_{0};
  mutable std::mutex mu_;
  std::deque<nlohmann::json> recent_;
};

}  // namespace fake_org
