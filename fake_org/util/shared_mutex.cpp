#include "shared_mutex.h"

#include "futex.h"

namespace fake_org::util {

namespace {

// About 5 µs of `pause` on this machine, the length of a commit's hold: a
// wait longer than that is cheaper asleep.
constexpr int kSpins = 100;

void cpu_pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace

void WriterFirstSharedMutex::lock() {
  int spins = 0;
  // First turn new readers away (one writer at a time gets the bit) ...
  for (;;) {
    uint32_t s = state_.load(std::memory_order_relaxed);
    if ((s & kWriter) == 0) {
      if (state_.compare_exchange_weak(s, s | kWriter, std::memory_order_acquire,
                                       std::memory_order_relaxed))
        break;
      continue;
    }
    pause_or_sleep(spins, s, kWriterWaiter);
  }
  // ... then wait for the readers already in.
  spins = 0;
  for (;;) {
    const uint32_t s = state_.load(std::memory_order_acquire);
    if ((s & kReaders) == 0) return;
    pause_or_sleep(spins, s, kDrainWaiter);
  }
}

void WriterFirstSharedMutex::unlock() {
  const uint32_t s = state_.fetch_and(~(kWriter | kSleepers), std::memory_order_release);
  if (s & kSleepers) wake(kWriterWaiter);
}

void WriterFirstSharedMutex::lock_shared_contended() {
  int spins = 0;
  for (;;) {
    uint32_t s = state_.load(std::memory_order_relaxed);
    if ((s & kWriter) == 0) {
      if (state_.compare_exchange_weak(s, s + 1, std::memory_order_acquire,
                                       std::memory_order_relaxed))
        return;
      continue;
    }
    pause_or_sleep(spins, s, kWriterWaiter);
  }
}

void WriterFirstSharedMutex::pause_or_sleep(int& spins, uint32_t s, uint32_t who) {
  if (++spins < kSpins) {
    cpu_pause();
    return;
  }
  // Marked first, so whoever changes the word next knows to wake a sleeper;
  // if the word changed meanwhile, the caller looks at it again instead.
  if ((s & kSleepers) == 0) {
    if (!state_.compare_exchange_strong(s, s | kSleepers, std::memory_order_relaxed)) return;
    s |= kSleepers;
  }
  // Returns at once if the word is no longer `s`.
  futex_wait(state_, s, who);
  spins = 0;
}

void WriterFirstSharedMutex::wake(uint32_t who) {
  futex_wake(state_, INT_MAX, who);
}

}  // namespace fake_org::util
