#pragma once
// A reader-writer lock whose waiting writer goes before readers that come
// after it (glibc's PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP), with
// std::shared_mutex's interface. std::shared_mutex lets readers in while a
// writer waits, so under steady reads a writer waits for a moment when no
// reader holds the lock at all.
//
// PatientWriterSharedMutex adds a writer that first waits beside readers for
// a bounded time, for writers whose wait need not keep readers out.
//
// Locking rule: these are the locks; their state is pthread's.
#include <pthread.h>

#include <chrono>
#include <shared_mutex>
#include <system_error>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FAKE_ORG_UNDER_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define FAKE_ORG_UNDER_TSAN 1
#endif

namespace fake_org::util {

class WriterFirstSharedMutex {
 public:
  WriterFirstSharedMutex() {
    pthread_rwlockattr_t attr;
    pthread_rwlockattr_init(&attr);
    pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    const int r = pthread_rwlock_init(&rw_, &attr);
    pthread_rwlockattr_destroy(&attr);
    if (r != 0) throw std::system_error(r, std::generic_category(), "pthread_rwlock_init");
  }
  ~WriterFirstSharedMutex() { pthread_rwlock_destroy(&rw_); }
  WriterFirstSharedMutex(const WriterFirstSharedMutex&) = delete;
  WriterFirstSharedMutex& operator=(const WriterFirstSharedMutex&) = delete;

  void lock() { check(pthread_rwlock_wrlock(&rw_)); }
  bool try_lock() { return pthread_rwlock_trywrlock(&rw_) == 0; }
  void unlock() { pthread_rwlock_unlock(&rw_); }
  void lock_shared() { check(pthread_rwlock_rdlock(&rw_)); }
  bool try_lock_shared() { return pthread_rwlock_tryrdlock(&rw_) == 0; }
  void unlock_shared() { pthread_rwlock_unlock(&rw_); }

 private:
  static void check(int r) {
    if (r != 0) throw std::system_error(r, std::generic_category(), "pthread_rwlock");
  }
  pthread_rwlock_t rw_;
};

// A reader-writer lock with two kinds of writer. lock() is writer-first, as
// WriterFirstSharedMutex's. lock_patiently(patience) first waits while new
// readers still come in, and only after `patience` turns them away: a writer
// that commits a batch for many others waits for readers to drain of their
// own accord, and no reader sleeps behind it, yet under steady reads it
// waits no longer than the patience and one read (decision 130).
class PatientWriterSharedMutex {
 public:
  void lock() {
    gate_.lock();  // readers not yet past the gate now wait there
    try {
      rw_.lock();  // for the readers past it
    } catch (...) {
      gate_.unlock();
      throw;
    }
    gate_.unlock();
  }
  void lock_patiently(std::chrono::microseconds patience) {
    if (!rw_.try_lock_until(Clock::now() + patience)) lock();
  }
  bool try_lock() { return rw_.try_lock(); }
  void unlock() { rw_.unlock(); }
  void lock_shared() {
    gate_.lock_shared();
    gate_.unlock_shared();
    rw_.lock_shared();
  }
  bool try_lock_shared() {
    if (!gate_.try_lock_shared()) return false;
    gate_.unlock_shared();
    return rw_.try_lock_shared();
  }
  void unlock_shared() { rw_.unlock_shared(); }

 private:
  // The steady clock's wait is pthread_rwlock_clockwrlock, which
  // ThreadSanitizer does not intercept (it would see the writer hold
  // nothing); under it the wait is timedwrlock, by the system clock, where a
  // clock step could stretch or cut one wait's patience.
#ifdef FAKE_ORG_UNDER_TSAN
  using Clock = std::chrono::system_clock;
#else
  using Clock = std::chrono::steady_clock;
#endif
  WriterFirstSharedMutex gate_;  // exclusive while a writer turns new readers away
  std::shared_timed_mutex rw_;   // lets readers in while a writer waits (glibc's default)
};

}  // namespace fake_org::util
