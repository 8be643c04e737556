// The delivery engine against a scripted sender: backoff, retries, ordering,
// the org clock, resend and reset. Real HTTP is in webhook_delivery_test.cpp.
#include "events/webhook_engine.h"

#include <catch2/catch.hpp>
#include <map>
#include <mutex>
#include <set>

#include "testing/webhook_fakes.h"

using namespace fake_org;
using namespace fake_org::testing;

namespace {

const std::string kUrl = "http://127.0.0.1:9/hook";

std::shared_ptr<const Clock> start_clock() {
  return std::make_shared<ManualClock>(*parse_iso8601("2027-01-31T09:00:00Z"));
}

std::vector<int64_t> retry_waits(const nlohmann::json& event) {
  std::vector<int64_t> out;
  for (const auto& a : event["attempts"])
    out.push_back(a["retry_in_ms"].is_null() ? -1 : a["retry_in_ms"].get<int64_t>());
  return out;
}

// The order of a data directory's calls as the engine makes them.
class OrderSink final : public OrgStateSink {
 public:
  void records_committed(const std::vector<RecordPtr>&, uint64_t) override {}
  void records_replaced(const std::vector<RecordPtr>&, uint64_t) override {}
  void put(std::string_view, std::string_view, const nlohmann::json&) override { add("put"); }
  void put_text(std::string_view, std::string_view, std::string) override { add("put"); }
  void erase(std::string_view, std::string_view) override {}
  void clear(std::string_view) override {}
  Status flush() override {
    add("flush");
    return ok_status();
  }
  std::string location() const override { return "memory"; }
  std::vector<std::string> calls() const {
    std::lock_guard<std::mutex> lk(mu_);
    return calls_;
  }

 private:
  void add(const char* call) {
    std::lock_guard<std::mutex> lk(mu_);
    calls_.push_back(call);
  }
  mutable std::mutex mu_;
  std::vector<std::string> calls_;
};

}  // namespace

TEST_CASE("backoff ceilings double from the initial wait up to the maximum", "[webhooks]") {
  WebhookSettings s = fast_settings();
  CHECK(backoff_ceiling(s, 1) == Millis(5));
  CHECK(backoff_ceiling(s, 2) == Millis(10));
  CHECK(backoff_ceiling(s, 3) == Millis(20));
  CHECK(backoff_ceiling(s, 4) == Millis(40));
  CHECK(backoff_ceiling(s, 5) == Millis(50));
  CHECK(backoff_ceiling(s, 6) == Millis(50));
  CHECK(backoff_ceiling(s, 1000) == Millis(50));  // no overflow on long series

  WebhookSettings d;  // the fixture defaults: 1s doubling to a minute
  CHECK(backoff_ceiling(d, 6) == Millis(32000));
  CHECK(backoff_ceiling(d, 7) == Millis(60000));
  CHECK(backoff_ceiling(d, 39) == Millis(60000));
}

TEST_CASE("full jitter spans zero to the ceiling", "[webhooks]") {
  WebhookSettings s = fast_settings();
  FixedRandom lowest(0x00), highest(0xFF);
  for (int n = 1; n <= 7; ++n) {
    CHECK(backoff_delay(s, n, lowest) == Millis(0));
    CHECK(backoff_delay(s, n, highest) == backoff_ceiling(s, n));
  }
}

TEST_CASE("jittered waits stay within bounds and repeat for a seed", "[webhooks]") {
  WebhookSettings s = fast_settings();
  SeededRandom a(42), b(42);
  std::set<int64_t> distinct;
  for (int i = 0; i < 500; ++i) {
    int n = 1 + i % 6;
    Millis wa = backoff_delay(s, n, a);
    CHECK(wa >= Millis(0));
    CHECK(wa <= backoff_ceiling(s, n));
    CHECK(wa == backoff_delay(s, n, b));
    distinct.insert(wa.count());
  }
  CHECK(distinct.size() > 20);  // actually jittered, not a constant
}

