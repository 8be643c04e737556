#pragma once
// A reader-writer lock whose waiting writer goes before readers that come
// after it (glibc's PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP), with
// std::shared_mutex's interface. std::shared_mutex lets readers in while a
// writer waits, so under steady reads a writer waits for a moment when no
// reader holds the lock at all.
//
// Locking rule: this is the lock; its state is pthread's.
#include <pthread.h>

#include <system_error>

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

}  // namespace fake_org::util
