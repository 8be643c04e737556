#pragma once
// Hosted payment sessions: what a RedirectURL points at. The domain opens one
// when the resolved processor needs the payer on its page; the simulated PSP
// (events/) shows and completes it.
//
// Locking rule: one mutex (mu_) guards the map and its installment index;
// callers get copies, and update()'s fn runs with mu_ held, so it must not
// call back into the store or take another lock (it only edits the session).
// Sessions live until the admin reset, like the records they belong to.
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
  // The installment's one-off inline mandate this page's payment replaces
  // (pay-existing with another method): Inactive once the page collects.
  std::string superseded_mandate_id;
  TimePoint created{};
};

class PspSessionStore {
 public:
  // installment_id must not change afterwards (update() keeps it).
  void put(PspSession s) {
    std::lock_guard lock(mu_);
    if (!s.installment_id.empty()) {
      auto& newest = newest_by_installment_[s.installment_id];
      auto old = sessions_.find(newest);
      if (old == sessions_.end() || !(s.created < old->second.created)) newest = s.id;
    }
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
    auto newest = newest_by_installment_.find(installment_id);
    if (newest == newest_by_installment_.end()) return std::nullopt;
    auto it = sessions_.find(newest->second);
    if (it == sessions_.end()) return std::nullopt;
    return it->second;
  }
  // Changes one session under the lock; false when the id is unknown.
  template <typename F>
  bool update(const std::string& id, F&& fn) {
    std::lock_guard lock(mu_);
    auto it = sessions_.find(id);
    if (it == sessions_.end()) return false;
    const std::string installment_id = it->second.installment_id;
    fn(it->second);
    it->second.installment_id = installment_id;  // the index's key stays valid
    return true;
  }
  void reset() {
    std::lock_guard lock(mu_);
    sessions_.clear();
    newest_by_installment_.clear();
  }

 private:
  mutable std::mutex mu_;
  std::unordered_map<std::string, PspSession> sessions_;
  // installment id -> its newest session's id (a pay-existing request opens
  // another), so the lookup by installment never walks every session.
  std::unordered_map<std::string, std::string> newest_by_installment_;
};

}  // namespace fake_org