TEST_CASE("a failing receiver is retried with exponential capped waits until max_attempts",
          "[webhooks]") {
  auto sender = fake_sender(always(503));
  WebhookEngine engine(fast_settings(6), loopback_sites(), start_clock(), std::move(sender.owned),
                       std::make_shared<ExtremeJitter>(0xFF));
  std::string id = engine.enqueue(make_event("pi_1", kUrl));
  REQUIRE(engine.wait_idle(10s));

  auto e = *engine.event(id);
  CHECK(e["state"] == "failed");
  CHECK(e["reason"] == "gave up after 6 attempts; last: HTTP 503");
  CHECK(retry_waits(e) == std::vector<int64_t>{5, 10, 20, 40, 50, -1});
  REQUIRE(e["attempts"].size() == 6);
  for (size_t i = 0; i < 6; ++i) {
    CHECK(e["attempts"][i]["attempt"] == i + 1);
    CHECK(e["attempts"][i]["series"] == 1);
    CHECK(e["attempts"][i]["status"] == 503);
    CHECK(e["attempts"][i]["error"] == "");
    CHECK(e["attempts"][i]["at"] == "2027-01-31T09:00:00.000Z");  // org time, standing still
  }
  auto calls = sender.fake->calls();
  REQUIRE(calls.size() == 6);
  for (size_t i = 0; i < 6; ++i) {
    CHECK(header(calls[i].headers, "X-Webhook-Attempt") == std::to_string(i + 1));
    CHECK(header(calls[i].headers, "X-Webhook-Id") == id);
    CHECK(calls[i].timeout == Millis(2000));
    CHECK(calls[i].url == kUrl);
  }
}

TEST_CASE("network errors are retried and reported", "[webhooks]") {
  auto sender = fake_sender(always(0, "could not connect"));
  WebhookEngine engine(fast_settings(2), loopback_sites(), start_clock(), std::move(sender.owned),
                       std::make_shared<ExtremeJitter>(0x00));
  std::string id = engine.enqueue(make_event("pi_1", kUrl));
  REQUIRE(engine.wait_idle(10s));
  auto e = *engine.event(id);
  CHECK(e["state"] == "failed");
  CHECK(e["reason"] == "gave up after 2 attempts; last: could not connect");
  CHECK(e["attempts"][0]["status"] == 0);
  CHECK(e["attempts"][0]["error"] == "could not connect");
  CHECK(retry_waits(e) == std::vector<int64_t>{0, -1});
}

TEST_CASE("one seed gives the same ids and the same waits", "[webhooks]") {
  auto run = [] {
    auto sender = fake_sender(always(500));
    WebhookEngine engine(fast_settings(5), loopback_sites(), start_clock(), std::move(sender.owned),
                         std::make_shared<SeededRandom>(7));
    std::string id = engine.enqueue(make_event("pi_1", kUrl));
    REQUIRE(engine.wait_idle(10s));
    return std::make_pair(id, retry_waits(*engine.event(id)));
  };
  auto [id1, waits1] = run();
  auto [id2, waits2] = run();
  CHECK(id1 == id2);
  CHECK(id1.rfind("evt_", 0) == 0);
  CHECK(id1.size() == 28);
  CHECK(waits1 == waits2);
  REQUIRE(waits1.size() == 5);
  WebhookSettings s = fast_settings(5);
  for (int n = 1; n <= 4; ++n) {
    CHECK(waits1[n - 1] >= 0);
    CHECK(waits1[n - 1] <= backoff_ceiling(s, n).count());
  }
  CHECK(waits1[4] == -1);
}

TEST_CASE("an intent's events wait for the one before them", "[webhooks]") {
  // The first attempt of the first event fails twice; the rest succeed at once.
  auto sender = fake_sender([](size_t index, const FakeSender::Call&) {
    return HttpAttemptResult{index < 2 ? 500 : 200, ""};
  });
  WebhookEngine engine(fast_settings(6), loopback_sites(), start_clock(), std::move(sender.owned),
                       std::make_shared<SeededRandom>(1));
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i) ids.push_back(engine.enqueue(make_event("pi_1", kUrl, "t", i)));
  REQUIRE(engine.wait_idle(10s));

  std::vector<std::string> order;
  for (const auto& c : sender.fake->calls()) order.push_back(header(c.headers, "X-Webhook-Id"));
  CHECK(order == std::vector<std::string>{ids[0], ids[0], ids[0], ids[1], ids[2], ids[3], ids[4]});
  for (const auto& id : ids) CHECK((*engine.event(id))["state"] == "delivered");
}

