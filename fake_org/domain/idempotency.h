#pragma once
// IdempotencyKey (spec 2.3 leaves the repeat undefined; docs/decisions.md has
// the fake's rule): the first successful response of a key is kept for the
// org's idempotency window; the same key with the same body gets it again and
// changes nothing; the same key with another body is a conflict. While one
// request with a key runs, others with that key wait for its outcome.
//
// Locking rule: one mutex guards the map; waiters block on a condition
// variable, never while holding anything else.
#include <condition_variable>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>

#include "clock.h"

namespace fake_org {

class IdempotencyStore {
 public:
  enum class Verdict { kExecute, kReplay, kConflict };
  struct Claim {
    Verdict verdict = Verdict::kExecute;
    nlohmann::json response;  // for kReplay
  };

  // `digest` identifies the body. kExecute: the caller runs the request and
  // must then call complete() or abandon() for this key.
  Claim claim(const std::string& key, const std::string& digest, TimePoint now);
  void complete(const std::string& key, nlohmann::json response, TimePoint expires_at);
  // The request failed: nothing is kept, so a retry with the key runs again.
  void abandon(const std::string& key);
  void reset();
  size_t size() const;

 private:
  struct Entry {
    std::string digest;
    bool in_flight = true;
    nlohmann::json response;
    TimePoint expires_at{};
  };
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::unordered_map<std::string, Entry> entries_;
  size_t claims_since_sweep_ = 0;
};

}  // namespace fake_org
