#include "util/request_gate.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <mutex>
#include <thread>
#include <vector>

#include "testing/eventually.h"

using fake_org::util::RequestGate;

TEST_CASE("RequestGate admits the requests that wait in the order they came",
          "[request_gate][concurrency]") {
  RequestGate gate(1);
  std::atomic<bool> release{false};
  std::thread holder([&] {
    RequestGate::Admission in(gate);
    while (!release) std::this_thread::yield();
  });
  REQUIRE(fake_org::testing::eventually([&] { return gate.running_for_test() == 1; }));
  // Three more arrive one after another while the one place is taken.
  std::mutex order_mu;
  std::vector<int> order;
  std::vector<std::thread> later;
  for (int i = 0; i < 3; ++i) {
    later.emplace_back([&, i] {
      RequestGate::Admission in(gate);
      std::lock_guard lock(order_mu);
      order.push_back(i);
    });
    REQUIRE(fake_org::testing::eventually(
        [&] { return gate.waiting_for_test() == static_cast<size_t>(i + 1); }));
  }
  CHECK(gate.running_for_test() == 1);
  release = true;
  holder.join();
  for (auto& t : later) t.join();
  CHECK(order == std::vector<int>{0, 1, 2});
  CHECK(gate.running_for_test() == 0);
  CHECK(gate.waiting_for_test() == 0);
}

TEST_CASE("RequestGate lets a request that steps out be answered by one it waits for",
          "[request_gate][concurrency]") {
  // One place: the first request waits for a second (as a PSP page waits
  // for the PSP's callback to the same server); without stepping out the
  // second would wait for the first for ever.
  RequestGate gate(1);
  std::atomic<bool> answered{false};
  std::thread first([&] {
    RequestGate::Admission in(gate);
    RequestGate::StepOut waiting;
    std::thread second([&] {
      RequestGate::Admission in2(gate);
      answered = true;
    });
    second.join();
  });
  first.join();
  CHECK(answered);
  CHECK(gate.running_for_test() == 0);
}

TEST_CASE("RequestGate with no limit admits everyone at once", "[request_gate]") {
  RequestGate gate(0);
  RequestGate::Admission a(gate);
  RequestGate::Admission b(gate);
  RequestGate::StepOut out;
  CHECK(gate.running_for_test() == 0);  // nothing counted
  CHECK(gate.waiting_for_test() == 0);
}

TEST_CASE("RequestGate keeps the count under many threads", "[request_gate][concurrency]") {
  RequestGate gate(3);
  std::atomic<int> inside{0};
  std::atomic<int> most{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 2000; ++i) {
        RequestGate::Admission in(gate);
        const int now = ++inside;
        int seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) {
        }
        --inside;
      }
    });
  for (auto& t : threads) t.join();
  CHECK(most <= 3);
  CHECK(gate.running_for_test() == 0);
}