TEST_CASE("intents do not wait for each other", "[webhooks]") {
  // pi_slow's attempt is held at the gate; pi_fast's must still go out.
  auto script = [](size_t, const FakeSender::Call&) { return HttpAttemptResult{200, ""}; };
  auto held = std::make_unique<FakeSender>(script, true);
  FakeSender* fake = held.get();
  WebhookEngine engine(fast_settings(), loopback_sites(), start_clock(), std::move(held),
                       std::make_shared<SeededRandom>(1), 2);
  std::string slow = engine.enqueue(make_event("pi_slow", kUrl));
  std::string slow2 = engine.enqueue(make_event("pi_slow", kUrl));
  REQUIRE(fake->wait_for_calls(1));
  std::string fast = engine.enqueue(make_event("pi_fast", kUrl));
  REQUIRE(fake->wait_for_calls(2));
  auto calls = fake->calls();
  CHECK(header(calls[0].headers, "X-Webhook-Id") == slow);
  CHECK(header(calls[1].headers, "X-Webhook-Id") == fast);

  auto waiting = *engine.event(slow2);
  CHECK(waiting["state"] == "pending");
  CHECK(waiting["reason"] == "waiting for " + slow + " of the same payment intent");
  CHECK(engine.resend(slow) == ResendOutcome::kInProgress);

  fake->open_gate();
  REQUIRE(engine.wait_idle(10s));
  CHECK(fake->calls().size() == 3);
  CHECK((*engine.event(slow2))["reason"] == "");
}

TEST_CASE("moving the org clock past a retry makes it due at once", "[webhooks]") {
  auto clock = std::make_shared<ManualClock>(*parse_iso8601("2027-01-31T09:00:00Z"));
  WebhookSettings s = fast_settings();
  s.backoff_initial = Millis(3600000);  // an hour: only the org clock can bring it forward
  s.backoff_max = Millis(3600000);
  auto sender = fake_sender([](size_t index, const FakeSender::Call&) {
    return HttpAttemptResult{index == 0 ? 502 : 204, ""};
  });
  WebhookEngine engine(s, loopback_sites(), clock, std::move(sender.owned),
                       std::make_shared<ExtremeJitter>(0xFF));
  std::string id = engine.enqueue(make_event("pi_1", kUrl));
  REQUIRE(eventually([&] { return (*engine.event(id))["attempts"].size() == 1; }));
  CHECK((*engine.event(id))["attempts"][0]["retry_in_ms"] == 3600000);

  clock->advance(Millis(3600000));
  engine.on_clock_changed();
  REQUIRE(engine.wait_idle(10s));
  auto e = *engine.event(id);
  CHECK(e["state"] == "delivered");
  REQUIRE(e["attempts"].size() == 2);
  CHECK(e["attempts"][1]["status"] == 204);
  CHECK(e["attempts"][1]["at"] == "2027-01-31T10:00:00.000Z");
}

TEST_CASE("shutting down abandons a waiting retry without waiting for it", "[webhooks]") {
  WebhookSettings s = fast_settings();
  s.backoff_initial = Millis(3600000);
  s.backoff_max = Millis(3600000);
  auto sender = fake_sender(always(500));
  FakeSender* fake = sender.fake;
  auto engine =
      std::make_unique<WebhookEngine>(s, loopback_sites(), start_clock(), std::move(sender.owned),
                                      std::make_shared<ExtremeJitter>(0xFF));
  std::string id = engine->enqueue(make_event("pi_1", kUrl));
  REQUIRE(fake->wait_for_calls(1));
  REQUIRE(eventually([&] { return (*engine->event(id))["attempts"].size() == 1; }));
  CHECK_FALSE(engine->wait_idle(0ms));
  CHECK(fake->calls().size() == 1);
  std::vector<std::string> notices;
  engine->set_notice([&](const std::string& line) { notices.push_back(line); });
  engine = nullptr;  // returns although the retry is an hour away (the sender goes with it)
  // Counted through the notice sink, not printed over the host's console.
  CHECK(notices == std::vector<std::string>{"webhooks: 1 pending delivery abandoned at shutdown"});
}

