#include "events/webhook_engine.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <iostream>

#include "events/webhook_signature.h"
#include "util/json_text.h"

namespace fake_org {

namespace {

std::string attempt_outcome(const HttpAttemptResult& r) {
  return r.status != 0 ? "HTTP " + std::to_string(r.status) : r.error;
}

}  // namespace

Millis backoff_ceiling(const WebhookSettings& settings, int failed_attempts) {
  const int64_t cap = std::max<int64_t>(0, settings.backoff_max.count());
  int64_t wait = std::max<int64_t>(0, settings.backoff_initial.count());
  for (int i = 1; i < failed_attempts && wait < cap; ++i) wait *= 2;
  return Millis(std::min(wait, cap));
}

Millis backoff_delay(const WebhookSettings& settings, int failed_attempts, RandomSource& random) {
  const int64_t ceiling = backoff_ceiling(settings, failed_attempts).count();
  if (ceiling <= 0) return Millis(0);
  uint8_t bytes[8];
  random.fill(bytes, sizeof bytes);
  uint64_t u = 0;
  for (uint8_t b : bytes) u = (u << 8) | b;
  // 53 random bits as a fraction in [0, 1), scaled so both ends of [0, ceiling] are reachable.
  double fraction = static_cast<double>(u >> 11) / 9007199254740992.0;
  auto wait = static_cast<int64_t>(std::floor(fraction * static_cast<double>(ceiling + 1)));
  return Millis(std::min(wait, ceiling));
}

WebhookEngine::WebhookEngine(const WebhookSettings& settings,
                             std::vector<RemoteSiteDef> remote_sites,
                             std::shared_ptr<const Clock> clock,
                             std::unique_ptr<WebhookSender> sender,
                             std::shared_ptr<RandomSource> random, int workers, size_t log_limit,
                             size_t max_pending)
    : settings_(settings),
      sites_(std::move(remote_sites)),
      clock_(std::move(clock)),
      sender_(std::move(sender)),
      random_(std::move(random)),
      ids_(random_),
      log_limit_(std::max<size_t>(1, log_limit)),
      max_pending_(std::max<size_t>(1, max_pending)),
      worker_count_(std::max(1, workers)) {}

void WebhookEngine::start_workers_locked() {
  if (!workers_.empty() || stopping_) return;
  for (int i = 0; i < worker_count_; ++i) workers_.emplace_back([this] { worker(); });
}

WebhookEngine::~WebhookEngine() {
  stop();
}

void WebhookEngine::stop() {
  size_t abandoned = 0;
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (stopping_) return;
    stopping_ = true;
    abandoned = pending_;
  }
  work_cv_.notify_all();
  for (auto& t : workers_) t.join();
  if (abandoned == 0) return;
  const std::string line = "webhooks: " + std::to_string(abandoned) + " pending deliver" +
                           (abandoned == 1 ? "y" : "ies") + " abandoned at shutdown";
  if (notice_)
    notice_(line);
  else
    std::cerr << line << "\n";
}

void WebhookEngine::set_notice(Notice notice) {
  notice_ = std::move(notice);
}

