#pragma once
// One client connection kept alive between requests: its stream, with what
// it has read ahead, and how many requests it may still send. It passes
// from thread to thread (the pool thread that accepted it, the keep-alive
// watch, a worker of either), one at a time.
//
// Locking rule: none; whoever holds the unique_ptr owns it.
#include <chrono>
#include <cstddef>
#include <memory>

#include "connection_stream.h"
#include "watch_slots.h"

namespace fake_org::net {

struct Connection {
  Connection(socket_t sock, StreamTimeouts timeouts, int stop_fd, size_t requests)
      : stream(sock, timeouts, stop_fd), requests_left(requests) {}
  ~Connection() {
    stream.close_gracefully();  // nothing when closed already
    if (watch_slots) watch_slots->release(watch_slot);
  }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  ConnectionStream stream;
  size_t requests_left;  // the last is answered with "Connection: close"
  // The keep-alive watch's slot, from its first park: its epoll entry's tag.
  std::shared_ptr<WatchSlots> watch_slots;
  uint32_t watch_slot = 0;
  std::chrono::steady_clock::time_point answered_at;  // the last answer's end: idle since
};

}  // namespace fake_org::net
