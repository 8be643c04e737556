#pragma once
// The workers that serve connections. cpp-httplib gives a connection one
// worker for as long as it stays open: a fixed pool of 32 let 100 idle
// keep-alive connections (or 50 clients sending their headers a byte a
// second) keep a fresh request waiting for many seconds. This pool grows
// whenever fewer than `spare` workers would be left idle, up to a ceiling,
// and lets a worker that has been idle for a while end, so an idle or slow
// connection only ever holds its own thread.
//
// A grower thread starts workers, by half the pool at a time, so a burst of
// connections neither waits in the accept loop for one thread after another
// nor holds the pool's lock while the system makes a thread.
//
// The worker that went idle last takes the next connection: a few workers
// stay warm (their caches, stacks and malloc's per-thread chunks in use)
// while the rest sleep, end when beyond `ready`, and hold nothing a reset
// has to give back.
//
// Locking rule: mutex_ guards every member below it; a job runs outside it,
// and the grower makes its threads outside it.
#include "httplib_seam.h"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <list>
#include <mutex>
#include <thread>
#include <vector>

namespace fake_org::net {

struct ConnectionPoolLimits {
  size_t ready = 8;                    // workers kept even when idle
  size_t spare = 4;                    // idle workers kept ahead of the jobs, when growing
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
  struct Thread {
    std::thread thread;
    bool listed = false;  // in workers_: only then may it end and be joined
  };
  using Worker = std::list<Thread>::iterator;
  // A worker waiting for a job, on its own stack; listed from the most
  // recently idle (idle_head_) down.
  struct Idle {
    std::condition_variable wake;
    std::function<void()> job;  // handed by enqueue, which unlists it
    Idle* newer = nullptr;
    Idle* older = nullptr;
  };
  void list_idle(Idle& w);    // with mutex_ held
  void unlist_idle(Idle& w);  // with mutex_ held
  void wake_all_idle();       // with mutex_ held
  void grow();                // the grower thread's loop
  // Starts up to n workers into `fresh` without the lock; how many started.
  size_t make_workers(std::list<Thread>& fresh, size_t n);
  size_t alive() const { return workers_.size() - finished_.size(); }  // with mutex_ held
  size_t free_workers() const;  // idle or starting, beyond the queued jobs; with mutex_ held
  size_t wanted() const;        // workers to start now; with mutex_ held
  void work(Worker self);
  void join_finished();  // with mutex_ held

  const ConnectionPoolLimits limits_;
  mutable std::mutex mutex_;
  std::condition_variable ended_;           // a worker has finished
  std::condition_variable short_;           // fewer workers idle than wanted
  std::deque<std::function<void()>> jobs_;  // jobs that found no idle worker
  Idle* idle_head_ = nullptr;
  std::list<Thread> workers_;
  std::vector<Worker> finished_;  // ended, to be joined
  size_t idle_ = 0;               // listed from idle_head_
  size_t starting_ = 0;           // made or being made, not yet waiting for a job
  size_t unlisted_ = 0;           // being made by the grower, not yet in workers_
  size_t peak_ = 0;
  uint64_t drains_ = 0;  // thread-cache drains asked (util::add_drain_waker)
  bool shutdown_ = false;
  std::thread grower_;  // last: it starts once every member above exists
};

}  // namespace fake_org::net