TEST_CASE("URLs outside the permitted remote sites are blocked, never sent", "[webhooks]") {
  auto sender = fake_sender(always(200));
  WebhookEngine engine(fast_settings(), loopback_sites(), start_clock(), std::move(sender.owned),
                       std::make_shared<SeededRandom>(3));
  std::string id = engine.enqueue(make_event("pi_1", "https://example.com/hook"));
  std::string none = engine.enqueue(make_event("pi_2", ""));
  CHECK(engine.wait_idle(0ms));
  auto e = *engine.event(id);
  CHECK(e["state"] == "blocked");
  CHECK(e["reason"] ==
        "host example.com is not a permitted remote site; permitted: http://localhost, "
        "http://127.0.0.1");
  CHECK(e["attempts"].empty());
  CHECK((*engine.event(none))["reason"] == "the payment intent has no WebhookURL");
  CHECK(engine.resend(id) == ResendOutcome::kBlocked);
  CHECK(sender.fake->calls().empty());
}

TEST_CASE("resend starts a new attempt series under the same id", "[webhooks]") {
  auto sender = fake_sender(always(200));
  WebhookEngine engine(fast_settings(), loopback_sites(), start_clock(), std::move(sender.owned),
                       std::make_shared<SeededRandom>(3));
  std::string id = engine.enqueue(make_event("pi_1", kUrl));
  REQUIRE(engine.wait_idle(10s));
  CHECK(engine.resend("evt_nope") == ResendOutcome::kUnknown);
  CHECK(engine.resend(id) == ResendOutcome::kQueued);
  REQUIRE(engine.wait_idle(10s));

  auto e = *engine.event(id);
  CHECK(e["state"] == "delivered");
  CHECK(e["series"] == 2);
  REQUIRE(e["attempts"].size() == 2);
  CHECK(e["attempts"][1]["series"] == 2);
  CHECK(e["attempts"][1]["attempt"] == 1);
  auto calls = sender.fake->calls();
  REQUIRE(calls.size() == 2);
  CHECK(header(calls[1].headers, "X-Webhook-Id") == id);
  CHECK(header(calls[1].headers, "X-Webhook-Attempt") == "1");
  CHECK(calls[1].body == calls[0].body);
}

TEST_CASE("the log keeps creation order and filters by payment intent", "[webhooks]") {
  auto sender = fake_sender(always(200));
  WebhookEngine engine(fast_settings(), loopback_sites(), start_clock(), std::move(sender.owned),
                       std::make_shared<SeededRandom>(5));
  std::string a = engine.enqueue(make_event("pi_a", kUrl, "paymentIntent.created"));
  std::string b = engine.enqueue(make_event("pi_b", kUrl));
  std::string c = engine.enqueue(make_event("pi_a", kUrl, "paymentIntent.processed"));
  REQUIRE(engine.wait_idle(10s));

  auto all = engine.log();
  REQUIRE(all.size() == 3);
  CHECK(all[0]["id"] == a);
  CHECK(all[1]["id"] == b);
  CHECK(all[2]["id"] == c);
  auto only_a = engine.log("pi_a");
  REQUIRE(only_a.size() == 2);
  CHECK(only_a[0]["id"] == a);
  CHECK(only_a[1]["id"] == c);
  CHECK(only_a[1]["type"] == "paymentIntent.processed");
  CHECK(only_a[1]["payment_intent"] == "pi_a");
  CHECK(only_a[1]["url"] == kUrl);
  CHECK(only_a[1]["created_at"] == "2027-01-31T09:00:00.000Z");
  CHECK(only_a[1]["body"] == nlohmann::json{{"type", "paymentIntent.processed"},
                                            {"data", {{"Id", "pi_a"}, {"Sequence", 0}}}});
  CHECK(engine.log("pi_none").empty());
  CHECK_FALSE(engine.event("evt_unknown"));
}

TEST_CASE("reset forgets the log and an attempt in flight", "[webhooks]") {
  auto script = [](size_t, const FakeSender::Call&) { return HttpAttemptResult{200, ""}; };
  auto held = std::make_unique<FakeSender>(script, true);
  FakeSender* fake = held.get();
  WebhookEngine engine(fast_settings(), loopback_sites(), start_clock(), std::move(held),
                       std::make_shared<SeededRandom>(9));
  std::string first = engine.enqueue(make_event("pi_1", kUrl));
  engine.enqueue(make_event("pi_1", kUrl));
  REQUIRE(fake->wait_for_calls(1));
  engine.reset();
  CHECK(engine.log().empty());
  CHECK_FALSE(engine.event(first));
  CHECK_FALSE(engine.wait_idle(0ms));  // the held attempt is still in flight
  fake->open_gate();
  REQUIRE(engine.wait_idle(10s));
  CHECK(engine.log().empty());
  CHECK(fake->calls().size() == 1);  // the second event went with the reset

  std::string after = engine.enqueue(make_event("pi_1", kUrl));
  REQUIRE(engine.wait_idle(10s));
  CHECK((*engine.event(after))["state"] == "delivered");
}

