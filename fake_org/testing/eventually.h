#pragma once
// Polls a condition until it holds or a deadline passes, for tests of state
// that has no condition variable of its own (a log, a lock's queue). A stuck
// test fails at the deadline instead of hanging.
#include <chrono>
#include <thread>

namespace fake_org::testing {

template <typename F>
bool eventually(F done, std::chrono::milliseconds deadline = std::chrono::seconds(10)) {
  auto until = std::chrono::steady_clock::now() + deadline;
  while (!done()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

}  // namespace fake_org::testing
