#pragma once
// Webhook delivery (spec 6): the domain hands over finished event bodies; the
// engine delivers them from its own worker threads, never from a request thread.
//
// Policy (docs/decisions.md, "Webhook delivery"):
//   - Only to URLs inside an active permitted remote site (events/remote_sites.h);
//     others are never sent and are logged as `blocked` with the reason.
//   - An attempt succeeds on a 2xx answer. Network errors, timeouts and any
//     other status (3xx included) are retried until settings.max_attempts
//     attempts were made; then the event is `failed`.
//   - Backoff after the n-th failed attempt: full jitter, uniform in
//     [0, min(backoff_max, backoff_initial * 2^(n-1))].
//   - Backoff runs on real (steady) time, so a CI run never waits for org
//     hours. Moving the org clock past a retry's org-time due instant makes
//     that retry due at once (on_clock_changed); it never spends more than
//     that one attempt, so a clock jump cannot exhaust the attempt budget.
//   - Per payment intent FIFO: an intent's event N+1 is not attempted before
//     event N is delivered or has failed for good. Events without an intent
//     are independent. Different intents are delivered in parallel.
//   - Attempt times in the log are org time; durations are real time.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "domain/config/org_config.h"
#include "domain/core/clock.h"
#include "domain/core/ids.h"
#include "domain/store/org_state.h"
#include "events/remote_sites.h"
#include "events/webhook_sender.h"

namespace fake_org {

struct WebhookEvent {
  std::string type;               // "paymentIntent.processed", ...
  std::string payment_intent_id;  // the ordering key; empty: ordered with nothing
  std::string url;                // the intent's WebhookURL
  nlohmann::json body;            // {"type": ..., "data": {...}} (spec 6.1, 6.3)
};

// The wait after `failed_attempts` (>= 1) failed attempts, before jitter.
Millis backoff_ceiling(const WebhookSettings& settings, int failed_attempts);
// Full jitter: uniform in [0, backoff_ceiling(settings, failed_attempts)].
Millis backoff_delay(const WebhookSettings& settings, int failed_attempts, RandomSource& random);

enum class ResendOutcome {
  kQueued,      // a new attempt series is queued
  kUnknown,     // no event has that id
  kInProgress,  // the event is still pending; its current series must end first
  kBlocked,     // its URL is not a permitted remote site; sending again would not change that
  kQueueFull,   // max_pending deliveries are pending already
};

//   - The log keeps the newest log_limit events (default kDefaultLogLimit);
//     older finished ones are forgotten (their id answers unknown), so a
//     long-running org's memory stays bounded. A pending event is never
//     dropped, nor does it keep the finished ones behind it.
//   - At most max_pending deliveries (default kDefaultMaxPending) are pending
//     in all when an event starts a new lane: beyond that, the event is logged
//     `failed` with the reason "queue full: ...", never sent, and a resend then
//     answers kQueueFull. An event whose intent already has pending events is
//     always admitted (the cap counts it but does not refuse it), so an
//     intent's events never have a hole: refusing its N while N-1 waits would
//     send N+1 before N. That growth is bounded by the intents already pending.
//
// Locking rule: one mutex (mu_) guards every member below it in the private
// part; the sender is called without it held, so a slow receiver never blocks
// enqueue, the log or the admin API. Workers wait on work_cv_ (with the due
// time as deadline, never sleeping); wait_idle on idle_cv_. mu_ is a leaf: the
// engine calls nothing of the org while holding it, and the org publishes
// events (enqueue) while its record store's write lock is held, so one
// intent's events queue in commit order; safe because mu_ is never held while
// anything else is taken or waited on (the condition variables release it).
// For the same reason mu_ is held only briefly: log() and event() copy
// snapshots under it and build their JSON after releasing it.
class WebhookEngine {
 public:
  WebhookEngine(const WebhookSettings& settings, std::vector<RemoteSiteDef> remote_sites,
                std::shared_ptr<const Clock> clock, std::unique_ptr<WebhookSender> sender,
                std::shared_ptr<RandomSource> random, int workers = 2,
                size_t log_limit = kDefaultLogLimit, size_t max_pending = kDefaultMaxPending);
  static constexpr size_t kDefaultLogLimit = 10000;
  static constexpr size_t kDefaultMaxPending = 10000;
  // Stops the workers after their current attempt; pending deliveries are
  // abandoned and counted through the notice sink (stderr by default).
  ~WebhookEngine();
  // The same before destruction (a process that exits without freeing: the
  // attempts' outcomes are queued for the data directory once it returns);
  // the destructor then does nothing more. Call from one thread, once.
  void stop();

  // Where the engine's own notices go (one line each, no newline): the
  // deliveries abandoned at shutdown. nullptr: stderr. A host with its own
  // console (the runner's embedded org) routes or drops them, so they do not
  // interleave with its report. Call before the engine is used.
  using Notice = std::function<void(const std::string&)>;
  void set_notice(Notice notice);
  WebhookEngine(const WebhookEngine&) = delete;
  WebhookEngine& operator=(const WebhookEngine&) = delete;

  // Logs the event and queues it (or logs it blocked). Returns its id,
  // "evt_" + 24 base-36 characters. Never waits for the network.
  std::string enqueue(WebhookEvent event);

  // Every event, oldest first; only one intent's when payment_intent_id is set.
  // Each: id, type, payment_intent, url, state (pending|delivered|failed|blocked),
  // reason, created_at, series, body, attempts [{series, attempt, at, status,
  // error, duration_ms, retry_in_ms}].
  nlohmann::json log(const std::string& payment_intent_id = "") const;
  // One page of that log: the events from `offset` on, at most `limit`, and
  // how many there are in all. Only the page is copied under the lock.
  struct LogPage {
    nlohmann::json events;
    size_t total = 0;
  };
  LogPage log_page(const std::string& payment_intent_id, size_t offset, size_t limit) const;
  std::optional<nlohmann::json> event(const std::string& id) const;

