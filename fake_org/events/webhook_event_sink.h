#pragma once
// Turns the domain's committed events into webhook deliveries (spec 6): the
// body {"type", "data"}, the fixture's choice of installment event names and
// of paymentIntent.created, and nothing for intents without a WebhookURL.
#include "domain/events.h"
#include "domain/org_config.h"
#include "events/contract_monitor.h"
#include "events/webhook_engine.h"

namespace fake_org {

// Stateless apart from the engine it feeds, which has its own lock.
class WebhookEventSink final : public EventSink {
 public:
  WebhookEventSink(const WebhookSettings& settings, WebhookEngine& engine)
      : settings_(settings), engine_(engine) {}
  void publish(std::vector<DomainEvent> events) override;
  // Set while wiring, before any request: bodies are checked against the contracts.
  void set_monitor(std::shared_ptr<ContractMonitor> monitor) { monitor_ = std::move(monitor); }

 private:
  std::shared_ptr<ContractMonitor> monitor_;
  const WebhookSettings settings_;
  WebhookEngine& engine_;
};

}  // namespace fake_org
