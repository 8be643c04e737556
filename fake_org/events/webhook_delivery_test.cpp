// Delivery over real HTTP to a receiver on 127.0.0.1.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <thread>

#include "events/webhook_engine.h"
#include "events/webhook_signature.h"
#include "testing/webhook_fakes.h"

using namespace fake_org;
using namespace fake_org::testing;

namespace {

std::shared_ptr<const Clock> org_clock() {
  return std::make_shared<ManualClock>(*parse_iso8601("2027-01-31T09:00:00Z"));
}

std::unique_ptr<WebhookEngine> make_engine(WebhookSettings settings,
                                           std::vector<RemoteSiteDef> sites = loopback_sites()) {
  return std::make_unique<WebhookEngine>(settings, std::move(sites), org_clock(),
                                         make_http_sender(), std::make_shared<SeededRandom>(11));
}

std::string url_of(int port, const std::string& path = "/hooks") {
  return "http://127.0.0.1:" + std::to_string(port) + path;
}

// Independent of webhook_signature(): the receiver's side, straight from OpenSSL.
std::string expected_signature(const std::string& secret, const std::string& ts,
                               const std::string& body) {
  std::string message = ts + "." + body;
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
       reinterpret_cast<const unsigned char*>(message.data()), message.size(), mac, &len);
  std::string hex = "v1=";
  char buf[3];
  for (unsigned int i = 0; i < len; ++i) {
    std::snprintf(buf, sizeof buf, "%02x", mac[i]);
    hex += buf;
  }
  return hex;
}

std::vector<int> statuses(const nlohmann::json& event) {
  std::vector<int> out;
  for (const auto& a : event["attempts"]) out.push_back(a["status"].get<int>());
  return out;
}

}  // namespace

TEST_CASE("a delivery carries the exact body and headers", "[webhooks][http]") {
  Receiver receiver;
  int port = receiver.start();
  REQUIRE(port > 0);
  auto engine = make_engine(fast_settings());
  WebhookEvent ev = make_event("pi_1", url_of(port, "/hooks/pi?src=org"));
  std::string body = ev.body.dump();
  std::string id = engine->enqueue(ev);
  REQUIRE(engine->wait_idle(10s));

  auto requests = receiver.requests();
  REQUIRE(requests.size() == 1);
  const auto& r = requests[0];
  CHECK(r.path == "/hooks/pi");
  CHECK(r.params.find("src")->second == "org");
  CHECK(r.body == body);
  CHECK(r.headers.count("Content-Type") == 1);
  CHECK(r.header("Content-Type") == "application/json");
  CHECK(r.headers.count("User-Agent") == 1);
  CHECK(r.header("User-Agent") == "fake-org-webhooks/1");
  CHECK(r.header("X-Webhook-Id") == id);
  CHECK(r.header("X-Webhook-Attempt") == "1");
  CHECK(r.headers.count("X-Webhook-Signature") == 0);
  CHECK(r.headers.count("X-Webhook-Timestamp") == 0);

  auto e = *engine->event(id);
  CHECK(e["state"] == "delivered");
  CHECK(e["reason"] == "");
  CHECK(statuses(e) == std::vector<int>{200});
  CHECK(e["attempts"][0]["error"] == "");
  CHECK(e["attempts"][0]["retry_in_ms"].is_null());
  CHECK(e["attempts"][0]["duration_ms"].get<int64_t>() >= 0);
}

TEST_CASE("a signed delivery verifies with the secret", "[webhooks][http]") {
  Receiver receiver;
  int port = receiver.start();
  WebhookSettings s = fast_settings();
  s.signing_secret = "whsec_test";
  auto engine = make_engine(s);
  engine->enqueue(make_event("pi_1", url_of(port)));
  REQUIRE(engine->wait_idle(10s));

  auto requests = receiver.requests();
  REQUIRE(requests.size() == 1);
  const auto& r = requests[0];
  std::string ts = r.header("X-Webhook-Timestamp");
  REQUIRE_FALSE(ts.empty());
  CHECK(r.header("X-Webhook-Signature") == expected_signature("whsec_test", ts, r.body));
  CHECK(r.header("X-Webhook-Signature") != expected_signature("other", ts, r.body));
  // Wall-clock seconds, not the org's 2027 clock.
  auto now = std::chrono::duration_cast<std::chrono::seconds>(
                 std::chrono::system_clock::now().time_since_epoch())
                 .count();
  CHECK(std::llabs(std::stoll(ts) - now) < 600);
}

