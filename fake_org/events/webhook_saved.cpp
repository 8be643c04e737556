// The webhook log as a data directory keeps it (domain/store/org_state.h): one
// entry per event, rewritten at each change of its state.
#include "events/webhook_engine.h"
#include "util/json_text.h"

namespace fake_org {

namespace {

int64_t epoch_ms(TimePoint t) {
  return t.time_since_epoch().count();
}

}  // namespace

void WebhookEngine::set_state_sink(std::shared_ptr<OrgStateSink> sink) {
  std::lock_guard<std::mutex> lk(mu_);
  sink_ = std::move(sink);
}

// An entry is the event's state as JSON, a newline (JSON text holds none of
// its own) and the body as sent, so the body is neither escaped at each
// change of state nor unescaped at each start. Format 1's entries were one
// JSON object with the body as its "payload" string.
void WebhookEngine::save_locked(const Delivery& d) {
  if (!sink_) return;
  nlohmann::json attempts = nlohmann::json::array();
  for (const auto& a : d.attempts) {
    nlohmann::json one = {{"series", a.series},      {"number", a.number},
                          {"at_ms", epoch_ms(a.at)}, {"status", a.status},
                          {"error", a.error},        {"duration_ms", a.duration_ms}};
    if (a.retry_in_ms) one["retry_in_ms"] = *a.retry_in_ms;
    attempts.push_back(std::move(one));
  }
  const nlohmann::json state = {{"seq", d.seq},
                                {"id", d.id},
                                {"type", d.type},
                                {"payment_intent_id", d.payment_intent_id},
                                {"url", d.url},
                                {"created_at_ms", epoch_ms(d.created_at)},
                                {"state", state_name(d.state)},
                                {"reason", d.reason},
                                {"series", d.series},
                                {"attempts_in_series", d.attempts_in_series},
                                {"attempts", std::move(attempts)}};
  std::string entry = state.dump();
  entry += '\n';
  entry += *d.payload;
  sink_->put_text(state_kind::kWebhook, d.id, std::move(entry));
}

std::shared_ptr<WebhookEngine::Delivery> WebhookEngine::from_saved(std::string_view entry) {
  const size_t newline = entry.find('\n');
  const auto saved = nlohmann::json::parse(entry.substr(0, newline), nullptr, false);
  if (!saved.is_object()) return nullptr;
  auto d = std::make_shared<Delivery>();
  try {
    d->payload = std::make_shared<const std::string>(newline == std::string_view::npos
                                                         ? saved.at("payload").get<std::string>()
                                                         : std::string(entry.substr(newline + 1)));
    d->seq = saved.at("seq").get<uint64_t>();
    d->id = saved.at("id").get<std::string>();
    d->type = saved.at("type").get<std::string>();
    d->payment_intent_id = saved.at("payment_intent_id").get<std::string>();
    d->url = saved.at("url").get<std::string>();
    d->created_at = TimePoint(Millis(saved.at("created_at_ms").get<int64_t>()));
    const std::string state = saved.at("state").get<std::string>();
    d->state = state == "delivered" ? State::kDelivered
               : state == "failed"  ? State::kFailed
               : state == "blocked" ? State::kBlocked
                                    : State::kPending;
    d->reason = saved.at("reason").get<std::string>();
    d->series = saved.at("series").get<int>();
    d->attempts_in_series = saved.at("attempts_in_series").get<int>();
    for (const auto& a : saved.at("attempts")) {
      Attempt one;
      one.series = a.at("series").get<int>();
      one.number = a.at("number").get<int>();
      one.at = TimePoint(Millis(a.at("at_ms").get<int64_t>()));
      one.status = a.at("status").get<int>();
      one.error = a.at("error").get<std::string>();
      one.duration_ms = a.at("duration_ms").get<int64_t>();
      if (a.contains("retry_in_ms")) one.retry_in_ms = a["retry_in_ms"].get<int64_t>();
      d->attempts.push_back(std::move(one));
    }
  } catch (const nlohmann::json::exception&) {
    return nullptr;
  }
  d->lane = d->payment_intent_id.empty() ? "evt:" + d->id : "pi:" + d->payment_intent_id;
  return d;
}

size_t WebhookEngine::restore(const std::vector<std::pair<std::string, std::string>>& saved) {
  std::vector<std::shared_ptr<Delivery>> events;
  size_t skipped = 0;
  for (const auto& [key, value] : saved) {
    if (auto d = from_saved(value))
      events.push_back(std::move(d));
    else
      ++skipped;
  }
  std::sort(events.begin(), events.end(),
            [](const auto& a, const auto& b) { return a->seq < b->seq; });
  std::lock_guard<std::mutex> lk(mu_);
  for (auto& d : events) {
    next_log_seq_ = std::max(next_log_seq_, d->seq + 1);
    log_.emplace(d->seq, d);
    by_id_[d->id] = d;
    if (d->state != State::kPending) {
      finished_.insert(d->seq);
      continue;
    }
    ++pending_;
    auto& lane = lanes_[d->lane];
    lane.push_back(d);
    if (lane.size() == 1) schedule_locked(d->lane, Millis(0));
  }
  return skipped;
}

}  // namespace fake_org
