#pragma once
// IdempotencyKey (spec 2.3 leaves the repeat undefined; docs/decisions.md has
// the fake's rule): the first successful response of a key is kept for the
// org's idempotency window; the same key with the same body gets it again and
// changes nothing; the same key with another body is a conflict. While one
// request with a key runs, others with that key wait for its outcome.
//
// Locking rule: one mutex (mu_) guards the map and its expiry index; waiters
// block on cv_ (which releases mu_), never while holding anything else, and
// the request itself runs between claim() and complete()/abandon() without
// mu_ held, so a store lock taken by the request never nests inside mu_.
// complete() may run holding the record store's lock (a payment intent's
// commit: its entry then queues for a data directory with the records); mu_
// is a leaf there.
//
// Bounded without scans: completed entries are indexed by expiry, and each
// claim drops only the expired ones at the front of that index, so the map
// holds the keys of one window plus those in flight.
#include <condition_variable>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>

#include "domain/core/clock.h"
#include "org_state.h"
#include "slot_table.h"

namespace fake_org {

// What claim() compares: SHA-256 of the body's canonical dump (nlohmann
// objects keep keys sorted), so an entry holds 32 bytes, not the whole body
// (up to org.max_body_bytes) for its window.
std::string body_digest(const nlohmann::json& body);

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
  // Completed entries also go to `sink` (a data directory); set while wiring.
  void set_state_sink(std::shared_ptr<OrgStateSink> sink) { sink_ = std::move(sink); }
  // Puts back an entry the sink kept (start-up); false when it is not one.
  bool restore(const std::string& key, const nlohmann::json& saved, TimePoint now);

  // Holds a kExecute claim: abandons it when destroyed before complete(), so
  // a request that throws cannot leave its key in flight for ever (every
  // later request with the key would wait on cv_ without end, and a reset
  // keeps in-flight entries).
  class Pending {
   public:
    Pending(IdempotencyStore& store, std::string key) : store_(&store), key_(std::move(key)) {}
    Pending(const Pending&) = delete;
    Pending& operator=(const Pending&) = delete;
    ~Pending() {
      if (store_) store_->abandon(key_);
    }
    void complete(nlohmann::json response, TimePoint expires_at) {
      store_->complete(key_, std::move(response), expires_at);
      store_ = nullptr;
    }

   private:
    IdempotencyStore* store_;
    std::string key_;
  };

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
  // (expires_at, key) of every completed entry.
  std::set<std::pair<TimePoint, std::string>> expiry_;
  std::shared_ptr<OrgStateSink> sink_;
};

}  // namespace fake_org
