#pragma once
// Test doubles for webhook delivery: a scripted WebhookSender, a random source
// of one repeated byte, and a real HTTP receiver on 127.0.0.1. Everything waits
// on conditions with a deadline; nothing sleeps for a fixed time.
#include <httplib.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "domain/core/ids.h"
#include "events/webhook_engine.h"
#include "events/webhook_sender.h"
#include "testing/eventually.h"

namespace fake_org::testing {

using namespace std::chrono_literals;

// Every byte the same: 0x00 draws the shortest backoff, 0xFF the longest.
// (Not for ids: IdGenerator rejects bytes >= 252 and would loop forever.)
class FixedRandom final : public RandomSource {
 public:
  explicit FixedRandom(uint8_t byte) : byte_(byte) {}
  void fill(uint8_t* out, size_t n) override {
    for (size_t i = 0; i < n; ++i) out[i] = byte_;
  }

 private:
  uint8_t byte_;
};

// For an engine: backoff draws (8 bytes, see backoff_delay) are one fixed
// byte, so waits are exactly 0 or exactly the ceiling; ids stay seeded random.
class ExtremeJitter final : public RandomSource {
 public:
  explicit ExtremeJitter(uint8_t byte) : jitter_(byte), ids_(99) {}
  void fill(uint8_t* out, size_t n) override {
    if (n == 8)
      jitter_.fill(out, n);
    else
      ids_.fill(out, n);
  }

 private:
  FixedRandom jitter_;
  SeededRandom ids_;
};

inline std::string header(const HeaderList& headers, const std::string& name) {
  for (const auto& [k, v] : headers)
    if (k == name) return v;
  return "";
}

// Answers from a script; optionally holds attempts at a gate until opened.
// Locking: mu_ guards calls_ and gate_open_.
class FakeSender final : public WebhookSender {
 public:
  struct Call {
    std::string url, body;
    HeaderList headers;
    Millis timeout{0};
  };
  using Script = std::function<HttpAttemptResult(size_t index, const Call& call)>;

  explicit FakeSender(Script script, bool gated = false)
      : script_(std::move(script)), gate_open_(!gated) {}

  HttpAttemptResult post(const std::string& url, const std::string& body, const HeaderList& headers,
                         Millis timeout) override {
    std::unique_lock<std::mutex> lk(mu_);
    Call call{url, body, headers, timeout};
    size_t index = calls_.size();
    calls_.push_back(call);
    cv_.notify_all();
    cv_.wait(lk, [this] { return gate_open_; });
    lk.unlock();
    return script_(index, call);
  }

  std::vector<Call> calls() const {
    std::lock_guard<std::mutex> lk(mu_);
    return calls_;
  }
  bool wait_for_calls(size_t n, std::chrono::milliseconds deadline = 10s) {
    std::unique_lock<std::mutex> lk(mu_);
    return cv_.wait_for(lk, deadline, [&] { return calls_.size() >= n; });
  }
  void open_gate() {
    std::lock_guard<std::mutex> lk(mu_);
    gate_open_ = true;
    cv_.notify_all();
  }

 private:
  Script script_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Call> calls_;
  bool gate_open_;
};

// A FakeSender the engine owns, still reachable from the test.
struct SenderHandle {
  std::unique_ptr<WebhookSender> owned;
  FakeSender* fake;
};
inline SenderHandle fake_sender(FakeSender::Script script, bool gated = false) {
  auto s = std::make_unique<FakeSender>(std::move(script), gated);
  FakeSender* raw = s.get();
  return {std::move(s), raw};
}
inline FakeSender::Script always(int status, std::string error = "") {
  return [status, error](size_t, const FakeSender::Call&) {
    return HttpAttemptResult{status, error};
  };
}

// A webhook receiver on 127.0.0.1: records each request and answers with the
// status the policy returns. A policy may block (on the test's condition) to
// simulate a slow receiver. Locking: mu_ guards requests_.
class Receiver {
 public:
  struct Request {
    std::string path, body;
    httplib::Headers headers;
    httplib::Params params;
    int answered = 0;
    std::string header(const std::string& name) const {
      auto it = headers.find(name);
      return it == headers.end() ? "" : it->second;
    }
  };
  using Policy = std::function<int(size_t index, const httplib::Request& req)>;

  explicit Receiver(Policy policy = [](size_t, const httplib::Request&) { return 200; })
      : policy_(std::move(policy)) {}
  ~Receiver() { stop(); }

  // Listens on `port` (0: any free one) and returns it.
  int start(int port = 0) {
    stop();
    server_ = std::make_unique<httplib::Server>();
    server_->set_tcp_nodelay(true);
    server_->Post(".*", [this](const httplib::Request& req, httplib::Response& res) {
      size_t index;
      {
        std::lock_guard<std::mutex> lk(mu_);
        index = seen_++;
      }
      int status = policy_(index, req);
      {
        std::lock_guard<std::mutex> lk(mu_);
        requests_.push_back(Request{req.path, req.body, req.headers, req.params, status});
        cv_.notify_all();
      }
      res.status = status;
      res.set_content("{}", "application/json");
    });
    if (port == 0) {
      port = server_->bind_to_any_port("127.0.0.1");
    } else if (!server_->bind_to_port("127.0.0.1", port)) {
      port = -1;
    }
    if (port > 0) thread_ = std::thread([this] { server_->listen_after_bind(); });
    return port;
  }

  void stop() {
    if (!server_) return;
    // httplib's stop() is a no-op until the accept loop runs.
    if (thread_.joinable()) eventually([this] { return server_->is_running(); }, 5s);
    server_->stop();
    if (thread_.joinable()) thread_.join();
    server_.reset();
  }

  std::vector<Request> requests() const {
    std::lock_guard<std::mutex> lk(mu_);
    return requests_;
  }
  bool wait_for_requests(size_t n, std::chrono::milliseconds deadline = 10s) {
    std::unique_lock<std::mutex> lk(mu_);
    return cv_.wait_for(lk, deadline, [&] { return requests_.size() >= n; });
  }

 private:
  Policy policy_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Request> requests_;  // in the order answers were decided
  size_t seen_ = 0;
};

inline WebhookSettings fast_settings(int max_attempts = 6) {
  WebhookSettings s;
  s.max_attempts = max_attempts;
  s.attempt_timeout = Millis(2000);
  s.backoff_initial = Millis(5);
  s.backoff_max = Millis(50);
  return s;
}

inline std::vector<RemoteSiteDef> loopback_sites() {
  return {{"Localhost", "http://localhost", true}, {"Loopback", "http://127.0.0.1", true}};
}

inline WebhookEvent make_event(const std::string& intent, const std::string& url,
                               const std::string& type = "paymentIntent.processed",
                               int sequence = 0) {
  nlohmann::json body = {{"type", type}, {"data", {{"Id", intent}, {"Sequence", sequence}}}};
  return WebhookEvent{type, intent, url, body};
}

}  // namespace fake_org::testing
