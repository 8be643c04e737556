#pragma once
// Keep-alive connections between requests, watched from one epoll set by a
// few workers (about one per core) instead of each holding a thread that
// polls it. When a parked connection's next request arrives, one worker
// takes the connection and hands it to `serve`; a connection idle for the
// keep-alive timeout is closed. At 128 connections this removed the
// context switch each request paid to wake its connection's own thread
// (decision 135).
//
// A connection enters the epoll set once, edge-triggered, under its slot's
// number and generation (watch_slots.h), never a pointer, and stays until
// it closes: parking it again is a compare-and-swap, with no system call
// and no lock. An event for a connection a thread holds marks its slot
// woken, and that thread's park() hands the connection back to be served
// again; an event for a slot released since finds another generation and
// is dropped.
//
// Locking rule: mutex_ guards the idle timer; it is taken by expire() and
// by the first park of a connection, never by a request's own park or take.
// The slots follow the rule of watch_slots.h. stopped_ is atomic: a park()
// that races close_parked() either is seen by it or sees stopped_ and
// closes its connection itself.
#include <sys/epoll.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "connection.h"
#include "watch_slots.h"

namespace fake_org::net {

class KeepAliveWatch {
 public:
  // Runs on a worker when a parked connection has bytes (or has closed).
  using Serve = std::function<void(std::unique_ptr<Connection>)>;
  KeepAliveWatch(size_t workers, std::chrono::milliseconds idle, Serve serve);
  ~KeepAliveWatch();  // stop_workers() and close_parked()
  KeepAliveWatch(const KeepAliveWatch&) = delete;
  KeepAliveWatch& operator=(const KeepAliveWatch&) = delete;

  // From any thread: watches `c` until its next request or its idle timeout,
  // and returns null. Returns `c` itself when an event reached it while the
  // caller held it (its next request may be there: the caller serves it).
  // Closes it at once once stop_workers() has run, or when it cannot be
  // watched. `c` holds no input (ConnectionStream::holds_input, which
  // counts a TLS session's decrypted bytes): epoll sees only its socket.
  [[nodiscard]] std::unique_ptr<Connection> park(std::unique_ptr<Connection> c);
  // Ends the workers once each has served what it holds; parked connections
  // stay open until close_parked().
  void stop_workers();
  void close_parked();

  // Whether park() watches: false once stopped, or when the system gave no
  // epoll set or no thread (the caller then waits on its own thread).
  bool watching() const {
    return has_workers_.load(std::memory_order_acquire) &&
           !stopped_.load(std::memory_order_acquire);
  }
  size_t parked() const { return parked_.load(std::memory_order_acquire); }  // for tests

 private:
  using Clock = std::chrono::steady_clock;
  using Slot = WatchSlots::Slot;
  static constexpr uint64_t kQuitEvent = UINT64_MAX;
  static constexpr uint64_t kTimerEvent = UINT64_MAX - 1;
  void work(bool wake_by_signal);
  // The connection parked under the event's tag, or null when a thread
  // holds it (marked woken) or it ended since.
  std::unique_ptr<Connection> take(uint64_t tag);
  // A connection's first park: a slot, its epoll entry. Null once watched.
  std::unique_ptr<Connection> enter(std::unique_ptr<Connection> c);
  // Parked -> away by the caller, when the slot still holds `word`.
  std::unique_ptr<Connection> take_parked(Slot& s, uint64_t word);
  void expire();                         // closes what idled out; rearms the timer
  void set_timer(Clock::time_point at);  // with mutex_ held; epoch: off

  const std::chrono::milliseconds idle_;
  const Serve serve_;
  const std::shared_ptr<WatchSlots> slots_ = std::make_shared<WatchSlots>();
  int epoll_fd_ = -1;
  int quit_fd_ = -1;   // an eventfd: readable once the workers are to end
  int timer_fd_ = -1;  // a timerfd: the earliest parked connection's timeout
  mutable std::mutex mutex_;
  bool timer_set_ = false;
  std::atomic<bool> stopped_{false};
  std::atomic<bool> has_workers_{false};  // set once, by the constructor
  std::atomic<size_t> parked_{0};
  std::vector<std::thread> workers_;  // last: they start once the members above exist
};

}  // namespace fake_org::net