  // A new attempt series of the same body under the same id (receivers can
  // deduplicate on X-Webhook-Id), queued behind its intent's pending events.
  ResendOutcome resend(const std::string& id);

  // Forgets the log and the queue (admin reset). An attempt in flight finishes
  // but is not recorded.
  void reset();

  // For tests: true once nothing is queued or in flight, false if `deadline` passes first.
  bool wait_idle(std::chrono::milliseconds deadline);

  // The org clock moved: retries whose org-time due instant has passed become due now.
  void on_clock_changed();

  // Every event's state also goes to `sink` (a data directory); a worker
  // flushes it after recording an attempt. Set while wiring, before events.
  void set_state_sink(std::shared_ptr<OrgStateSink> sink);
  // Puts back the log the sink kept (start-up, before events): pending
  // deliveries are due at once, in their intents' order. The number of
  // entries that were not events.
  size_t restore(const std::vector<std::pair<std::string, std::string>>& saved);

 private:
  using Steady = std::chrono::steady_clock;
  enum class State { kPending, kDelivered, kFailed, kBlocked };
  struct Attempt {
    int series = 1;
    int number = 1;
    TimePoint at;
    int status = 0;
    std::string error;
    int64_t duration_ms = 0;
    std::optional<int64_t> retry_in_ms;
  };
  struct Delivery {
    std::string id, type, payment_intent_id, url, lane;
    // The exact bytes sent and signed. Never changes after enqueue; shared
    // so log() copies a pointer, not the body, which a view parses.
    std::shared_ptr<const std::string> payload;
    TimePoint created_at;
    State state = State::kPending;
    std::string reason;
    int series = 1;
    int attempts_in_series = 0;
    std::vector<Attempt> attempts;
    bool forgotten = false;  // dropped by reset() while an attempt was in flight
    uint64_t seq = 0;        // creation order: its key in log_
  };
  // A lane's head, due at `steady` (or earlier, once the org clock passes `org`).
  struct Due {
    Steady::time_point steady;
    TimePoint org;
    uint64_t seq = 0;
    std::string lane;
    bool operator<(const Due& o) const {
      return steady != o.steady ? steady < o.steady : seq < o.seq;
    }
  };
  // The same entries by org-time due instant, so a clock change visits only
  // those it makes due, not the whole schedule.
  struct ByOrg {
    bool operator()(const Due& a, const Due& b) const {
      return a.org != b.org ? a.org < b.org : a.seq < b.seq;
    }
  };

  // What log() and event() show of a delivery, copied under mu_ so the JSON
  // is built after releasing it (writers enqueue under the store's write lock
  // and must not wait for a whole log to be serialised).
  struct Snapshot {
    std::string id, type, payment_intent_id, url, reason;
    State state = State::kPending;
    TimePoint created_at;
    int series = 1;
    std::shared_ptr<const std::string> payload;
    std::vector<Attempt> attempts;
  };

  static const char* state_name(State state);
  void worker();
  void schedule_locked(const std::string& lane, Millis delay);
  void start_workers_locked();
  void finish_locked(const std::shared_ptr<Delivery>& d);
  void trim_log_locked();
  void record_locked(const std::shared_ptr<Delivery>& d, Attempt attempt,
                     const HttpAttemptResult& result);
  Snapshot snapshot_locked(const Delivery& d) const;
  void save_locked(const Delivery& d);
  static std::shared_ptr<Delivery> from_saved(std::string_view entry);
  static nlohmann::json to_json(const Snapshot& s);
  bool idle_locked() const { return lanes_.empty() && in_flight_ == 0; }

  const WebhookSettings settings_;
  const RemoteSites sites_;
  const std::shared_ptr<const Clock> clock_;
  const std::unique_ptr<WebhookSender> sender_;
  const std::shared_ptr<RandomSource> random_;
  IdGenerator ids_;  // thread-safe on its own

  Notice notice_;                       // set before use; read in the destructor
  std::shared_ptr<OrgStateSink> sink_;  // set before use

  mutable std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable idle_cv_;
  const size_t log_limit_;
  const size_t max_pending_;
  // Creation order (seq -> event); finished_ holds the seqs of the events not
  // pending, oldest first, so trimming skips pending ones without a scan.
  std::map<uint64_t, std::shared_ptr<Delivery>> log_;
  std::set<uint64_t> finished_;
  uint64_t next_log_seq_ = 0;
  size_t pending_ = 0;  // events in lanes_
  std::unordered_map<std::string, std::shared_ptr<Delivery>> by_id_;
  // Lane key ("pi:<id>" or "evt:<id>") -> its events in order; the head is the
  // only one eligible. A lane exists only while it holds a pending event.
  std::map<std::string, std::deque<std::shared_ptr<Delivery>>> lanes_;
  std::set<Due> schedule_;       // at most one entry per lane: its head, when not in flight
  std::set<Due, ByOrg> by_org_;  // schedule_'s entries not yet due on the org clock
  uint64_t next_seq_ = 0;
  int in_flight_ = 0;
  bool stopping_ = false;

  // Started by the first delivery that becomes pending (an org that sends no
  // webhook, most of a thousand test orgs, keeps no thread); guarded by mu_
  // until stopping_ is set, then joined by stop() alone.
  const int worker_count_;
  std::vector<std::thread> workers_;
};

}  // namespace fake_org
