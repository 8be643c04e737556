#pragma once
// SIGINT and SIGTERM (Ctrl-C, a CI job cancelled) during a run: the handler
// only records the signal and writes one byte to a pipe; the run reads the
// flag between scenarios and steps, and waits (poll intervals, webhooks)
// end early on the pipe, so no thread sleeps to watch for it.
//
// Locking: the flag is an atomic; the pipe is written once and never read,
// so it stays readable for every poll() after the signal; the wakers list
// has its own mutex, and the watcher thread that calls them blocks in poll()
// on the pipe until the signal comes.
#include <chrono>
#include <functional>
#include <string>

namespace runner::interrupt {

// Installs the handlers (once per process); a second signal of the same kind
// ends the process at once, as without the handler.
void install();
// The signal received (SIGINT, SIGTERM), 0 while none.
int received();
// "SIGINT", "SIGTERM", or "" while none.
std::string received_name();
// Waits for `how_long` or an interrupt, whichever comes first; true when
// interrupted.
bool wait(std::chrono::milliseconds how_long);
// What the handler does, for tests (and for a run stopped from inside).
void raise_flag(int signal);
// Clears the flag and drains the pipe, for tests that interrupt in-process.
void reset_for_tests();

// Calls `wake` (from the watcher thread) when a signal comes, until the
// returned handle is destroyed: a condition variable's waiters re-check the
// flag then.
class Waker {
 public:
  explicit Waker(std::function<void()> wake);
  ~Waker();
  Waker(const Waker&) = delete;
  Waker& operator=(const Waker&) = delete;

 private:
  size_t id_;
};

}  // namespace runner::interrupt
