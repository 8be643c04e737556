#include "net/webhook_receiver.h"

#include "net/listen_in_background.h"

#include <cctype>
#include <stdexcept>

#include <httplib.h>

namespace runner {
namespace {

// The first event from `scanned` on that is unclaimed and accepted, claimed;
// `scanned` moves past the events it rejects.
std::optional<ReceivedWebhook> claim_next(
    std::vector<ReceivedWebhook>& inbox, size_t& scanned,
    const std::function<bool(const ReceivedWebhook&)>& accept) {
  for (; scanned < inbox.size(); ++scanned) {
    auto& ev = inbox[scanned];
    if (ev.claimed || !accept(ev)) continue;
    ev.claimed = true;
    return ev;
  }
  return std::nullopt;
}

}  // namespace

WebhookReceiver::WebhookReceiver(const std::string& host)
    : server_(std::make_unique<httplib::Server>()), host_(host) {
  server_->Post(R"(/hooks/([A-Za-z0-9_.-]+))",
                [this](const httplib::Request& req, httplib::Response& res) {
                  ReceivedWebhook ev;
                  ev.raw = req.body;
                  ev.body = nlohmann::json::parse(req.body, nullptr, false);
                  if (ev.body.is_discarded()) ev.body = nullptr;
                  for (const auto& [k, v] : req.headers) ev.headers.emplace_back(k, v);
                  deliver(req.matches[1], std::move(ev));
                  res.status = 200;
                  res.set_content("{\"received\":true}", "application/json");
                });
  port_ = server_->bind_to_any_port(host_);
  if (port_ <= 0) throw std::runtime_error("webhook receiver: cannot listen on " + host_);
  thread_ = listen_in_background(*server_);
}

WebhookReceiver::~WebhookReceiver() {
  server_->stop();
  if (thread_.joinable()) thread_.join();
}

std::string WebhookReceiver::base_url() const {
  return "http://" + host_ + ":" + std::to_string(port_);
}

std::string WebhookReceiver::new_slot(const std::string& hint) {
  std::string clean;
  for (char c : hint) {
    if (clean.size() >= 40) break;
    clean += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '-';
  }
  std::lock_guard<std::mutex> lock(mutex_);
  std::string slot = "s" + std::to_string(++next_slot_) + (clean.empty() ? "" : "-" + clean);
  inboxes_[slot];
  return slot;
}

std::string WebhookReceiver::url_for(const std::string& slot,
                                     const std::string& public_base) const {
  std::string base = public_base.empty() ? base_url() : public_base;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + "/hooks/" + slot;
}

void WebhookReceiver::deliver(const std::string& slot, ReceivedWebhook event) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // Only open slots: a late delivery (a retry landing after its scenario
    // ended and forgot the slot) would otherwise reopen it and stay for the
    // rest of the run.
    auto inbox = inboxes_.find(slot);
    if (inbox == inboxes_.end()) return;
    inbox->second.push_back(std::move(event));
  }
  changed_.notify_all();
}

std::optional<ReceivedWebhook> WebhookReceiver::await(
    const std::string& slot, const std::function<bool(const ReceivedWebhook&)>& accept,
    std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  std::unique_lock<std::mutex> lock(mutex_);
  size_t scanned = 0;  // events before this index were already rejected
  bool timed_out = false;
  while (true) {
    // After the timeout, one last look: a delivery may have landed just as
    // the wait timed out.
    if (auto ev = claim_next(inboxes_[slot], scanned, accept)) return ev;
    if (timed_out || interrupt::received()) return std::nullopt;
    timed_out = changed_.wait_until(lock, deadline) == std::cv_status::timeout;
  }
}

std::vector<ReceivedWebhook> WebhookReceiver::events(const std::string& slot) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = inboxes_.find(slot);
  return it == inboxes_.end() ? std::vector<ReceivedWebhook>{} : it->second;
}

void WebhookReceiver::forget(const std::string& slot) {
  std::lock_guard<std::mutex> lock(mutex_);
  inboxes_.erase(slot);
}

}  // namespace runner
