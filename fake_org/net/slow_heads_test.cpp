// A request head that trickles in ends at the head timeout however steadily
// its bytes come, and one peer address holds only so many workers with
// heads still arriving: a slow-loris client cannot hold every worker.
#include <catch2/catch.hpp>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "app/embedded.h"
#include "net/slow_heads.h"
#include "testing/fixtures.h"
#include "testing/raw_http.h"

using namespace fake_org;
using namespace fake_org::testing;
using namespace std::chrono_literals;

TEST_CASE("slow heads are counted per peer up to the cap", "[http][connection][security]") {
  net::SlowHeads heads(2);
  CHECK(heads.enter("10.0.0.1"));
  CHECK(heads.enter("10.0.0.1"));
  CHECK_FALSE(heads.enter("10.0.0.1"));
  CHECK(heads.enter("10.0.0.2"));  // another peer has its own count
  heads.leave("10.0.0.1");
  CHECK(heads.held("10.0.0.1") == 1);
  CHECK(heads.enter("10.0.0.1"));
  heads.leave("10.0.0.2");
  CHECK(heads.held("10.0.0.2") == 0);
}

TEST_CASE("a head that trickles in ends at the head timeout", "[http][connection][security]") {
  EmbeddedOptions o;
  o.head_timeout_ms = 600;
  auto org = EmbeddedOrg::start(fixture("default.yaml"), o);
  RawConnection c(org->port());
  const auto start = std::chrono::steady_clock::now();
  c.send("GET /__admin/health HTTP/1.1\r\nHost: 127.0.0.1\r\n");
  // A header line every 100 ms: far inside the 5 s read timeout each time.
  bool ended = false;
  for (int i = 0; i < 40 && !ended; ++i) {
    std::this_thread::sleep_for(100ms);
    ended = !c.open_and_silent();
    if (!ended) c.send("X-Slow-" + std::to_string(i) + ": a\r\n");
  }
  const auto took = std::chrono::steady_clock::now() - start;
  CHECK(ended);
  CHECK(took < 2500ms);
  auto r = c.read_response();
  CHECK(r.status == 400);
  CHECK(r.header("Connection") == "close");
  // Whole requests are served as before.
  CHECK(raw_request(org->port(), "GET", "/__admin/health").status == 200);
}

TEST_CASE("one peer holds at most --max-slow-heads workers with heads arriving",
          "[http][connection][security]") {
  EmbeddedOptions o;
  o.max_slow_heads = 2;
  auto org = EmbeddedOrg::start(fixture("default.yaml"), o);
  std::vector<std::unique_ptr<RawConnection>> slow;
  for (int i = 0; i < 2; ++i) {
    slow.push_back(std::make_unique<RawConnection>(org->port()));
    slow.back()->send("GET /__admin/health HTTP/1.1\r\n");
  }
  std::this_thread::sleep_for(300ms);  // both are on workers, their heads unfinished
  RawConnection third(org->port());
  third.send("GET /__admin/health HTTP/1.1\r\n");
  auto refused = third.read_response();
  CHECK(refused.status == 503);
  CHECK(refused.header("Connection") == "close");
  CHECK(refused.body.find("SERVER_UNAVAILABLE") != std::string::npos);
  // A whole request from the same address is no slow head: served.
  CHECK(raw_request(org->port(), "GET", "/__admin/health").status == 200);
  // Once a slow head is whole its worker is no longer counted.
  slow[0]->send("Host: 127.0.0.1\r\n\r\n");
  CHECK(slow[0]->read_response().status == 200);
  RawConnection fourth(org->port());
  fourth.send("GET /__admin/health HTTP/1.1\r\n");
  std::this_thread::sleep_for(100ms);
  fourth.send("Host: 127.0.0.1\r\n\r\n");
  CHECK(fourth.read_response().status == 200);
}
