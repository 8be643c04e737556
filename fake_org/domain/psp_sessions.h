#pragma once
// Hosted payment sessions: what a RedirectURL points at. The domain opens one
// when the resolved processor needs the payer on its page; the simulated PSP
// (events/) shows and completes it.
//
// Locking rule: one mutex (mu_) guards the map and both indexes; callers get
// copies, and update()'s fn runs with mu_ held, so it must not call back into
// the store or take another lock (it only edits the session). The clock is
// read (an atomic) before taking mu_.
// A session expires `expiry` after it was created, on the org clock (a PSP's
// checkout page lives a day): from then on it is unknown to every lookup, and
// the next put() forgets it, so sessions never outgrow a day of traffic.
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>

#include "clock.h"
#include "org_config.h"
#include "org_state.h"

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

// A session as a data directory keeps it (org_state.h), and back; nullopt
// when the saved value is not one.
nlohmann::json saved_psp_session(const PspSession& s);
std::optional<PspSession> psp_session_from_saved(const nlohmann::json& saved);

class PspSessionStore {
 public:
  static constexpr Millis kDefaultExpiry{24 * 3600 * 1000};
  // Without a clock nothing expires (unit tests of the indexes).
  explicit PspSessionStore(std::shared_ptr<const Clock> clock = nullptr,
                           Millis expiry = kDefaultExpiry)
      : clock_(std::move(clock)), expiry_(expiry) {}

  // installment_id must not change afterwards (update() keeps it).
  void put(PspSession s) { put_session(std::move(s), true); }
  // Puts back a session the sink kept (start-up): not queued for the sink
  // again, which already has it.
  void restore(PspSession s) { put_session(std::move(s), false); }
  // Sessions also go to `sink` (a data directory); set while wiring.
  void set_state_sink(std::shared_ptr<OrgStateSink> sink) { sink_ = std::move(sink); }
  std::optional<PspSession> get(const std::string& id) const {
    const TimePoint now = now_or_never();
    std::lock_guard lock(mu_);
    auto it = sessions_.find(id);
    if (it == sessions_.end() || expired(it->second, now)) return std::nullopt;
    return it->second;
  }
  // The newest session of an installment (a pay-existing request opens another).
  std::optional<PspSession> find_by_installment(const std::string& installment_id) const {
    const TimePoint now = now_or_never();
    std::lock_guard lock(mu_);
    auto newest = newest_by_installment_.find(installment_id);
    if (newest == newest_by_installment_.end()) return std::nullopt;
    auto it = sessions_.find(newest->second);
    if (it == sessions_.end() || expired(it->second, now)) return std::nullopt;
    return it->second;
  }
  // Changes one session under the lock; false when the id is unknown.
  template <typename F>
  bool update(const std::string& id, F&& fn) {
    const TimePoint now = now_or_never();
    std::lock_guard lock(mu_);
    auto it = sessions_.find(id);
    if (it == sessions_.end() || expired(it->second, now)) return false;
    const std::string installment_id = it->second.installment_id;
    const TimePoint created = it->second.created;
    fn(it->second);
    it->second.installment_id = installment_id;  // the indexes' keys stay valid
    it->second.created = created;
    if (sink_) sink_->put(state_kind::kPspSession, id, saved_psp_session(it->second));
    return true;
  }
  void reset() {
    std::lock_guard lock(mu_);
    sessions_.clear();
    newest_by_installment_.clear();
    by_created_.clear();
    if (sink_) sink_->clear(state_kind::kPspSession);
  }
  // Sessions held, expired ones not yet forgotten included (admin, tests).
  size_t size() const {
    std::lock_guard lock(mu_);
    return sessions_.size();
  }
  Millis expiry() const { return expiry_; }

 private:
  void put_session(PspSession s, bool to_sink) {
    const TimePoint now = now_or_never();
    std::lock_guard lock(mu_);
    forget_expired(now);
    if (auto old = sessions_.find(s.id); old != sessions_.end()) unlist(old->second);
    by_created_.emplace(s.created, s.id);
    if (!s.installment_id.empty()) {
      auto& newest = newest_by_installment_[s.installment_id];
      auto old = sessions_.find(newest);
      if (old == sessions_.end() || !(s.created < old->second.created)) newest = s.id;
    }
    if (sink_ && to_sink) sink_->put(state_kind::kPspSession, s.id, saved_psp_session(s));
    sessions_[s.id] = std::move(s);
  }
  TimePoint now_or_never() const { return clock_ ? clock_->now() : TimePoint::min(); }
  bool expired(const PspSession& s, TimePoint now) const {
    return clock_ && now - s.created >= expiry_;
  }
  // The oldest first, while their time is over (the clock may have moved
  // back: a session created "later" waits for its own time).
  void forget_expired(TimePoint now) {
    if (!clock_) return;
    while (!by_created_.empty() && now - by_created_.begin()->first >= expiry_) {
      auto it = sessions_.find(by_created_.begin()->second);
      if (it != sessions_.end()) {
        if (sink_) sink_->erase(state_kind::kPspSession, it->first);
        unlist(it->second);
        sessions_.erase(it);
      } else {
        by_created_.erase(by_created_.begin());
      }
    }
  }
  // Takes a session out of both indexes (the map entry stays for the caller).
  void unlist(const PspSession& s) {
    auto [first, last] = by_created_.equal_range(s.created);
    for (auto it = first; it != last; ++it)
      if (it->second == s.id) {
        by_created_.erase(it);
        break;
      }
    if (auto newest = newest_by_installment_.find(s.installment_id);
        newest != newest_by_installment_.end() && newest->second == s.id)
      newest_by_installment_.erase(newest);
  }

  std::shared_ptr<const Clock> clock_;
  Millis expiry_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, PspSession> sessions_;
  // installment id -> its newest session's id (a pay-existing request opens
  // another), so the lookup by installment never walks every session.
  std::unordered_map<std::string, std::string> newest_by_installment_;
  // creation time -> session id: what expires next, without a walk.
  std::multimap<TimePoint, std::string> by_created_;
  std::shared_ptr<OrgStateSink> sink_;
};

// What a lookup of an unknown or expired session says, for the driver API and
// the org's own callbacks.
inline std::string no_open_session(const std::string& id, Millis expiry) {
  return "No open hosted payment session '" + id +
         "': use the last path segment of a RedirectURL; a session expires " +
         describe_duration(expiry) + " after its payment intent opened it (org clock)";
}

}  // namespace fake_org
