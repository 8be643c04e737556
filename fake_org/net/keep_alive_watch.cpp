#include "keep_alive_watch.h"

#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

#include "util/thread_cache.h"

namespace fake_org::net {

namespace {

// One-shot: a connection's readiness goes to one worker, and to none again
// until it is parked anew.
bool arm(int epoll_fd, int op, int fd, uint64_t tag) {
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLONESHOT;
  ev.data.u64 = tag;
  return epoll_ctl(epoll_fd, op, fd, &ev) == 0;
}

uint64_t tag_of(uint32_t slot, uint32_t generation) {
  return (static_cast<uint64_t>(generation) << 32) | slot;
}

// A drain (a reset) wakes each sleeping worker with this signal, so it gives
// its caches back now and not at its next event (decision 95). The workers
// block it except inside epoll_pwait: it interrupts that wait and never a
// read or write. Nothing here uses out-of-band data, and the signal's
// default is to be ignored.
constexpr int kWakeSignal = SIGURG;

void on_wake_signal(int) {}

// Whether the wake signal's handler is ours (installed now if the program
// had none): a program with its own keeps it, and the workers there give
// back at their next event.
bool wake_signal_is_ours() {
  static const bool ours = [] {
    struct sigaction old {};
    if (sigaction(kWakeSignal, nullptr, &old) != 0) return false;
    if ((old.sa_flags & SA_SIGINFO) != 0) return false;
    if (old.sa_handler == on_wake_signal) return true;
    if (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN) return false;
    struct sigaction sa {};
    sa.sa_handler = on_wake_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    return sigaction(kWakeSignal, &sa, nullptr) == 0;
  }();
  return ours;
}

}  // namespace

KeepAliveWatch::KeepAliveWatch(size_t workers, std::chrono::milliseconds idle, Serve serve)
    : idle_(idle),
      serve_(std::move(serve)),
      epoll_fd_(epoll_create1(EPOLL_CLOEXEC)),
      quit_fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
      timer_fd_(timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK)) {
  if (epoll_fd_ < 0 || quit_fd_ < 0 || timer_fd_ < 0) return;
  epoll_event quit{};
  quit.events = EPOLLIN;  // level-triggered: every worker sees it
  quit.data.u64 = kQuitEvent;
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, quit_fd_, &quit) != 0 ||
      !arm(epoll_fd_, EPOLL_CTL_ADD, timer_fd_, kTimerEvent))
    return;
  const bool wake_by_signal = wake_signal_is_ours();
  for (size_t i = 0; i < workers; ++i) {
    try {
      workers_.emplace_back([this, wake_by_signal] { work(wake_by_signal); });
    } catch (...) {  // out of threads: the workers made so far watch
      break;
    }
  }
  if (wake_by_signal)
    util::add_drain_waker(this, [this] {
      for (auto& t : workers_) pthread_kill(t.native_handle(), kWakeSignal);
    });
}

KeepAliveWatch::~KeepAliveWatch() {
  stop_workers();
  close_parked();
  for (int fd : {epoll_fd_, quit_fd_, timer_fd_})
    if (fd >= 0) close(fd);
}

void KeepAliveWatch::work(bool wake_by_signal) {
  sigset_t while_waiting;
  pthread_sigmask(SIG_BLOCK, nullptr, &while_waiting);
  if (wake_by_signal) {
    sigset_t wake;
    sigemptyset(&wake);
    sigaddset(&wake, kWakeSignal);
    pthread_sigmask(SIG_BLOCK, &wake, nullptr);
    sigdelset(&while_waiting, kWakeSignal);
  }
  for (;;) {
    // A drain asked while this worker served is answered before it sleeps;
    // one asked while it sleeps wakes it with the signal.
    util::give_back_thread_cache();
    epoll_event ev{};
    const int n = epoll_pwait(epoll_fd_, &ev, 1, -1, &while_waiting);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || ev.data.u64 == kQuitEvent) return;
    if (ev.data.u64 == kTimerEvent) {
      expire();
    } else if (auto c = take(ev.data.u64)) {
      serve_(std::move(c));
    }
  }
}

void KeepAliveWatch::park(std::unique_ptr<Connection> c) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!stopped_ && !workers_.empty()) {
      const int fd = c->stream.socket();
      const int op = c->watched ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
      c->watched = true;
      const uint32_t slot = occupy(std::move(c));
      if (arm(epoll_fd_, op, fd, tag_of(slot, slots_[slot].generation))) return;
      c = vacate(slot);
    }
  }
  c->stream.close_idle();
}

