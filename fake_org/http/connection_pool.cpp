#include "connection_pool.h"

namespace fake_org::http {

// httplib makes the pool in its accept loop and accepts nothing until the
// constructor returns: starting the ready workers there held the first
// connection for ~6 ms (32 threads on 2 cores). They start beside the loop
// instead, and enqueue starts one itself when none is idle.
ConnectionPool::ConnectionPool(ConnectionPoolLimits limits)
    : limits_(limits), filler_([this] { fill(); }) {}

void ConnectionPool::fill() {
  while (true) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (shutdown_ || workers_.size() - finished_.size() >= limits_.ready) return;
    start_worker();
  }
}

ConnectionPool::~ConnectionPool() {
  shutdown();
}

void ConnectionPool::start_worker() {
  workers_.emplace_front();
  Worker self = workers_.begin();
  *self = std::thread([this, self] { work(self); });
  peak_ = std::max(peak_, workers_.size() - finished_.size());
}

void ConnectionPool::join_finished() {
  for (Worker w : finished_) {
    w->join();  // it has returned from work(): joining does not wait
    workers_.erase(w);
  }
  finished_.clear();
}

void ConnectionPool::enqueue(std::function<void()> job) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (shutdown_) return;
  join_finished();
  jobs_.push_back(std::move(job));
  // Every idle worker may already be claimed by a job queued before this one.
  if (idle_ < jobs_.size() && workers_.size() < limits_.ceiling) start_worker();
  wake_.notify_one();
}

void ConnectionPool::work(Worker self) {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    ++idle_;
    const bool woken =
        wake_.wait_for(lock, limits_.idle_exit, [this] { return shutdown_ || !jobs_.empty(); });
    --idle_;
    if (!jobs_.empty()) {
      std::function<void()> job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      job();
      job = nullptr;  // the connection's captures end here, not under the lock
      lock.lock();
      continue;
    }
    if (shutdown_) break;
    const size_t alive = workers_.size() - finished_.size();
    if (!woken && alive > limits_.ready) break;
  }
  finished_.push_back(self);
  ended_.notify_all();
}

void ConnectionPool::shutdown() {
  std::list<std::thread> all;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (shutdown_ && workers_.empty()) return;
    shutdown_ = true;
    wake_.notify_all();
  }
  if (filler_.joinable()) filler_.join();  // it stops at its next worker
  // Workers finish their connection first (httplib closed the listening
  // socket; each connection ends within its keep-alive timeout).
  {
    std::unique_lock<std::mutex> lock(mutex_);
    ended_.wait(lock, [this] { return finished_.size() == workers_.size(); });
    finished_.clear();
    all.swap(workers_);
  }
  for (auto& t : all) t.join();
}

ConnectionPool::Stats ConnectionPool::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return Stats{workers_.size() - finished_.size(), idle_, jobs_.size(), peak_};
}

}  // namespace fake_org::http
