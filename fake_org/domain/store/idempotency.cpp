#include "idempotency.h"

#include "slot_table.h"
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
    if (sink_) sink_->erase(state_kind::kIdempotency, expiry_.begin()->second);
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
    if (sink_)
      sink_->put(state_kind::kIdempotency, key,
                 {{"digest", crypto::hex_encode(e.digest)},
                  {"response", e.response},
                  {"expires_at_ms", expires_at.time_since_epoch().count()}});
  }
  cv_.notify_all();
}

bool IdempotencyStore::restore(const std::string& key, const nlohmann::json& saved, TimePoint now) {
  if (!saved.is_object() || !saved.contains("digest") || !saved["digest"].is_string() ||
      !saved.contains("expires_at_ms") || !saved["expires_at_ms"].is_number_integer() ||
      !saved.contains("response"))
    return false;
  auto digest = crypto::hex_decode(saved["digest"].get<std::string>());
  if (!digest) return false;
  const TimePoint expires_at(Millis(saved["expires_at_ms"].get<int64_t>()));
  if (expires_at <= now) return true;  // its window passed while the org was down
  std::lock_guard lock(mu_);
  Entry e;
  e.digest = std::move(*digest);
  e.in_flight = false;
  e.response = saved["response"];
  e.expires_at = expires_at;
  if (auto old = entries_.find(key); old != entries_.end() && !old->second.in_flight)
    expiry_.erase({old->second.expires_at, key});
  entries_[key] = std::move(e);
  expiry_.emplace(expires_at, key);
  return true;
}

void IdempotencyStore::abandon(const std::string& key) {
  {
    std::lock_guard lock(mu_);
    entries_.erase(key);
  }
  cv_.notify_all();
}

void IdempotencyStore::reset() {
  // The in-flight entries move to a new table: erasing the others would
  // keep a busy run's bucket array. The old one is freed after the lock.
  std::unordered_map<std::string, Entry> gone;
  {
    std::lock_guard lock(mu_);
    gone.swap(entries_);
    for (auto& [key, entry] : gone)
      if (entry.in_flight) entries_.emplace(key, std::move(entry));
    expiry_.clear();  // it indexed completed entries only, all gone
    if (sink_) sink_->clear(state_kind::kIdempotency);
  }
  cv_.notify_all();
}

size_t IdempotencyStore::size() const {
  std::lock_guard lock(mu_);
  return entries_.size();
}

}  // namespace fake_org