std::string WebhookEngine::enqueue(WebhookEvent event) {
  auto d = std::make_shared<Delivery>();
  d->id = "evt_" + ids_.random_base36(24);
  d->type = std::move(event.type);
  d->payment_intent_id = std::move(event.payment_intent_id);
  d->url = std::move(event.url);
  d->payload = std::make_shared<const std::string>(text::json_text(event.body));
  d->created_at = clock_->now();
  d->lane = d->payment_intent_id.empty() ? "evt:" + d->id : "pi:" + d->payment_intent_id;
  RemoteSites::Verdict verdict =
      d->url.empty() ? RemoteSites::Verdict{false, "the payment intent has no WebhookURL"}
                     : sites_.check(d->url);

  std::lock_guard<std::mutex> lk(mu_);
  d->seq = next_log_seq_++;
  log_.emplace(d->seq, d);
  by_id_[d->id] = d;
  if (!verdict.permitted) {
    d->state = State::kBlocked;
    d->reason = std::move(verdict.reason);
  } else if (pending_ >= max_pending_ && lanes_.find(d->lane) == lanes_.end()) {
    // Bounded memory: a receiver that never answers must not let the queue
    // grow without end. Logged like any outcome, so the admin API shows it.
    // Only a new lane is refused: refusing event N of an intent with events
    // pending would let N+1 go out before N (and a resend of N after it),
    // breaking "strictly in order" (docs/decisions.md row 21).
    d->state = State::kFailed;
    d->reason = "queue full: " + std::to_string(pending_) +
                " deliveries pending (webhooks.max_pending); not sent";
  } else {
    ++pending_;
    auto& lane = lanes_[d->lane];
    lane.push_back(d);
    if (lane.size() == 1) schedule_locked(d->lane, Millis(0));
  }
  if (d->state != State::kPending) finished_.insert(d->seq);
  save_locked(*d);
  trim_log_locked();
  return d->id;
}

void WebhookEngine::schedule_locked(const std::string& lane, Millis delay) {
  start_workers_locked();
  Due due{Steady::now() + delay, clock_->now() + delay, next_seq_++, lane};
  if (delay.count() > 0) by_org_.insert(due);
  schedule_.insert(std::move(due));
  work_cv_.notify_all();
}

// Drops the oldest finished events beyond the limit, passing over pending
// ones, which stay until they finish (a delivery is never lost from its
// lane): one old event retrying for minutes does not hold the log open. The
// log holds log_limit_ plus the pending ones: at most max_pending_, plus the
// events that joined lanes already pending when the cap was reached.
void WebhookEngine::trim_log_locked() {
  while (log_.size() > log_limit_ && !finished_.empty()) {
    auto oldest = log_.find(*finished_.begin());
    finished_.erase(finished_.begin());
    if (oldest == log_.end()) continue;
    if (sink_) sink_->erase(state_kind::kWebhook, oldest->second->id);
    by_id_.erase(oldest->second->id);
    log_.erase(oldest);
  }
}

void WebhookEngine::worker() {
  std::unique_lock<std::mutex> lk(mu_);
  for (;;) {
    if (stopping_) return;
    if (schedule_.empty()) {
      work_cv_.wait(lk);
      continue;
    }
    auto first = schedule_.begin();
    if (first->steady > Steady::now()) {
      // A copy: the entry may be erased while the lock is released.
      const Steady::time_point when = first->steady;
      work_cv_.wait_until(lk, when);
      continue;
    }
    auto lane = lanes_.find(first->lane);
    by_org_.erase(*first);
    schedule_.erase(first);
    if (lane == lanes_.end() || lane->second.empty()) continue;
    std::shared_ptr<Delivery> d = lane->second.front();

    Attempt attempt;
    attempt.series = d->series;
    attempt.number = ++d->attempts_in_series;
    auto unix_seconds = std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
    HeaderList headers = webhook_headers({d->id, attempt.number, unix_seconds}, *d->payload,
                                         settings_.signing_secret);
    ++in_flight_;
    const std::shared_ptr<OrgStateSink> sink = sink_;
    lk.unlock();
    // With a data directory, the change an event reports is on disk before
    // a receiver hears of it: a crash must not leave it told of an intent
    // the restarted org never had. Usually the request's own flush did it.
    if (sink) (void)sink->flush();

    attempt.at = clock_->now();
    auto start = Steady::now();
    HttpAttemptResult result;
    try {
      // url and payload never change after enqueue, so reading them unlocked is safe.
      result = sender_->post(d->url, *d->payload, headers, settings_.attempt_timeout);
    } catch (const std::exception& e) {
      result = {0, std::string("sender failed: ") + e.what()};
    }
    attempt.duration_ms = std::chrono::duration_cast<Millis>(Steady::now() - start).count();

    lk.lock();
    --in_flight_;
    if (!d->forgotten) record_locked(d, std::move(attempt), result);
    if (idle_locked()) idle_cv_.notify_all();
    if (sink) {
      // Written now, not at the next request: a restart must not send a
      // delivered event again. A failed write is retried with the next flush.
      lk.unlock();
      (void)sink->flush();
      lk.lock();
    }
  }
}