TEST_CASE("a URL outside the remote sites is never contacted", "[webhooks][http]") {
  Receiver receiver;
  int port = receiver.start();
  auto engine = make_engine(fast_settings(), {{"Localhost", "http://localhost", true}});
  std::string id = engine->enqueue(make_event("pi_1", url_of(port)));
  CHECK(engine->wait_idle(0ms));
  auto e = *engine->event(id);
  CHECK(e["state"] == "blocked");
  CHECK(e["reason"] ==
        "host 127.0.0.1 is not a permitted remote site; permitted: http://localhost");
  CHECK(receiver.requests().empty());
}

TEST_CASE("a receiver failing twice gets the event once on the third attempt", "[webhooks][http]") {
  Receiver receiver([](size_t index, const httplib::Request&) { return index < 2 ? 500 : 200; });
  int port = receiver.start();
  auto engine = make_engine(fast_settings());
  std::string id = engine->enqueue(make_event("pi_1", url_of(port)));
  REQUIRE(engine->wait_idle(10s));

  auto e = *engine->event(id);
  CHECK(e["state"] == "delivered");
  CHECK(statuses(e) == std::vector<int>{500, 500, 200});
  auto requests = receiver.requests();
  REQUIRE(requests.size() == 3);
  int accepted = 0;
  for (size_t i = 0; i < 3; ++i) {
    CHECK(requests[i].header("X-Webhook-Id") == id);
    CHECK(requests[i].header("X-Webhook-Attempt") == std::to_string(i + 1));
    accepted += requests[i].answered == 200;
  }
  CHECK(accepted == 1);
}

TEST_CASE("events wait while the receiver is down and arrive once it is up", "[webhooks][http]") {
  Receiver receiver;
  int port = receiver.start();
  receiver.stop();  // the port is now closed: connections are refused
  auto engine = make_engine(fast_settings(50));
  std::string first = engine->enqueue(make_event("pi_1", url_of(port), "a", 1));
  std::string second = engine->enqueue(make_event("pi_1", url_of(port), "b", 2));
  REQUIRE(eventually([&] { return (*engine->event(first))["attempts"].size() >= 2; }));
  auto down = *engine->event(first);
  CHECK(down["attempts"][0]["status"] == 0);
  CHECK(down["attempts"][0]["error"] == "could not connect");
  CHECK((*engine->event(second))["attempts"].empty());  // held behind the first

  REQUIRE(receiver.start(port) == port);
  REQUIRE(engine->wait_idle(20s));
  auto requests = receiver.requests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[0].header("X-Webhook-Id") == first);
  CHECK(requests[1].header("X-Webhook-Id") == second);
  CHECK((*engine->event(first))["state"] == "delivered");
  CHECK((*engine->event(second))["state"] == "delivered");
  CHECK((*engine->event(second))["attempts"].size() == 1);
}

TEST_CASE("one intent's events arrive strictly in order despite a failure", "[webhooks][http]") {
  Receiver receiver([](size_t index, const httplib::Request&) { return index == 0 ? 503 : 200; });
  int port = receiver.start();
  auto engine = make_engine(fast_settings());
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i)
    ids.push_back(engine->enqueue(make_event("pi_1", url_of(port), "paymentIntent.processed", i)));
  REQUIRE(engine->wait_idle(10s));

  std::vector<std::string> accepted, all;
  for (const auto& r : receiver.requests()) {
    all.push_back(r.header("X-Webhook-Id"));
    if (r.answered == 200) accepted.push_back(r.header("X-Webhook-Id"));
  }
  CHECK(accepted == ids);
  CHECK(all == std::vector<std::string>{ids[0], ids[0], ids[1], ids[2], ids[3], ids[4]});
}

