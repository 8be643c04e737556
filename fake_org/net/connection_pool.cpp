#include "connection_pool.h"

#include <algorithm>
#include <system_error>

#include "util/thread_cache.h"

namespace fake_org::net {

// httplib makes the pool in its accept loop and accepts nothing until the
// constructor returns: starting the ready workers there held the first
// connection for ~6 ms (32 threads on 2 cores). The grower starts them
// beside the loop instead.
ConnectionPool::ConnectionPool(ConnectionPoolLimits limits)
    : limits_(limits), grower_([this] { grow(); }) {
  util::add_drain_waker(this, [this] {
    std::lock_guard<std::mutex> lock(mutex_);
    ++drains_;
    wake_all_idle();
  });
}

ConnectionPool::~ConnectionPool() {
  util::remove_drain_waker(this);
  shutdown();
}

size_t ConnectionPool::free_workers() const {
  const size_t ready = idle_ + starting_;
  return ready > jobs_.size() ? ready - jobs_.size() : 0;
}

size_t ConnectionPool::wanted() const {
  const size_t now = alive() + unlisted_;
  if (now >= limits_.ceiling) return 0;
  if (now < limits_.ready) return limits_.ready - now;
  const size_t free = free_workers();
  if (free >= limits_.spare) return 0;
  const size_t unserved = jobs_.size() > idle_ + starting_ ? jobs_.size() - idle_ - starting_ : 0;
  return std::min(std::max(limits_.spare - free + unserved, now / 2), limits_.ceiling - now);
}

void ConnectionPool::grow() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    short_.wait(lock, [this] { return shutdown_ || wanted() > 0 || !finished_.empty(); });
    if (shutdown_) return;
    if (!finished_.empty()) {
      // Workers that ended idle are joined here, not by the next connection.
      std::list<Thread> ended;
      for (Worker w : finished_) ended.splice(ended.end(), workers_, w);
      finished_.clear();
      lock.unlock();
      for (Thread& t : ended) t.thread.join();  // each has returned from work()
      lock.lock();
      continue;
    }
    const size_t n = wanted();
    starting_ += n;
    unlisted_ = n;
    lock.unlock();
    // Made outside the lock: a thread takes tens of microseconds to make,
    // and workers finishing a connection take the lock to wait for the next.
    std::list<Thread> fresh;
    const size_t made = make_workers(fresh, n);
    lock.lock();
    for (Thread& t : fresh) t.listed = true;
    workers_.splice(workers_.begin(), fresh);  // iterators stay valid
    unlisted_ = 0;
    starting_ -= n - made;
    peak_ = std::max(peak_, alive());
    // The system is out of threads: the connections waiting are served as
    // workers free up, and the grower tries again a while later.
    if (made < n)
      short_.wait_for(lock, std::chrono::milliseconds(100), [this] { return shutdown_; });
  }
}

size_t ConnectionPool::make_workers(std::list<Thread>& fresh, size_t n) {
  // Out of threads (std::system_error) or of memory (std::bad_alloc): what
  // was made so far serves, and the grower tries again later.
  for (size_t i = 0; i < n; ++i) {
    try {
      fresh.emplace_front();
    } catch (...) {
      return i;
    }
    const Worker w = fresh.begin();
    try {
      w->thread = std::thread([this, w] { work(w); });
    } catch (...) {
      fresh.pop_front();
      return i;
    }
  }
  return n;
}

void ConnectionPool::join_finished() {
  for (Worker w : finished_) {
    w->thread.join();  // it has returned from work(): joining does not wait
    workers_.erase(w);
  }
  finished_.clear();
}

void ConnectionPool::list_idle(Idle& w) {
  w.newer = nullptr;
  w.older = idle_head_;
  if (idle_head_ != nullptr) idle_head_->newer = &w;
  idle_head_ = &w;
  ++idle_;
}

