#pragma once
// The workers that serve connections. cpp-httplib gives a connection one
// worker for as long as it stays open: a fixed pool of 32 let 100 idle
// keep-alive connections (or 50 clients sending their headers a byte a
// second) keep a fresh request waiting for many seconds. This pool starts a
// worker whenever every worker is busy, up to a ceiling, and lets a worker
// that has been idle for a while end, so an idle or slow connection only
// ever holds its own thread.
//
// Locking rule: mutex_ guards every member below it; a job runs outside it.
#include <httplib.h>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <list>
#include <mutex>
#include <thread>
#include <vector>

namespace fake_org::http {

struct ConnectionPoolLimits {
  size_t ready = 8;                    // workers kept even when idle
  size_t ceiling = 4096;               // connections served at once; more wait for a worker
  std::chrono::seconds idle_exit{30};  // a worker beyond `ready` idle this long ends
};

class ConnectionPool : public httplib::TaskQueue {
 public:
  explicit ConnectionPool(ConnectionPoolLimits limits);
  ~ConnectionPool() override;
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;

  void enqueue(std::function<void()> job) override;
  void shutdown() override;

  struct Stats {
    size_t workers = 0;
    size_t idle = 0;
    size_t waiting = 0;  // jobs no worker has taken yet
    size_t peak_workers = 0;
  };
  Stats stats() const;

 private:
  using Worker = std::list<std::thread>::iterator;
  void start_worker();  // with mutex_ held
  void fill();          // starts workers until `ready` are alive
  void work(Worker self);
  void join_finished();  // with mutex_ held

  const ConnectionPoolLimits limits_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable ended_;  // a worker has finished
  std::deque<std::function<void()>> jobs_;
  std::list<std::thread> workers_;
  std::vector<Worker> finished_;  // ended, to be joined
  size_t idle_ = 0;
  size_t peak_ = 0;
  bool shutdown_ = false;
  std::thread filler_;  // last: it starts once every member above exists
};

}  // namespace fake_org::http