TEST_CASE("an event fails for good after max_attempts", "[webhooks][http]") {
  Receiver receiver([](size_t, const httplib::Request&) { return 503; });
  int port = receiver.start();
  auto engine = make_engine(fast_settings(3));
  std::string id = engine->enqueue(make_event("pi_1", url_of(port)));
  REQUIRE(engine->wait_idle(10s));
  auto e = *engine->event(id);
  CHECK(e["state"] == "failed");
  CHECK(e["reason"] == "gave up after 3 attempts; last: HTTP 503");
  CHECK(statuses(e) == std::vector<int>{503, 503, 503});
  CHECK(receiver.requests().size() == 3);
}

TEST_CASE("a resent event reaches the receiver again with the same id", "[webhooks][http]") {
  Receiver receiver;
  int port = receiver.start();
  auto engine = make_engine(fast_settings());
  std::string id = engine->enqueue(make_event("pi_1", url_of(port)));
  REQUIRE(engine->wait_idle(10s));
  REQUIRE(engine->resend(id) == ResendOutcome::kQueued);
  REQUIRE(engine->wait_idle(10s));
  auto requests = receiver.requests();
  REQUIRE(requests.size() == 2);
  CHECK(requests[1].header("X-Webhook-Id") == id);
  CHECK(requests[1].body == requests[0].body);
  CHECK((*engine->event(id))["series"] == 2);
}

TEST_CASE("a receiver slower than the attempt timeout is retried", "[webhooks][http]") {
  // The first request is held until the test ends; the client gives up on it.
  struct Gate {
    std::mutex mu;
    std::condition_variable cv;
    bool open = false;
    void release() {
      std::lock_guard<std::mutex> lk(mu);
      open = true;
      cv.notify_all();
    }
  };
  auto gate = std::make_shared<Gate>();
  Receiver receiver([gate](size_t index, const httplib::Request&) {
    if (index == 0) {
      std::unique_lock<std::mutex> lk(gate->mu);
      gate->cv.wait(lk, [&] { return gate->open; });
    }
    return 200;
  });
  // Declared after the receiver, so it opens the gate (even when a check
  // fails) before the receiver waits for its handlers to end.
  struct Opener {
    std::shared_ptr<Gate> gate;
    ~Opener() { gate->release(); }
  } opener{gate};
  int port = receiver.start();
  WebhookSettings s = fast_settings(2);
  s.attempt_timeout = Millis(1000);
  auto engine = make_engine(s);
  std::string id = engine->enqueue(make_event("pi_1", url_of(port)));
  REQUIRE(engine->wait_idle(10s));
  auto e = *engine->event(id);
  CHECK(e["state"] == "delivered");
  CHECK(statuses(e) == std::vector<int>{0, 200});
  CHECK(e["attempts"][0]["error"] == "no answer within 1000 ms");
}

TEST_CASE("a receiver that closes at once is logged as closing, not as a timeout",
          "[webhooks][http]") {
  // A listener that accepts and closes every connection without a byte.
  int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(listener >= 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  REQUIRE(::listen(listener, 8) == 0);
  socklen_t len = sizeof addr;
  REQUIRE(::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
  std::thread closer([listener] {
    for (int i = 0; i < 2; ++i) {
      int c = ::accept(listener, nullptr, nullptr);
      if (c < 0) return;
      ::close(c);
    }
  });
  WebhookSettings s = fast_settings(2);
  s.attempt_timeout = Millis(5000);
  auto engine = make_engine(s);
  std::string id = engine->enqueue(make_event("pi_1", url_of(ntohs(addr.sin_port))));
  REQUIRE(engine->wait_idle(20s));
  closer.join();
  ::close(listener);
  auto e = *engine->event(id);
  CHECK(e["state"] == "failed");
  REQUIRE(e["attempts"].size() == 2);
  const std::string error = e["attempts"][0]["error"];
  INFO(error);
  // Closed before the request was written whole, or before an answer: both
  // say so, neither is a timeout.
  CHECK(error.rfind("the receiver closed the connection ", 0) == 0);
}
