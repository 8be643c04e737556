#pragma once
// What the domain tells the outside world: webhook events after a change
// commits (spec 6), clock moves and resets. The domain builds the events; an
// EventSink that the app plugs in delivers them.
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace fake_org {

namespace event_type {
inline constexpr const char* kIntentCreated = "paymentIntent.created";
inline constexpr const char* kIntentProcessed = "paymentIntent.processed";
inline constexpr const char* kIntentInReview = "paymentIntent.in_review";
inline constexpr const char* kIntentFailed = "paymentIntent.failed";
inline constexpr const char* kInstallmentCreated = "installment.created";
inline constexpr const char* kInstallmentStatusChange = "installment.status_change";
}  // namespace event_type

struct DomainEvent {
  std::string type;               // one of event_type
  std::string payment_intent_id;  // orders deliveries: one intent's events go out in order
  std::string webhook_url;        // empty: the intent asked for no notifications
  nlohmann::json data;            // the "data" of the notification body (spec 6.3)
};

// An event whose data (a view of the records: the costliest part of a
// payment) is built only when someone will be notified: an intent without a
// WebhookURL gets its events with null data, which no sink delivers.
template <typename BuildData>
DomainEvent event_with_data(const char* type, std::string payment_intent_id,
                            std::string webhook_url, BuildData&& build_data) {
  DomainEvent e{type, std::move(payment_intent_id), std::move(webhook_url), nullptr};
  if (!e.webhook_url.empty()) e.data = build_data();
  return e;
}

class EventSink {
 public:
  virtual ~EventSink() = default;
  // Called after the change that produced the events has committed, in order,
  // still under the record store's write lock (org.h): only queue them (take
  // only leaf locks, no files, no console), which fixes their order.
  virtual void publish(std::vector<DomainEvent> events) = 0;
  // Called by the same request once the store's lock is released: the slow
  // part of publishing (checking, capturing, logging) goes here. Any flush
  // may handle what any publish queued; the order was fixed by publish.
  virtual void flush() {}
  // The org clock moved (after the collections that came due ran): deliveries
  // scheduled in org time may be due now.
  virtual void on_clock_changed() {}
  // The org went back to its fixture (admin reset): drop what is queued.
  virtual void on_reset() {}
};

// Keeps what was published; for tests and as the default before webhooks are wired.
// Locking rule: one mutex guards the list.
class RecordingEventSink final : public EventSink {
 public:
  void publish(std::vector<DomainEvent> events) override {
    std::lock_guard lock(mu_);
    for (auto& e : events) events_.push_back(std::move(e));
  }
  std::vector<DomainEvent> events() const {
    std::lock_guard lock(mu_);
    return events_;
  }
  void clear() {
    std::lock_guard lock(mu_);
    events_.clear();
  }

 private:
  mutable std::mutex mu_;
  std::vector<DomainEvent> events_;
};

}  // namespace fake_org