std::unique_ptr<Connection> KeepAliveWatch::take(uint64_t tag) {
  const auto slot = static_cast<uint32_t>(tag);
  const auto generation = static_cast<uint32_t>(tag >> 32);
  std::lock_guard<std::mutex> lock(mutex_);
  if (slot >= slots_.size() || slots_[slot].generation != generation || !slots_[slot].connection)
    return nullptr;  // expired or closed at stop since the event
  return vacate(slot);
}

void KeepAliveWatch::expire() {
  std::vector<std::unique_ptr<Connection>> idled;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    uint64_t expirations = 0;
    [[maybe_unused]] const ssize_t n = read(timer_fd_, &expirations, sizeof(expirations));
    const auto now = Clock::now();
    while (oldest_ != kNoSlot && slots_[oldest_].idle_until <= now)
      idled.push_back(vacate(oldest_));
    set_timer();
    arm(epoll_fd_, EPOLL_CTL_MOD, timer_fd_, kTimerEvent);
  }
  for (auto& c : idled) {
    // A request that came before the timeout but waits behind busy workers
    // (its event queued after the timer's) is not idleness: it is watched
    // again, and served at once since its bytes are there. A parked TLS
    // connection holds nothing decrypted, so its socket says it all here too.
    char byte;
    if (recv(c->stream.socket(), &byte, 1, MSG_PEEK | MSG_DONTWAIT) > 0)
      park(std::move(c));
    else
      c->stream.close_idle();
  }
}

uint32_t KeepAliveWatch::occupy(std::unique_ptr<Connection> c) {
  uint32_t slot;
  if (free_.empty()) {
    slot = static_cast<uint32_t>(slots_.size());
    slots_.emplace_back();
  } else {
    slot = free_.back();
    free_.pop_back();
  }
  Slot& s = slots_[slot];
  s.connection = std::move(c);
  // Every connection idles as long, so park order is timeout order and the
  // oldest is always the next to expire.
  s.idle_until = Clock::now() + idle_;
  s.prev = newest_;
  s.next = kNoSlot;
  if (newest_ != kNoSlot)
    slots_[newest_].next = slot;
  else
    oldest_ = slot;
  newest_ = slot;
  ++parked_;
  if (!timer_set_) set_timer();
  return slot;
}

std::unique_ptr<Connection> KeepAliveWatch::vacate(uint32_t slot) {
  Slot& s = slots_[slot];
  (s.prev != kNoSlot ? slots_[s.prev].next : oldest_) = s.next;
  (s.next != kNoSlot ? slots_[s.next].prev : newest_) = s.prev;
  s.prev = s.next = kNoSlot;
  ++s.generation;
  free_.push_back(slot);
  --parked_;
  // The timer stays: set for an earlier timeout, it fires early and
  // expire() sets it again.
  return std::move(s.connection);
}

void KeepAliveWatch::set_timer() {
  itimerspec at{};  // zero: off
  timer_set_ = oldest_ != kNoSlot;
  if (timer_set_) {
    // steady_clock is CLOCK_MONOTONIC on Linux.
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        slots_[oldest_].idle_until.time_since_epoch())
                        .count();
    at.it_value.tv_sec = static_cast<time_t>(ns / 1000000000);
    at.it_value.tv_nsec = static_cast<long>(ns % 1000000000);
    if (at.it_value.tv_sec == 0 && at.it_value.tv_nsec == 0) at.it_value.tv_nsec = 1;
  }
  timerfd_settime(timer_fd_, TFD_TIMER_ABSTIME, &at, nullptr);
}

void KeepAliveWatch::stop_workers() {
  util::remove_drain_waker(this);  // no waker runs once it returns
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = true;
  }
  if (quit_fd_ >= 0) {
    const uint64_t one = 1;
    [[maybe_unused]] const ssize_t n = write(quit_fd_, &one, sizeof(one));
  }
  for (auto& t : workers_) t.join();
  workers_.clear();
}

void KeepAliveWatch::close_parked() {
  std::vector<std::unique_ptr<Connection>> parked;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = true;
    while (oldest_ != kNoSlot) parked.push_back(vacate(oldest_));
  }
  for (auto& c : parked) c->stream.close_idle();
}

size_t KeepAliveWatch::parked() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return parked_;
}

bool KeepAliveWatch::watching() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return !stopped_ && !workers_.empty();
}

}  // namespace fake_org::net