TEST_CASE("a sender that throws counts as a network error", "[webhooks]") {
  auto sender = fake_sender([](size_t, const FakeSender::Call&) -> HttpAttemptResult {
    throw std::runtime_error("boom");
  });
  WebhookEngine engine(fast_settings(1), loopback_sites(), start_clock(), std::move(sender.owned),
                       std::make_shared<SeededRandom>(9));
  std::string id = engine.enqueue(make_event("pi_1", kUrl));
  REQUIRE(engine.wait_idle(10s));
  auto e = *engine.event(id);
  CHECK(e["state"] == "failed");
  CHECK(e["reason"] == "gave up after 1 attempt; last: sender failed: boom");
}

TEST_CASE("the log keeps the newest events up to its limit, never dropping a pending one",
          "[webhooks][log]") {
  auto sender = fake_sender(always(204), /*gated=*/true);
  FakeSender* fake = sender.fake;
  WebhookEngine engine(fast_settings(), loopback_sites(), start_clock(), std::move(sender.owned),
                       std::make_shared<SeededRandom>(5), 2, /*log_limit=*/2);
  std::string held = engine.enqueue(make_event("pi_1", kUrl));  // in flight at the gate
  REQUIRE(fake->wait_for_calls(1));
  std::vector<std::string> blocked;
  for (int i = 0; i < 3; ++i)
    blocked.push_back(engine.enqueue(make_event("pi_b", "https://example.com/hook")));
  // The oldest is still pending and stays; the finished ones behind it are
  // trimmed all the same, so a long retry does not hold the log open.
  auto while_held = engine.log();
  REQUIRE(while_held.size() == 2);
  CHECK(while_held[0]["id"] == held);
  CHECK(while_held[1]["id"] == blocked[2]);
  CHECK_FALSE(engine.event(blocked[0]));
  CHECK_FALSE(engine.event(blocked[1]));

  fake->open_gate();
  REQUIRE(engine.wait_idle(10s));
  std::string last = engine.enqueue(make_event("pi_b", "https://example.com/hook"));
  auto log = engine.log();
  REQUIRE(log.size() == 2);
  CHECK(log[0]["id"] == blocked[2]);
  CHECK(log[1]["id"] == last);
  CHECK_FALSE(engine.event(held));
  CHECK(engine.resend(held) == ResendOutcome::kUnknown);
}

TEST_CASE("pending deliveries are capped: one more is logged failed, queue full, never sent",
          "[webhooks][queue_full]") {
  auto sender = fake_sender(always(204), /*gated=*/true);
  FakeSender* fake = sender.fake;
  WebhookEngine engine(fast_settings(), loopback_sites(), start_clock(), std::move(sender.owned),
                       std::make_shared<SeededRandom>(6), 1, /*log_limit=*/100,
                       /*max_pending=*/2);
  std::string first = engine.enqueue(make_event("pi_1", kUrl));  // in flight at the gate
  REQUIRE(fake->wait_for_calls(1));
  std::string second = engine.enqueue(make_event("pi_1", kUrl));
  std::string over = engine.enqueue(make_event("pi_2", kUrl));
  auto e = *engine.event(over);
  CHECK(e["state"] == "failed");
  CHECK(e["reason"].get<std::string>().rfind("queue full", 0) == 0);
  CHECK(e["attempts"].empty());
  CHECK((*engine.event(second))["state"] == "pending");
  CHECK(engine.resend(over) == ResendOutcome::kQueueFull);

  fake->open_gate();
  REQUIRE(engine.wait_idle(10s));
  CHECK(fake->calls().size() == 2);  // first and second; the overflow never went out
  // Room again: a resend of the refused one is queued and delivered.
  CHECK(engine.resend(over) == ResendOutcome::kQueued);
  REQUIRE(engine.wait_idle(10s));
  CHECK((*engine.event(over))["state"] == "delivered");
  CHECK(fake->calls().size() == 3);
}

