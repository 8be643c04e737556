#include "connection_pool.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "testing/eventually.h"

using fake_org::net::ConnectionPool;
using fake_org::net::ConnectionPoolLimits;
using namespace std::chrono_literals;

namespace {

// Jobs that hold their worker until the test opens the gate, as a kept-alive
// connection holds its worker until it closes.
class Gate {
 public:
  void enter() {
    std::unique_lock<std::mutex> lock(mu_);
    ++inside_;
    changed_.notify_all();
    changed_.wait_for(lock, 20s, [this] { return open_; });
    --inside_;
    ++done_;
    changed_.notify_all();
  }
  void open() {
    std::lock_guard<std::mutex> lock(mu_);
    open_ = true;
    changed_.notify_all();
  }
  // Waits (at most 20 s) until at least n jobs are inside; returns how many are.
  size_t wait_inside(size_t n) {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait_for(lock, 20s, [&] { return inside_ >= n; });
    return inside_;
  }
  size_t wait_done(size_t n) {
    std::unique_lock<std::mutex> lock(mu_);
    changed_.wait_for(lock, 20s, [&] { return done_ >= n; });
    return done_;
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  size_t inside_ = 0;
  size_t done_ = 0;
  bool open_ = false;
};

// A pool's workers start and stop on their own threads: polled, with room
// for a slow sanitizer build.
template <typename Pred>
bool settles(Pred pred) {
  return fake_org::testing::eventually(pred, 20s);
}

}  // namespace

TEST_CASE("ConnectionPool: a burst of connections gets a worker each, none waits for another",
          "[connection_pool]") {
  ConnectionPoolLimits limits;
  limits.ready = 2;
  limits.spare = 2;
  Gate gate;  // outlives the pool, whose jobs use it
  ConnectionPool pool(limits);
  for (int i = 0; i < 60; ++i) pool.enqueue([&] { gate.enter(); });
  CHECK(gate.wait_inside(60) == 60);  // every job runs at once: none queued behind another
  // Workers wait ahead of the next connection, made before it comes.
  CHECK(settles([&] { return pool.stats().idle >= limits.spare; }));
  const ConnectionPool::Stats busy = pool.stats();
  CHECK(busy.waiting == 0);
  CHECK(settles([&] { return pool.stats().peak_workers >= 60; }));
  // Grown by half the pool at a time: never more than twice the connections.
  CHECK(busy.workers <= 2 * 60 + limits.spare);
  gate.open();
  CHECK(gate.wait_done(60) == 60);
  pool.shutdown();
}

TEST_CASE("ConnectionPool: past the ceiling a connection waits for a worker to finish",
          "[connection_pool]") {
  ConnectionPoolLimits limits;
  limits.ready = 2;
  limits.ceiling = 4;
  Gate gate;  // outlives the pool, whose jobs use it
  ConnectionPool pool(limits);
  for (int i = 0; i < 7; ++i) pool.enqueue([&] { gate.enter(); });
  CHECK(gate.wait_inside(4) == 4);
  CHECK(settles([&] { return pool.stats().waiting == 3; }));
  CHECK(pool.stats().workers == 4);
  gate.open();
  CHECK(gate.wait_done(7) == 7);
  CHECK(pool.stats().peak_workers == 4);
}

TEST_CASE("ConnectionPool: idle workers beyond those kept ready end", "[connection_pool]") {
  ConnectionPoolLimits limits;
  limits.ready = 3;
  limits.spare = 1;
  limits.idle_exit = 1s;
  Gate gate;  // outlives the pool, whose jobs use it
  ConnectionPool pool(limits);
  for (int i = 0; i < 12; ++i) pool.enqueue([&] { gate.enter(); });
  CHECK(gate.wait_inside(12) == 12);
  CHECK(pool.stats().workers >= 12);
  gate.open();
  CHECK(gate.wait_done(12) == 12);
  CHECK(settles([&] { return pool.stats().workers == limits.ready; }));
  CHECK(pool.stats().idle == limits.ready);
  // Still serving after shrinking.
  std::atomic<int> ran{0};
  pool.enqueue([&] { ++ran; });
  CHECK(settles([&] { return ran.load() == 1; }));
}

TEST_CASE("ConnectionPool: the worker idle for the shortest time takes the next job",
          "[connection_pool]") {
  // Sequential connections stay on one warm worker instead of touching every
  // ready one in turn (each would keep its own caches and stack pages).
  ConnectionPoolLimits limits;
  limits.ready = 8;
  ConnectionPool pool(limits);
  REQUIRE(settles([&] { return pool.stats().idle == limits.ready; }));
  std::mutex mu;
  std::vector<std::thread::id> ran_on;
  for (int i = 0; i < 20; ++i) {
    pool.enqueue([&] {
      std::lock_guard<std::mutex> lock(mu);
      ran_on.push_back(std::this_thread::get_id());
    });
    // Back among the idle before the next job comes.
    REQUIRE(settles([&] {
      std::lock_guard<std::mutex> lock(mu);
      return ran_on.size() == static_cast<size_t>(i + 1) && pool.stats().idle == limits.ready;
    }));
  }
  std::lock_guard<std::mutex> lock(mu);
  CHECK(std::count(ran_on.begin(), ran_on.end(), ran_on.front()) == 20);
}

TEST_CASE("ConnectionPool: a job no worker took yet runs at shutdown", "[connection_pool]") {
  // The server can stop before the pool has made its first worker: the
  // accepted socket is closed by the job, so the job still runs.
  std::atomic<int> ran{0};
  {
    ConnectionPoolLimits limits;
    limits.ready = 0;  // with no spare either, the pool makes no worker at all
    limits.spare = 0;
    ConnectionPool pool(limits);
    pool.enqueue([&] { ++ran; });
    CHECK(pool.stats().workers == 0);
    pool.shutdown();
    CHECK(ran.load() == 1);
  }
  CHECK(ran.load() == 1);
}

TEST_CASE("ConnectionPool: shutdown waits for running jobs and refuses new ones",
          "[connection_pool]") {
  std::atomic<int> ran{0};
  ConnectionPoolLimits limits;
  limits.ready = 2;
  ConnectionPool pool(limits);
  for (int i = 0; i < 5; ++i)
    pool.enqueue([&] {
      std::this_thread::sleep_for(20ms);
      ++ran;
    });
  CHECK(settles([&] { return pool.stats().waiting == 0; }));
  pool.shutdown();
  CHECK(ran.load() == 5);
  pool.enqueue([&] { ++ran; });
  CHECK(pool.stats().waiting == 0);  // not queued
  pool.shutdown();
  CHECK(ran.load() == 5);
}
