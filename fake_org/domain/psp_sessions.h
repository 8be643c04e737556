#pragma once
// Hosted payment sessions: what a RedirectURL points at. The domain opens one
// when the resolved processor needs the payer on its page; the simulated PSP
// (events/) shows and completes it.
//
// Locking rule: one mutex guards the map; callers get copies.
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>

#include "clock.h"
#include "org_config.h"

namespace fake_org {

struct PspSession {
  std::string id;  // the last path segment of the RedirectURL
  std::string payment_intent_id;
  std::string installment_id;  // may be empty (a recurring setup without initial payment)
  std::string recurring_id;
  std::string method, processor, target;
  MethodKind kind = MethodKind::kCard;  // the fixture's: what the page asks, what the PSP returns
  std::string currency;
  nlohmann::json amount;  // as shown on the page
  std::string success_url, failure_url;
  std::string status = "pending";  // pending | completed | failed | cancelled
  int attempts = 0;                // payer actions so far (a decline keeps it open)
  std::string last_outcome;        // success | failure | cancel of the latest action
  std::string payment_id;          // the cpm__Payment__c of a completed session
  TimePoint created{};
};

class PspSessionStore {
 public:
  void put(PspSession s) {
    std::lock_guard lock(mu_);
    sessions_[s.id] = std::move(s);
  }
  std::optional<PspSession> get(const std::string& id) const {
    std::lock_guard lock(mu_);
    auto it = sessions_.find(id);
    if (it == sessions_.end()) return std::nullopt;
    return it->second;
  }
  // The newest session of an installment (a pay-existing request opens another).
  std::optional<PspSession> find_by_installment(const std::string& installment_id) const {
    std::lock_guard lock(mu_);
    const PspSession* best = nullptr;
    for (const auto& [id, s] : sessions_)
      if (s.installment_id == installment_id && (!best || best->created < s.created)) best = &s;
    if (!best) return std::nullopt;
    return *best;
  }
  // Changes one session under the lock; false when the id is unknown.
  template <typename F>
  bool update(const std::string& id, F&& fn) {
    std::lock_guard lock(mu_);
    auto it = sessions_.find(id);
    if (it == sessions_.end()) return false;
    fn(it->second);
    return true;
  }
  void reset() {
    std::lock_guard lock(mu_);
    sessions_.clear();
  }

 private:
  mutable std::mutex mu_;
  std::unordered_map<std::string, PspSession> sessions_;
};

}  // namespace fake_org
