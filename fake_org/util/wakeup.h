#pragma once
// A thread's own signal to sleep on until another thread wakes it.
//
// Locking rule: `woken_` is guarded by `mu_`. wake() sets it under mu_ and
// notifies after releasing mu_, so the sleeper does not wake only to wait
// for a mutex its waker still holds; the waker keeps the Wakeup alive by
// shared ownership, so the sleeper may have moved on before the notify.
#include <condition_variable>
#include <memory>
#include <mutex>

namespace fake_org::util {

class Wakeup {
 public:
  // The calling thread's own (one per thread, for the thread's life).
  static const std::shared_ptr<Wakeup>& mine() {
    thread_local const std::shared_ptr<Wakeup> w = std::make_shared<Wakeup>();
    return w;
  }

  // Sleeps until wake() was called (returns at once if it already was),
  // then rearms for the next wait.
  void wait() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [this] { return woken_; });
    woken_ = false;
  }

  void wake() {
    {
      std::lock_guard lock(mu_);
      woken_ = true;
    }
    cv_.notify_one();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool woken_ = false;
};

}  // namespace fake_org::util