void WebhookEngine::record_locked(const std::shared_ptr<Delivery>& d, Attempt attempt,
                                  const HttpAttemptResult& result) {
  attempt.status = result.status;
  attempt.error = result.status != 0 ? std::string() : result.error;
  if (result.status >= 200 && result.status < 300) {
    d->state = State::kDelivered;
    d->reason.clear();
    d->attempts.push_back(std::move(attempt));
    save_locked(*d);
    finish_locked(d);
    return;
  }
  if (d->attempts_in_series >= std::max(1, settings_.max_attempts)) {
    d->state = State::kFailed;
    d->reason = "gave up after " + std::to_string(d->attempts_in_series) +
                (d->attempts_in_series == 1 ? " attempt" : " attempts") +
                "; last: " + attempt_outcome(result);
    d->attempts.push_back(std::move(attempt));
    save_locked(*d);
    finish_locked(d);
    return;
  }
  Millis delay = backoff_delay(settings_, d->attempts_in_series, *random_);
  attempt.retry_in_ms = delay.count();
  d->attempts.push_back(std::move(attempt));
  save_locked(*d);
  schedule_locked(d->lane, delay);
}

void WebhookEngine::finish_locked(const std::shared_ptr<Delivery>& d) {
  auto lane = lanes_.find(d->lane);
  if (lane == lanes_.end()) return;
  auto& queue = lane->second;
  if (!queue.empty() && queue.front() == d) {
    queue.pop_front();
    --pending_;
    finished_.insert(d->seq);
  }
  if (queue.empty())
    lanes_.erase(lane);
  else
    schedule_locked(d->lane, Millis(0));
  trim_log_locked();
}

ResendOutcome WebhookEngine::resend(const std::string& id) {
  std::lock_guard<std::mutex> lk(mu_);
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return ResendOutcome::kUnknown;
  Delivery& d = *it->second;
  if (d.state == State::kPending) return ResendOutcome::kInProgress;
  if (d.state == State::kBlocked) return ResendOutcome::kBlocked;
  if (pending_ >= max_pending_) return ResendOutcome::kQueueFull;
  finished_.erase(d.seq);
  ++pending_;
  d.state = State::kPending;
  d.reason.clear();
  ++d.series;
  d.attempts_in_series = 0;
  auto& lane = lanes_[d.lane];
  lane.push_back(it->second);
  if (lane.size() == 1) schedule_locked(d.lane, Millis(0));
  save_locked(d);
  return ResendOutcome::kQueued;
}

void WebhookEngine::reset() {
  // A fresh table, not clear(), which keeps a busy run's bucket array.
  std::unordered_map<std::string, std::shared_ptr<Delivery>> by_id;
  std::lock_guard<std::mutex> lk(mu_);
  for (auto& [seq, d] : log_) d->forgotten = true;
  log_.clear();
  finished_.clear();
  pending_ = 0;
  by_id.swap(by_id_);
  lanes_.clear();
  schedule_.clear();
  by_org_.clear();
  if (sink_) sink_->clear(state_kind::kWebhook);
  if (idle_locked()) idle_cv_.notify_all();
}

bool WebhookEngine::wait_idle(std::chrono::milliseconds deadline) {
  std::unique_lock<std::mutex> lk(mu_);
  return idle_cv_.wait_for(lk, deadline, [this] { return idle_locked(); });
}

void WebhookEngine::on_clock_changed() {
  std::lock_guard<std::mutex> lk(mu_);
  const TimePoint org_now = clock_->now();
  const auto now = Steady::now();
  bool any = false;
  // Only the entries the org clock has reached: the front of by_org_.
  while (!by_org_.empty() && by_org_.begin()->org <= org_now) {
    Due due = *by_org_.begin();
    by_org_.erase(by_org_.begin());
    auto it = schedule_.find(due);
    if (it == schedule_.end() || it->steady <= now) continue;  // already due
    schedule_.erase(it);
    due.steady = now;
    schedule_.insert(std::move(due));
    any = true;
  }
  if (any) work_cv_.notify_all();
}