TEST_CASE("a full queue still admits an intent's next event, so its events stay in order",
          "[webhooks][queue_full]") {
  auto sender = fake_sender(always(204), /*gated=*/true);
  FakeSender* fake = sender.fake;
  WebhookEngine engine(fast_settings(), loopback_sites(), start_clock(), std::move(sender.owned),
                       std::make_shared<SeededRandom>(7), 1, /*log_limit=*/100,
                       /*max_pending=*/1);
  std::string first = engine.enqueue(make_event("pi_1", kUrl, "paymentIntent.processed", 1));
  REQUIRE(fake->wait_for_calls(1));  // in flight at the gate: the queue is full
  std::string second = engine.enqueue(make_event("pi_1", kUrl, "paymentIntent.processed", 2));
  std::string third = engine.enqueue(make_event("pi_1", kUrl, "paymentIntent.processed", 3));
  std::string other = engine.enqueue(make_event("pi_2", kUrl));  // a new lane: refused
  CHECK((*engine.event(second))["state"] == "pending");
  CHECK((*engine.event(third))["state"] == "pending");
  CHECK((*engine.event(other))["state"] == "failed");

  fake->open_gate();
  REQUIRE(engine.wait_idle(10s));
  auto calls = fake->calls();
  REQUIRE(calls.size() == 3);  // pi_1's three, in order; pi_2's never went out
  for (int i = 0; i < 3; ++i)
    CHECK(nlohmann::json::parse(calls[i].body)["data"]["Sequence"] == i + 1);
  CHECK((*engine.event(third))["state"] == "delivered");
}

TEST_CASE("a clock change makes due only the retries it reaches", "[webhooks]") {
  auto clock = std::make_shared<ManualClock>(*parse_iso8601("2027-01-31T09:00:00Z"));
  WebhookSettings s = fast_settings();
  s.backoff_initial = Millis(3600000);
  s.backoff_max = Millis(3600000);
  s.max_attempts = 2;
  auto sender = fake_sender([](size_t index, const FakeSender::Call&) {
    return HttpAttemptResult{index < 2 ? 502 : 204, ""};
  });
  FakeSender* fake = sender.fake;
  WebhookEngine engine(s, loopback_sites(), clock, std::move(sender.owned),
                       std::make_shared<ExtremeJitter>(0xFF));
  std::string first = engine.enqueue(make_event("pi_1", kUrl));
  REQUIRE(eventually([&] { return (*engine.event(first))["attempts"].size() == 1; }));
  clock->advance(Millis(1800000));  // half an hour: the first retry is due at 10:00
  std::string second = engine.enqueue(make_event("pi_2", kUrl));
  REQUIRE(eventually([&] { return (*engine.event(second))["attempts"].size() == 1; }));

  clock->advance(Millis(1800000));  // 10:00: the first retry only (the second's is at 10:30)
  engine.on_clock_changed();
  REQUIRE(fake->wait_for_calls(3));
  REQUIRE(eventually([&] { return (*engine.event(first))["state"] == "delivered"; }));
  CHECK((*engine.event(second))["attempts"].size() == 1);
  CHECK_FALSE(engine.wait_idle(0ms));

  clock->advance(Millis(1800000));
  engine.on_clock_changed();
  REQUIRE(engine.wait_idle(10s));
  CHECK((*engine.event(second))["state"] == "delivered");
}

TEST_CASE("with a data directory an event is written before it is sent", "[webhooks]") {
  auto sink = std::make_shared<OrderSink>();
  std::mutex mu;
  std::vector<std::string> at_send;
  auto sender = fake_sender([&](size_t, const FakeSender::Call&) {
    std::lock_guard<std::mutex> lk(mu);
    at_send = sink->calls();
    return HttpAttemptResult{200, ""};
  });
  WebhookEngine engine(fast_settings(3), loopback_sites(), start_clock(), std::move(sender.owned),
                       std::make_shared<ExtremeJitter>(0));
  engine.set_state_sink(sink);
  engine.enqueue(make_event("pi_1", kUrl));
  REQUIRE(engine.wait_idle(10s));
  std::lock_guard<std::mutex> lk(mu);
  CHECK(at_send == std::vector<std::string>{"put", "flush"});
}