void ConnectionPool::unlist_idle(Idle& w) {
  (w.newer != nullptr ? w.newer->older : idle_head_) = w.older;
  if (w.older != nullptr) w.older->newer = w.newer;
  w.newer = w.older = nullptr;
  --idle_;
}

void ConnectionPool::wake_all_idle() {
  for (Idle* w = idle_head_; w != nullptr; w = w->older) w->wake.notify_one();
}

void ConnectionPool::enqueue(std::function<void()> job) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (shutdown_) return;
  join_finished();
  if (Idle* w = idle_head_) {
    // Notified under the lock: once it sees its job the worker may run it
    // and end, and its Idle with it.
    unlist_idle(*w);
    w->job = std::move(job);
    w->wake.notify_one();
  } else {
    jobs_.push_back(std::move(job));
  }
  if (wanted() > 0) short_.notify_one();
}

void ConnectionPool::work(Worker self) {
  std::unique_lock<std::mutex> lock(mutex_);
  --starting_;
  uint64_t drains_seen = drains_;
  Idle idle;
  auto run = [&](std::function<void()> job) {
    lock.unlock();
    job();
    job = nullptr;  // the connection's captures end here, not under the lock
    lock.lock();
  };
  while (true) {
    if (!jobs_.empty()) {
      std::function<void()> job = std::move(jobs_.front());
      jobs_.pop_front();
      // A job handed by enqueue was counted there; one taken here leaves
      // fewer workers free only now.
      if (wanted() > 0) short_.notify_one();
      run(std::move(job));
      continue;
    }
    if (shutdown_) break;
    if (drains_ != drains_seen) {
      // Asked while idle: blocks this thread's cache kept would pin pages
      // of a reset org until its next connection (util/thread_cache.h).
      drains_seen = drains_;
      lock.unlock();
      util::give_back_thread_cache();
      lock.lock();
      continue;
    }
    list_idle(idle);
    auto roused = [&] { return idle.job != nullptr || shutdown_ || drains_ != drains_seen; };
    bool ending = false;
    // A worker kept waits on where it is in the list: the next job goes to
    // the one idle for the shortest time.
    while (!ending && !idle.wake.wait_for(lock, limits_.idle_exit, roused))
      // Only while enough others stay free (itself still counted): else the
      // grower would start it again.
      ending = self->listed && alive() > limits_.ready && free_workers() > limits_.spare;
    if (idle.job != nullptr) {  // enqueue has unlisted it
      run(std::move(idle.job));
      idle.job = nullptr;
      continue;
    }
    unlist_idle(idle);
    if (ending) break;
  }
  // At shutdown the grower has listed every thread it made: shutdown()
  // joins the grower before it waits for the workers.
  finished_.push_back(self);
  ended_.notify_all();
  short_.notify_one();  // the grower joins it
}

void ConnectionPool::shutdown() {
  std::list<Thread> all;
  std::deque<std::function<void()>> left;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (shutdown_ && workers_.empty() && jobs_.empty()) return;
    shutdown_ = true;
    wake_all_idle();
    short_.notify_all();
  }
  if (grower_.joinable()) grower_.join();  // it lists what it made, then stops
  // Workers finish their connection first (httplib closed the listening
  // socket; each connection ends within its keep-alive timeout).
  {
    std::unique_lock<std::mutex> lock(mutex_);
    ended_.wait(lock, [this] { return finished_.size() == workers_.size(); });
    finished_.clear();
    all.swap(workers_);
    // Jobs no worker took (none could be made, or the server stopped before
    // the first was): each holds an accepted socket only the job closes.
    left.swap(jobs_);
  }
  for (auto& t : all) t.thread.join();
  for (auto& job : left) job();
}

ConnectionPool::Stats ConnectionPool::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  // Workers being made count as workers (they may already serve) before
  // the grower lists them and records the peak: the peak is never below a
  // count reported earlier.
  const size_t workers = alive() + unlisted_;
  return Stats{workers, idle_, jobs_.size(), std::max(peak_, workers)};
}

}  // namespace fake_org::net
