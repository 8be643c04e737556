#pragma once
// The kernel's futex on a 32-bit atomic word: sleep while the word holds a
// value, wake sleepers. `bits` picks which sleepers a wake-up is for (a
// sleeper and a waker match when their bits share one).
//
// Locking rule: none; the word's owner decides what its values mean.
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstdint>

namespace fake_org::util {

// Sleeps until woken (or spuriously) unless the word no longer holds `value`.
inline void futex_wait(std::atomic<uint32_t>& word, uint32_t value,
                       uint32_t bits = FUTEX_BITSET_MATCH_ANY) {
  static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t), "a futex is 32 bits");
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAIT_BITSET_PRIVATE, value, nullptr,
          nullptr, bits);
}

// Wakes up to `count` of the word's sleepers whose bits match.
inline void futex_wake(std::atomic<uint32_t>& word, int count = INT_MAX,
                       uint32_t bits = FUTEX_BITSET_MATCH_ANY) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAKE_BITSET_PRIVATE, count, nullptr,
          nullptr, bits);
}

}  // namespace fake_org::util
