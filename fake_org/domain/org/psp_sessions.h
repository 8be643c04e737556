#pragma once
// Hosted payment sessions: what a RedirectURL points at. The domain opens one
// when the resolved processor needs the payer on its page; the simulated PSP
// (events/) shows and completes it.
//
// Locking rule: one mutex (mu_) guards the sessions and their indexes; callers get
// copies, and update()'s fn runs with mu_ held, so it must not call back into
// the store or take another lock (it only edits a copy of the session). The
// clock is read (an atomic) before taking mu_.
// A session expires `expiry` after it was created, on the org clock (a PSP's
// checkout page lives a day): from then on it is unknown to every lookup, and
// the next put() forgets it, so sessions never outgrow a day of traffic.
#include <array>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/config/org_config.h"
#include "domain/core/clock.h"
#include "domain/store/org_state.h"
#include "domain/store/slot_table.h"

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

// The texts of a session packed into one block, each behind its length (1-4
// bytes, 7 bits a byte): one allocation where a PspSession holds a dozen
// strings (none when every text is empty). Immutable once made.
class PackedTexts {
 public:
  PackedTexts() = default;
  explicit PackedTexts(std::initializer_list<std::string_view> texts);
  // The i-th text given to the constructor; empty past the last.
  std::string_view at(size_t i) const;
  // The block's bytes (memory figures).
  size_t heap_bytes() const;

 private:
  std::unique_ptr<char[]> block_;  // the count (1 byte), then lengths and texts
};

class PspSessionStore {
 public:
  static constexpr Millis kDefaultExpiry{24 * 3600 * 1000};
  // Without a clock nothing expires (unit tests of the indexes).
  explicit PspSessionStore(std::shared_ptr<const Clock> clock = nullptr,
                           Millis expiry = kDefaultExpiry)
      : clock_(std::move(clock)), expiry_(expiry) {}

  // installment_id must not change afterwards (update() keeps it).
  void put(PspSession s) { put_session(s, true); }
  // Puts back a session the sink kept (start-up): not queued for the sink
  // again, which already has it.
  void restore(PspSession s) { put_session(s, false); }
  // Sessions also go to `sink` (a data directory); set while wiring.
  void set_state_sink(std::shared_ptr<OrgStateSink> sink) { sink_ = std::move(sink); }
  std::optional<PspSession> get(const std::string& id) const;
  // The newest session of an installment (a pay-existing request opens another).
  std::optional<PspSession> find_by_installment(const std::string& installment_id) const;
  // Changes one session under the lock; false when the id is unknown. Only
  // what a payer's actions change is kept: status, attempts, last_outcome and
  // payment_id; the rest was fixed when the session opened.
  template <typename F>
  bool update(const std::string& id, F&& fn) {
    const TimePoint now = now_or_never();
    std::lock_guard lock(mu_);
    Stored* s = find_open(id, now);
    if (!s) return false;
    PspSession session = unpack(*s);
    fn(session);
    keep_outcome(*s, session);
    return true;
  }
  void reset();
  // Sessions held, expired ones not yet forgotten included (admin, tests).
  size_t size() const {
    std::lock_guard lock(mu_);
    return slots_.size() - free_.size();
  }
  Millis expiry() const { return expiry_; }
  // Heap bytes the sessions and their indexes hold (memory figures).
  size_t heap_bytes() const;

 private:
  // Texts most sessions repeat (what the page shows, the status) are kept
  // once per process, as a field's repeated values are (FieldValues): a
  // session holds their numbers. Coded texts: Fixed's kMethod..kFailureUrl,
  // then Outcome's kStatus and kLastOutcome.
  static constexpr size_t kCoded = 9;
  // A session as held: about 190 bytes with its index entries, where a
  // PspSession in a map was about 1 KB (decision 119).
  struct Stored {
    PackedTexts fixed;    // id, installment id and what the page shows (Fixed)
    PackedTexts outcome;  // status, last outcome, payment id (Outcome)
    TimePoint created{};
    int32_t attempts = 0;
    uint32_t generation = 0;  // bumped when the slot is freed
    MethodKind kind = MethodKind::kCard;
    uint16_t coded = 0;  // bit c: coded text c is FieldValues' number codes[c] (empty in its block)
    std::array<uint8_t, kCoded> codes{};
  };
  enum Fixed : uint8_t {
    kId,
    kInstallmentId,
    kPaymentIntentId,
    kRecurringId,
    kMethod,
    kProcessor,
    kTarget,
    kCurrency,
    kAmount,  // JSON text
    kSuccessUrl,
    kFailureUrl,
    kSupersededMandateId,
  };
  enum Outcome : uint8_t { kStatus, kLastOutcome, kPaymentId };
  static constexpr size_t coded_index(Fixed f) { return f - kMethod; }
  static constexpr size_t coded_index(Outcome o) { return o + 7; }
  // A text as the block keeps it: empty when its number is kept in `codes`.
  static std::string_view code(Stored& s, size_t c, std::string_view text);
  static std::string_view text(const Stored& s, Fixed f);
  static std::string_view text(const Stored& s, Outcome o);
  // The outcome texts into `stored`.
  static void pack_outcome(Stored& stored, const PspSession& s);
  // When a session was opened, for the heap of what expires next.
  struct Opened {
    TimePoint created;
    uint32_t slot;
    uint32_t generation;  // the slot's when pushed: a later one makes it stale
    bool operator>(const Opened& o) const { return created > o.created; }
  };

  static Stored pack(const PspSession& s);
  static PspSession unpack(const Stored& s);
  // Takes what update() may change from `s` into `stored`, and tells the sink.
  void keep_outcome(Stored& stored, const PspSession& s);
  Stored* find_open(std::string_view id, TimePoint now);
  const Stored* find_open(std::string_view id, TimePoint now) const;
  // The slot of a session by id, and of an installment's newest session.
  std::optional<uint32_t> slot_of(std::string_view id) const;
  std::optional<uint32_t> newest_of(std::string_view installment_id) const;
  void put_session(const PspSession& s, bool to_sink);
  TimePoint now_or_never() const { return clock_ ? clock_->now() : TimePoint::min(); }
  bool expired(const Stored& s, TimePoint now) const {
    return clock_ && now - s.created >= expiry_;
  }
  void forget_expired(TimePoint now);
  // Frees a session's slot and takes it out of both indexes.
  void remove(uint32_t slot);
  static uint32_t key_hash(std::string_view key) {
    return SlotTable::hash_of(std::hash<std::string_view>{}(key));
  }

  std::shared_ptr<const Clock> clock_;
  Millis expiry_;
  mutable std::mutex mu_;
  // Sessions in slots reused once freed; the tables file slots by the hash
  // of the id and of the installment id (a lookup checks the slot's own
  // text), 8 bytes an entry, no node or key copied per session.
  std::vector<Stored> slots_;
  std::vector<uint32_t> free_;
  SlotTable by_id_;
  // installment id -> its newest session (a pay-existing request opens
  // another), so the lookup by installment never walks every session.
  SlotTable newest_by_installment_;
  // A min-heap by creation time: what expires next, without a walk (the
  // clock may move back, so opening order is not expiry order).
  std::vector<Opened> by_created_;
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
