#include "keep_alive_watch.h"

#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>

#include "util/thread_cache.h"

namespace fake_org::net {

namespace {

// The timer's entry is one-shot: its expiry goes to one worker, which sets
// it again.
bool arm_oneshot(int epoll_fd, int op, int fd, uint64_t tag) {
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLONESHOT;
  ev.data.u64 = tag;
  return epoll_ctl(epoll_fd, op, fd, &ev) == 0;
}

int64_t nanoseconds(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
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
      !arm_oneshot(epoll_fd_, EPOLL_CTL_ADD, timer_fd_, kTimerEvent))
    return;
  const bool wake_by_signal = wake_signal_is_ours();
  for (size_t i = 0; i < workers; ++i) {
    try {
      workers_.emplace_back([this, wake_by_signal] { work(wake_by_signal); });
    } catch (...) {  // out of threads: the workers made so far watch
      break;
    }
  }
  has_workers_.store(!workers_.empty(), std::memory_order_release);
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

std::unique_ptr<Connection> KeepAliveWatch::park(std::unique_ptr<Connection> c) {
  if (c->watch_slots != slots_) return enter(std::move(c));
  Slot& s = *slots_->at(c->watch_slot);
  // The caller holds the slot (away): only an event changes it meanwhile,
  // to away and woken.
  const uint32_t generation = WatchSlots::generation_of(s.word.load(std::memory_order_relaxed));
  const uint64_t away = WatchSlots::word(generation, WatchSlots::kAway);
  s.connection = c.get();
  s.parked_at.store(nanoseconds(Clock::now()), std::memory_order_relaxed);
  parked_.fetch_add(1, std::memory_order_relaxed);
  uint64_t expected = away;
  const uint64_t parked = WatchSlots::word(generation, WatchSlots::kParked);
  if (!s.word.compare_exchange_strong(expected, parked, std::memory_order_seq_cst)) {
    // Woken while the caller held it: its next request may be here.
    parked_.fetch_sub(1, std::memory_order_relaxed);
    s.word.store(away, std::memory_order_relaxed);
    return c;
  }
  c.release();  // the slot's now; another worker may already have taken it
  // Stopped meanwhile: close_parked() closed it, or its scan came too soon
  // and this does (seq_cst on both sides: one of the two sees the other).
  if (stopped_.load(std::memory_order_seq_cst))
    if (auto back = take_parked(s, parked)) back->stream.close_idle();
  return nullptr;
}

std::unique_ptr<Connection> KeepAliveWatch::enter(std::unique_ptr<Connection> c) {
  if (!watching()) {
    c->stream.close_idle();
    return nullptr;
  }
  const uint32_t slot = slots_->claim();
  if (slot == UINT32_MAX) {
    c->stream.close_idle();
    return nullptr;
  }
  c->watch_slots = slots_;
  c->watch_slot = slot;
  // Added while the caller holds it: an event that comes before park()
  // marks it woken, and park() hands it back.
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLRDHUP | EPOLLET;
  ev.data.u64 = slots_->tag_of(slot);
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, c->stream.socket(), &ev) != 0) {
    c->stream.close_idle();  // its slot goes with it
    return nullptr;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!timer_set_) set_timer(Clock::now() + idle_);
  }
  return park(std::move(c));
}

std::unique_ptr<Connection> KeepAliveWatch::take(uint64_t tag) {
  Slot* s = slots_->at(WatchSlots::slot_of_tag(tag));
  if (s == nullptr) return nullptr;
  const uint32_t generation = WatchSlots::generation_of(tag);
  uint64_t w = s->word.load(std::memory_order_acquire);
  for (;;) {
    if (WatchSlots::generation_of(w) != generation) return nullptr;  // ended since
    switch (WatchSlots::state_of(w)) {
      case WatchSlots::kParked:
        if (auto c = take_parked(*s, w)) return c;
        break;
      case WatchSlots::kAway:
        // Its holder's park() will see this and serve it again.
        if (s->word.compare_exchange_weak(w, WatchSlots::word(generation, WatchSlots::kAwayWoken),
                                          std::memory_order_acq_rel))
          return nullptr;
        continue;  // w reloaded
      default:
        return nullptr;  // woken already, or free
    }
    w = s->word.load(std::memory_order_acquire);
  }
}

