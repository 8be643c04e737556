#pragma once
// A reader-writer lock for short holds, with std::shared_mutex's interface.
// A thread that finds it taken spins a little (a record store's reads and
// commits take microseconds, less than a sleep and a wake-up cost) and then
// sleeps on a futex. A writer goes before readers that come after it: once a
// writer asks, new readers wait, so under steady reads a writer waits only
// for the readers already in (decision 122).
//
// Not reentrant: a reader asking again while a writer waits would wait for
// that writer, which waits for the reader.
//
// Locking rule: this is the lock; its whole state is one atomic word.
#include <atomic>
#include <cstdint>

namespace fake_org::util {

class WriterFirstSharedMutex {
 public:
  WriterFirstSharedMutex() = default;
  WriterFirstSharedMutex(const WriterFirstSharedMutex&) = delete;
  WriterFirstSharedMutex& operator=(const WriterFirstSharedMutex&) = delete;

  void lock();
  bool try_lock() {
    uint32_t s = state_.load(std::memory_order_relaxed);
    return (s & (kReaders | kWriter)) == 0 &&
           state_.compare_exchange_strong(s, s | kWriter, std::memory_order_acquire);
  }
  void unlock();
  void lock_shared() {
    uint32_t s = state_.load(std::memory_order_relaxed);
    if ((s & kWriter) == 0 && state_.compare_exchange_weak(s, s + 1, std::memory_order_acquire,
                                                           std::memory_order_relaxed))
      return;
    lock_shared_contended();
  }
  bool try_lock_shared() {
    uint32_t s = state_.load(std::memory_order_relaxed);
    while ((s & kWriter) == 0)
      if (state_.compare_exchange_weak(s, s + 1, std::memory_order_acquire,
                                       std::memory_order_relaxed))
        return true;
    return false;
  }
  void unlock_shared() {
    const uint32_t s = state_.fetch_sub(1, std::memory_order_release);
    // The last reader out lets in a writer that fell asleep waiting for it.
    if ((s & kReaders) == 1 && (s & kWriter) && (s & kSleepers)) wake(kDrainWaiter);
  }

 private:
  static constexpr uint32_t kReaders = 0x3FFFFFFF;   // how many hold it shared
  static constexpr uint32_t kWriter = 0x40000000;    // a writer holds it or waits for readers
  static constexpr uint32_t kSleepers = 0x80000000;  // some thread sleeps on the word
  // Who a wake-up is for (futex bit sets): threads waiting for the writer
  // to leave, or the one writer waiting for the readers to leave.
  static constexpr uint32_t kWriterWaiter = 1;
  static constexpr uint32_t kDrainWaiter = 2;

  void lock_shared_contended();
  // Spins while `spins` lasts, else sleeps until the word changes from `s`
  // (and a wake-up for `who` comes).
  void pause_or_sleep(int& spins, uint32_t s, uint32_t who);
  void wake(uint32_t who);

  std::atomic<uint32_t> state_{0};
};

}  // namespace fake_org::util