namespace {

// A data directory's webhook entries, as the texts put. Locking rule: mu_
// guards entries_.
class KeptEntries final : public OrgStateSink {
 public:
  void records_committed(const std::vector<RecordPtr>&, uint64_t) override {}
  void records_replaced(const std::vector<RecordPtr>&, uint64_t) override {}
  void put(std::string_view kind, std::string_view key, const nlohmann::json& value) override {
    put_text(kind, key, value.dump());
  }
  void put_text(std::string_view, std::string_view key, std::string text) override {
    std::lock_guard<std::mutex> lk(mu_);
    entries_[std::string(key)] = std::move(text);
  }
  void erase(std::string_view, std::string_view key) override {
    std::lock_guard<std::mutex> lk(mu_);
    entries_.erase(std::string(key));
  }
  void clear(std::string_view) override {
    std::lock_guard<std::mutex> lk(mu_);
    entries_.clear();
  }
  Status flush() override { return ok_status(); }
  std::string location() const override { return "memory"; }
  std::vector<std::pair<std::string, std::string>> entries() const {
    std::lock_guard<std::mutex> lk(mu_);
    return {entries_.begin(), entries_.end()};
  }

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::string> entries_;
};

}  // namespace

TEST_CASE("a restarted engine has each kept event with its body, state and attempts",
          "[webhooks][durable]") {
  auto kept = std::make_shared<KeptEntries>();
  auto sender = fake_sender(always(200));
  WebhookEngine first(fast_settings(3), loopback_sites(), start_clock(), std::move(sender.owned),
                      std::make_shared<ExtremeJitter>(0));
  first.set_state_sink(kept);
  WebhookEvent event = make_event("pi_1", kUrl);
  event.body["data"]["Note"] = "line one\nline two, \"quoted\"";  // a body with a newline
  const std::string id = first.enqueue(event);
  REQUIRE(first.wait_idle(10s));
  const auto entries = kept->entries();
  REQUIRE(entries.size() == 1);
  // The state as JSON, then the body as it was sent.
  const std::string& entry = entries[0].second;
  const size_t newline = entry.find('\n');
  REQUIRE(newline != std::string::npos);
  CHECK(nlohmann::json::parse(entry.substr(0, newline))["state"] == "delivered");
  CHECK(entry.substr(newline + 1) == sender.fake->calls().at(0).body);

  auto unused = fake_sender(always(200));
  WebhookEngine second(fast_settings(3), loopback_sites(), start_clock(), std::move(unused.owned),
                       std::make_shared<ExtremeJitter>(0));
  CHECK(second.restore(entries) == 0);
  CHECK(*second.event(id) == *first.event(id));
  CHECK((*second.event(id))["body"]["data"]["Note"] == "line one\nline two, \"quoted\"");
}

TEST_CASE("a restarted engine reads format 1's entries and skips what is not an event",
          "[webhooks][durable]") {
  const nlohmann::json body = {{"type", "paymentIntent.created"}, {"data", {{"Id", "pi_old"}}}};
  const nlohmann::json old_entry = {{"seq", 7},
                                    {"id", "evt_old"},
                                    {"type", "paymentIntent.created"},
                                    {"payment_intent_id", "pi_old"},
                                    {"url", kUrl},
                                    {"payload", body.dump()},
                                    {"created_at_ms", 1800000000000},
                                    {"state", "delivered"},
                                    {"reason", ""},
                                    {"series", 1},
                                    {"attempts_in_series", 1},
                                    {"attempts", nlohmann::json::array()}};
  auto sender = fake_sender(always(200));
  WebhookEngine engine(fast_settings(3), loopback_sites(), start_clock(), std::move(sender.owned),
                       std::make_shared<ExtremeJitter>(0));
  CHECK(engine.restore({{"evt_old", old_entry.dump()},
                        {"evt_broken", "{\"seq\": 8}\n{}"},
                        {"evt_torn", "{\"seq\": "}}) == 2);
  auto e = engine.event("evt_old");
  REQUIRE(e);
  CHECK((*e)["body"] == body);
  CHECK((*e)["state"] == "delivered");
  CHECK_FALSE(engine.event("evt_broken"));
}
