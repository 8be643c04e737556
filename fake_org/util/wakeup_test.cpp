#include "wakeup.h"

#include <atomic>
#include <thread>

#include <catch2/catch.hpp>

namespace fake_org::util {

TEST_CASE("a wake-up given before the wait is kept, and used by one wait only", "[wakeup]") {
  Wakeup w;
  w.wake();
  w.wait();  // returns at once: the wake-up came first
  std::atomic<bool> woken_after{false};
  std::atomic<bool> saw{false};
  std::thread sleeper([&] {
    w.wait();  // the first wake-up was used: this waits for the next
    saw = woken_after.load();
  });
  woken_after = true;
  w.wake();
  sleeper.join();
  CHECK(saw);
}

TEST_CASE("each thread has its own wake-up, alive while anyone holds it", "[wakeup]") {
  std::shared_ptr<Wakeup> other;
  std::thread t([&] { other = Wakeup::mine(); });
  t.join();
  REQUIRE(other);
  CHECK(other != Wakeup::mine());
  CHECK(Wakeup::mine() == Wakeup::mine());
  other->wake();  // its thread has ended; the copy keeps it
  other->wait();
  CHECK(other.use_count() == 1);
}

}  // namespace fake_org::util
