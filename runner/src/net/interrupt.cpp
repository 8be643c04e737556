#include "net/interrupt.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <map>
#include <mutex>
#include <thread>

namespace runner::interrupt {
namespace {

std::atomic<int> interrupt_signal{0};
int interrupt_pipe[2] = {-1, -1};
std::once_flag interrupt_pipe_once;

std::mutex& wakers_mutex() {
  static std::mutex m;
  return m;
}
std::map<size_t, std::function<void()>>& wakers() {
  static std::map<size_t, std::function<void()>> w;
  return w;
}
size_t next_waker_id = 0;  // under wakers_mutex()

void open_interrupt_pipe() {
  std::call_once(interrupt_pipe_once, [] {
    if (pipe(interrupt_pipe) != 0) return;
    for (int fd : interrupt_pipe) fcntl(fd, F_SETFD, FD_CLOEXEC);
    fcntl(interrupt_pipe[1], F_SETFL, O_NONBLOCK);
  });
}

// Async-signal-safe: an atomic store, write(), and for a second signal
// signal() and raise().
extern "C" void on_interrupt_signal(int sig) {
  int expected = 0;
  if (!interrupt_signal.compare_exchange_strong(expected, sig) && expected == sig) {
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  const char byte = 1;
  const ssize_t ignored = write(interrupt_pipe[1], &byte, 1);
  (void)ignored;
}

bool pipe_readable(int timeout_ms) {
  if (interrupt_pipe[0] < 0) return false;
  pollfd p{interrupt_pipe[0], POLLIN, 0};
  return poll(&p, 1, timeout_ms) > 0;
}

// Blocks until the first signal, then wakes every registered waiter; it
// lives as long as the process (detached), and does nothing until then.
void watch_for_interrupt() {
  while (!pipe_readable(-1)) {  // EINTR when the signal lands on this thread
  }
  std::lock_guard<std::mutex> lock(wakers_mutex());
  for (auto& [id, wake] : wakers()) wake();
}

}  // namespace

void install() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    open_interrupt_pipe();
    struct sigaction sa {};
    sa.sa_handler = on_interrupt_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    std::thread(watch_for_interrupt).detach();
  });
}

int received() {
  return interrupt_signal.load();
}

std::string received_name() {
  switch (received()) {
    case 0:
      return "";
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "signal " + std::to_string(received());
  }
}

bool wait(std::chrono::milliseconds how_long) {
  if (received()) return true;
  open_interrupt_pipe();
  if (interrupt_pipe[0] < 0) {  // no pipe (out of descriptors): a plain wait
    std::this_thread::sleep_for(how_long);
    return received() != 0;
  }
  const auto deadline = std::chrono::steady_clock::now() + how_long;
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return received() != 0;
    if (pipe_readable(static_cast<int>(left.count())) || received()) return true;
  }
}

void raise_flag(int signal) {
  open_interrupt_pipe();
  interrupt_signal.store(signal);
  const char byte = 1;
  const ssize_t ignored = write(interrupt_pipe[1], &byte, 1);
  (void)ignored;
  std::lock_guard<std::mutex> lock(wakers_mutex());
  for (auto& [id, wake] : wakers()) wake();
}

void reset_for_tests() {
  open_interrupt_pipe();
  interrupt_signal.store(0);
  fcntl(interrupt_pipe[0], F_SETFL, O_NONBLOCK);
  char buf[64];
  while (read(interrupt_pipe[0], buf, sizeof buf) > 0) {
  }
  fcntl(interrupt_pipe[0], F_SETFL, 0);
}

Waker::Waker(std::function<void()> wake) {
  std::lock_guard<std::mutex> lock(wakers_mutex());
  id_ = next_waker_id++;
  wakers().emplace(id_, std::move(wake));
}

Waker::~Waker() {
  std::lock_guard<std::mutex> lock(wakers_mutex());
  wakers().erase(id_);
}

}  // namespace runner::interrupt
