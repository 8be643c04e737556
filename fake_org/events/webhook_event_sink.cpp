#include "events/webhook_event_sink.h"

namespace fake_org {

void WebhookEventSink::publish(std::vector<DomainEvent> events) {
  for (auto& e : events) {
    if (e.webhook_url.empty()) continue;
    if (e.type == event_type::kIntentCreated && !settings_.emit_created) continue;
    std::string type = e.type;
    // Spec 6.3's sample names installment notifications plainly "installment".
    if (settings_.installment_type_style == "sample" && type.rfind("installment.", 0) == 0)
      type = "installment";
    nlohmann::json body = {{"type", type}, {"data", std::move(e.data)}};
    if (monitor_) {
      std::lock_guard lock(mu_);
      unchecked_.push_back(body);
    }
    engine_->enqueue(WebhookEvent{type, e.payment_intent_id, e.webhook_url, std::move(body)});
  }
}

void WebhookEventSink::flush() {
  if (!monitor_) return;
  std::deque<nlohmann::json> bodies;
  {
    std::lock_guard lock(mu_);
    bodies.swap(unchecked_);
  }
  for (const auto& body : bodies) monitor_->check_webhook(body);
}

}  // namespace fake_org