const char* WebhookEngine::state_name(State state) {
  switch (state) {
    case State::kPending:
      return "pending";
    case State::kDelivered:
      return "delivered";
    case State::kFailed:
      return "failed";
    case State::kBlocked:
      return "blocked";
  }
  return "pending";
}

WebhookEngine::Snapshot WebhookEngine::snapshot_locked(const Delivery& d) const {
  Snapshot s{d.id,         d.type,   d.payment_intent_id, d.url,     d.reason, d.state,
             d.created_at, d.series, d.payload,           d.attempts};
  if (d.state == State::kPending && s.reason.empty()) {
    auto lane = lanes_.find(d.lane);
    if (lane != lanes_.end() && !lane->second.empty() && lane->second.front().get() != &d)
      s.reason = "waiting for " + lane->second.front()->id + " of the same payment intent";
  }
  return s;
}

nlohmann::json WebhookEngine::to_json(const Snapshot& s) {
  nlohmann::json attempts = nlohmann::json::array();
  for (const auto& a : s.attempts)
    attempts.push_back({{"series", a.series},
                        {"attempt", a.number},
                        {"at", format_iso8601(a.at)},
                        {"status", a.status},
                        {"error", a.error},
                        {"duration_ms", a.duration_ms},
                        {"retry_in_ms", a.retry_in_ms ? nlohmann::json(*a.retry_in_ms)
                                                      : nlohmann::json(nullptr)}});
  // A payload that does not parse (a data directory edited by hand) shows as null.
  nlohmann::json body =
      s.payload ? nlohmann::json::parse(*s.payload, nullptr, false) : nlohmann::json();
  if (body.is_discarded()) body = nullptr;
  return {{"id", s.id},
          {"type", s.type},
          {"payment_intent", s.payment_intent_id},
          {"url", s.url},
          {"state", state_name(s.state)},
          {"reason", s.reason},
          {"created_at", format_iso8601(s.created_at)},
          {"series", s.series},
          {"body", std::move(body)},
          {"attempts", attempts}};
}

// Copies under mu_ (bounded: log_limit_ plus the pending events), serialises
// after releasing it, so enqueue never waits for the JSON of a whole log.
nlohmann::json WebhookEngine::log(const std::string& payment_intent_id) const {
  std::vector<Snapshot> snapshots;
  {
    std::lock_guard<std::mutex> lk(mu_);
    snapshots.reserve(payment_intent_id.empty() ? log_.size() : 0);
    for (const auto& [seq, d] : log_)
      if (payment_intent_id.empty() || d->payment_intent_id == payment_intent_id)
        snapshots.push_back(snapshot_locked(*d));
  }
  nlohmann::json out = nlohmann::json::array();
  for (const auto& s : snapshots) out.push_back(to_json(s));
  return out;
}

WebhookEngine::LogPage WebhookEngine::log_page(const std::string& payment_intent_id, size_t offset,
                                               size_t limit) const {
  std::vector<Snapshot> snapshots;
  size_t total = 0;
  {
    std::lock_guard<std::mutex> lk(mu_);
    for (const auto& [seq, d] : log_) {
      if (!payment_intent_id.empty() && d->payment_intent_id != payment_intent_id) continue;
      if (total >= offset && snapshots.size() < limit) snapshots.push_back(snapshot_locked(*d));
      ++total;
    }
  }
  LogPage page{nlohmann::json::array(), total};
  for (const auto& s : snapshots) page.events.push_back(to_json(s));
  return page;
}

std::optional<nlohmann::json> WebhookEngine::event(const std::string& id) const {
  Snapshot s;
  {
    std::lock_guard<std::mutex> lk(mu_);
    auto it = by_id_.find(id);
    if (it == by_id_.end()) return std::nullopt;
    s = snapshot_locked(*it->second);
  }
  return to_json(s);
}

}  // namespace fake_org