std::unique_ptr<Connection> KeepAliveWatch::take_parked(Slot& s, uint64_t word) {
  if (WatchSlots::state_of(word) != WatchSlots::kParked) return nullptr;
  const uint64_t away = WatchSlots::word(WatchSlots::generation_of(word), WatchSlots::kAway);
  if (!s.word.compare_exchange_strong(word, away, std::memory_order_acq_rel)) return nullptr;
  parked_.fetch_sub(1, std::memory_order_relaxed);
  return std::unique_ptr<Connection>(s.connection);
}

void KeepAliveWatch::expire() {
  std::vector<std::unique_ptr<Connection>> idled;
  const int64_t now_ns = nanoseconds(Clock::now());
  const int64_t idle_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(idle_).count();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    uint64_t expirations = 0;
    [[maybe_unused]] const ssize_t n = read(timer_fd_, &expirations, sizeof(expirations));
    // A connection parked after this scan times out after `now + idle_`:
    // the timer is never later than that while any connection is watched.
    int64_t earliest = now_ns + idle_ns;
    // Linear in the connections, once per timeout at most: no request waits
    // on it, and parking needs no ordered list.
    const uint32_t high = slots_->high_water();
    for (uint32_t i = 0; i < high; ++i) {
      Slot& s = *slots_->at(i);
      const uint64_t w = s.word.load(std::memory_order_acquire);
      if (WatchSlots::state_of(w) != WatchSlots::kParked) continue;
      const int64_t due = s.parked_at.load(std::memory_order_relaxed) + idle_ns;
      if (due > now_ns) {
        earliest = std::min(earliest, due);
      } else if (auto c = take_parked(s, w)) {
        idled.push_back(std::move(c));
      }
    }
    set_timer(slots_->in_use() > 0 ? Clock::time_point(std::chrono::nanoseconds(earliest))
                                   : Clock::time_point());
    arm_oneshot(epoll_fd_, EPOLL_CTL_MOD, timer_fd_, kTimerEvent);
  }
  for (auto& c : idled) {
    // Parked anew between the scan's read and its swap: not idle.
    const bool fresh =
        slots_->at(c->watch_slot)->parked_at.load(std::memory_order_relaxed) + idle_ns > now_ns;
    // A request that came before the timeout but waits behind busy workers
    // (its event queued after the timer's) is not idleness: it is served
    // now. A parked TLS connection holds nothing decrypted, so its socket
    // says it all here too.
    char byte;
    if (!fresh && recv(c->stream.socket(), &byte, 1, MSG_PEEK | MSG_DONTWAIT) <= 0) {
      c->stream.close_idle();
      continue;
    }
    if (fresh) c = park(std::move(c));
    if (c) serve_(std::move(c));
  }
}

void KeepAliveWatch::set_timer(Clock::time_point at) {
  itimerspec spec{};  // zero: off
  timer_set_ = at != Clock::time_point();
  if (timer_set_) {
    // steady_clock is CLOCK_MONOTONIC on Linux.
    const int64_t ns = nanoseconds(at);
    spec.it_value.tv_sec = static_cast<time_t>(ns / 1000000000);
    spec.it_value.tv_nsec = static_cast<long>(ns % 1000000000);
    if (spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0) spec.it_value.tv_nsec = 1;
  }
  timerfd_settime(timer_fd_, TFD_TIMER_ABSTIME, &spec, nullptr);
}

void KeepAliveWatch::stop_workers() {
  util::remove_drain_waker(this);  // no waker runs once it returns
  stopped_.store(true, std::memory_order_seq_cst);
  if (quit_fd_ >= 0) {
    const uint64_t one = 1;
    [[maybe_unused]] const ssize_t n = write(quit_fd_, &one, sizeof(one));
  }
  for (auto& t : workers_) t.join();
  workers_.clear();
}

void KeepAliveWatch::close_parked() {
  stopped_.store(true, std::memory_order_seq_cst);  // a park() from here on closes
  std::vector<std::unique_ptr<Connection>> parked;
  const uint32_t high = slots_->high_water();
  for (uint32_t i = 0; i < high; ++i) {
    Slot& s = *slots_->at(i);
    if (auto c = take_parked(s, s.word.load(std::memory_order_seq_cst)))
      parked.push_back(std::move(c));
  }
  for (auto& c : parked) c->stream.close_idle();
}

}  // namespace fake_org::net
