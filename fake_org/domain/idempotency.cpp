#include "idempotency.h"

#include "util/crypto.h"
#include "util/json_text.h"

namespace fake_org {

std::string body_digest(const nlohmann::json& body) {
  return crypto::sha256(text::json_text(body));
}

IdempotencyStore::Claim IdempotencyStore::claim(const std::string& key, const std::string& digest,
                                                TimePoint now) {
  std::unique_lock lock(mu_);
  // Expired entries go first (front of the expiry index only), so the map stays
  // bounded by the keys of one window without a timer thread or a scan.
  while (!expiry_.empty() && expiry_.begin()->first <= now) {
    entries_.erase(expiry_.begin()->second);
    expiry_.erase(expiry_.begin());
  }
  for (;;) {
    auto it = entries_.find(key);
    if (it != entries_.end() && !it->second.in_flight && it->second.expires_at <= now) {
      // Expired after the purge above (a waiter's `now` is from before its wait).
      expiry_.erase({it->second.expires_at, key});
      entries_.erase(it);
      it = entries_.end();
    }
    if (it == entries_.end()) {
      Entry e;
      e.digest = digest;
      entries_[key] = std::move(e);
      return {Verdict::kExecute, {}};
    }
    if (it->second.digest != digest) return {Verdict::kConflict, {}};
    if (!it->second.in_flight) return {Verdict::kReplay, it->second.response};
    cv_.wait(lock);  // the first request with this key is still running
  }
}

void IdempotencyStore::complete(const std::string& key, nlohmann::json response,
                                TimePoint expires_at) {
  {
    std::lock_guard lock(mu_);
    auto& e = entries_[key];
    if (!e.in_flight) expiry_.erase({e.expires_at, key});  // completed twice: keep one entry
    e.in_flight = false;
    e.response = std::move(response);
    e.expires_at = expires_at;
    expiry_.emplace(expires_at, key);
  }
  cv_.notify_all();
}

void IdempotencyStore::abandon(const std::string& key) {
  {
    std::lock_guard lock(mu_);
    entries_.erase(key);
  }
  cv_.notify_all();
}

void IdempotencyStore::reset() {
  {
    std::lock_guard lock(mu_);
    for (auto it = entries_.begin(); it != entries_.end();)
      it = it->second.in_flight ? std::next(it) : entries_.erase(it);
    expiry_.clear();  // it indexed completed entries only, all gone
  }
  cv_.notify_all();
}

size_t IdempotencyStore::size() const {
  std::lock_guard lock(mu_);
  return entries_.size();
}

}  // namespace fake_org
