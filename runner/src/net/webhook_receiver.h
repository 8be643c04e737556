#pragma once
// The run's webhook receiver: one loopback HTTP server; each scenario gets its
// own path ("slot") so scenarios running in parallel never see each other's
// events. Steps wait on a condition variable, not by polling.
//
// Locking: mutex_ guards inboxes_ and next_slot_; changed_ is notified after
// every delivery. Predicates passed to await() run with mutex_ held and must
// not call back into the receiver.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "net/http_types.h"
#include "net/interrupt.h"

namespace httplib {
class Server;
}

namespace runner {

struct ReceivedWebhook {
  nlohmann::json body;  // null when the body was not JSON
  std::string raw;
  Headers headers;
  bool claimed = false;  // taken by an earlier await_webhook step
};

class WebhookReceiver {
 public:
  // Listens on host:0; throws std::runtime_error when it cannot bind.
  explicit WebhookReceiver(const std::string& host = "127.0.0.1");
  ~WebhookReceiver();
  WebhookReceiver(const WebhookReceiver&) = delete;
  WebhookReceiver& operator=(const WebhookReceiver&) = delete;

  std::string base_url() const;  // http://127.0.0.1:PORT
  // A fresh slot for one scenario run; `hint` only makes it readable.
  std::string new_slot(const std::string& hint);
  // The URL the org posts to for `slot`. `public_base` replaces the loopback
  // origin when the org reaches the receiver through a tunnel.
  std::string url_for(const std::string& slot, const std::string& public_base = "") const;

  // The first unclaimed event of `slot` that satisfies `accept`, claimed; waits
  // up to `timeout` for one to arrive. nullopt on timeout, and at once on an
  // interrupt (SIGINT, SIGTERM).
  std::optional<ReceivedWebhook> await(const std::string& slot,
                                       const std::function<bool(const ReceivedWebhook&)>& accept,
                                       std::chrono::milliseconds timeout);
  std::vector<ReceivedWebhook> events(const std::string& slot) const;
  // Frees a finished scenario's events; later deliveries to it are dropped.
  void forget(const std::string& slot);

 private:
  void deliver(const std::string& slot, ReceivedWebhook event);

  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  std::string host_;
  int port_ = 0;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, std::vector<ReceivedWebhook>> inboxes_;
  unsigned long next_slot_ = 0;
  // Declared last: destroyed first, so no wake reaches a receiver half gone.
  interrupt::Waker waker_{[this] {
    { std::lock_guard<std::mutex> lock(mutex_); }
    changed_.notify_all();
  }};
};

}  // namespace runner
