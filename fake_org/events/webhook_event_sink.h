#pragma once
// Turns the domain's committed events into webhook deliveries (spec 6): the
// body {"type", "data"}, the fixture's choice of installment event names and
// of paymentIntent.created, and nothing for intents without a WebhookURL.
#include <deque>
#include <mutex>

#include "domain/config/org_config.h"
#include "domain/core/events.h"
#include "events/contract_monitor.h"
#include "events/webhook_engine.h"

namespace fake_org {

// publish() runs under the record store's write lock, so it only queues: the
// engine's enqueue fixes the delivery order, and the bodies wait in unchecked_
// for flush(), which checks them against the contracts (schema validation,
// capture files, stderr) after the request released the store's lock.
//
// Locking rule: mu_ guards unchecked_ only and is a leaf (nothing else is
// taken or called while it is held); the checks run without it. The engine
// has its own lock.
class WebhookEventSink final : public EventSink {
 public:
  WebhookEventSink(const WebhookSettings& settings, std::shared_ptr<WebhookEngine> engine)
      : settings_(settings), engine_(std::move(engine)) {}
  void publish(std::vector<DomainEvent> events) override;
  void flush() override;
  void on_clock_changed() override { engine_->on_clock_changed(); }
  void on_reset() override { engine_->reset(); }
  // Set while wiring, before any request: bodies are checked against the contracts.
  void set_monitor(std::shared_ptr<ContractMonitor> monitor) { monitor_ = std::move(monitor); }

 private:
  std::shared_ptr<ContractMonitor> monitor_;
  const WebhookSettings settings_;
  const std::shared_ptr<WebhookEngine> engine_;
  std::mutex mu_;
  std::deque<nlohmann::json> unchecked_;  // published bodies not yet checked, oldest first
};

}  // namespace fake_org
