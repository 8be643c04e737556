#pragma once
// Keep-alive connections between requests, watched from one epoll set by a
// few workers (about one per core) instead of each holding a thread that
// polls it. When a parked connection's next request arrives, one worker
// takes the connection and hands it to `serve`; a connection idle for the
// keep-alive timeout is closed. At 128 connections this removed the
// context switch each request paid to wake its connection's own thread
// (decision 135).
//
// The epoll data of a parked connection is its slot and the slot's
// generation, never a pointer: a worker holding an event for a connection
// that was closed meanwhile (expired, or taken by stop) finds the slot's
// generation changed and drops the event.
//
// Locking rule: mutex_ guards the slots, the park-order list and the idle
// timer, and is held while a parked connection is armed in the epoll set
// (so nothing closes it in between); a connection is served, and closed,
// outside it. The drain waker reads workers_ only between the constructor
// and stop_workers(), which removes it first.
#include <sys/epoll.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "connection.h"

namespace fake_org::net {

class KeepAliveWatch {
 public:
  // Runs on a worker when a parked connection has bytes (or has closed).
  using Serve = std::function<void(std::unique_ptr<Connection>)>;
  KeepAliveWatch(size_t workers, std::chrono::milliseconds idle, Serve serve);
  ~KeepAliveWatch();  // stop_workers() and close_parked()
  KeepAliveWatch(const KeepAliveWatch&) = delete;
  KeepAliveWatch& operator=(const KeepAliveWatch&) = delete;

  // From any thread: watches `c` until its next request or its idle timeout.
  // Closes it at once once stop_workers() has run, or when it cannot be
  // watched. `c` holds no input (ConnectionStream::holds_input, which
  // counts a TLS session's decrypted bytes): epoll sees only its socket.
  void park(std::unique_ptr<Connection> c);
  // Ends the workers once each has served what it holds; parked connections
  // stay open until close_parked().
  void stop_workers();
  void close_parked();

  // Whether park() watches: false once stopped, or when the system gave no
  // epoll set or no thread (the caller then waits on its own thread).
  bool watching() const;
  size_t parked() const;  // for tests

 private:
  using Clock = std::chrono::steady_clock;
  static constexpr uint32_t kNoSlot = UINT32_MAX;
  static constexpr uint64_t kQuitEvent = UINT64_MAX;
  static constexpr uint64_t kTimerEvent = UINT64_MAX - 1;
  struct Slot {
    std::unique_ptr<Connection> connection;
    uint32_t generation = 0;
    Clock::time_point idle_until;
    uint32_t prev = kNoSlot, next = kNoSlot;  // park order, which is idle_until order
  };
  void work(bool wake_by_signal);
  // The connection parked under the event's tag, or null when it left.
  std::unique_ptr<Connection> take(uint64_t tag);
  void expire();  // closes what idled out; rearms the timer
  // With mutex_ held:
  uint32_t occupy(std::unique_ptr<Connection> c);
  std::unique_ptr<Connection> vacate(uint32_t slot);
  void set_timer();  // to the oldest parked connection's timeout, or off

  const std::chrono::milliseconds idle_;
  const Serve serve_;
  int epoll_fd_ = -1;
  int quit_fd_ = -1;   // an eventfd: readable once the workers are to end
  int timer_fd_ = -1;  // a timerfd: the oldest parked connection's timeout
  mutable std::mutex mutex_;
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_;
  uint32_t oldest_ = kNoSlot, newest_ = kNoSlot;
  size_t parked_ = 0;
  bool timer_set_ = false;
  bool stopped_ = false;
  std::vector<std::thread> workers_;  // last: they start once the members above exist
};

}  // namespace fake_org::net
