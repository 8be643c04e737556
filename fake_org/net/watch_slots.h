#pragma once
// The keep-alive watch's table of connections: a slot per connection from
// its first park until it ends, so its epoll entry, added once with the
// slot's number and generation as its tag, never has to change (decision
// 135). A slot's state says who holds the connection: the watch (parked),
// a thread serving it (away), or a thread serving it that an event has
// reached meanwhile (away and woken: its next request may be there).
//
// Slots live in chunks that never move, so a worker reads a slot by the
// number in its event without a lock. The table is shared with every
// connection holding a slot: a connection that ends after its watch
// (a test's, or one a pool thread still serves) releases its slot into a
// table that is still there.
//
// Locking rule: mutex_ guards the free list, the count of slots in use and
// the making of chunks. A slot's `word` is atomic and changes only by
// compare-and-swap between the states above; `connection` and `parked_at`
// belong to whoever moved the slot to its current state (the parker before
// its swap to parked, the taker after its swap to away).
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace fake_org::net {

struct Connection;

class WatchSlots {
 public:
  enum State : uint32_t { kFree = 0, kParked = 1, kAway = 2, kAwayWoken = 3 };
  struct alignas(64) Slot {
    // The generation in the high half, the state in the low: an event's
    // tag carries the generation, and a slot released since has another.
    std::atomic<uint64_t> word{0};
    Connection* connection = nullptr;  // owned by the slot while parked
    // Steady clock, nanoseconds. Atomic only because expire() reads it of
    // a slot another thread may park again meanwhile.
    std::atomic<int64_t> parked_at{0};
  };
  static uint64_t word(uint32_t generation, State s) {
    return (static_cast<uint64_t>(generation) << 32) | s;
  }
  // Of a slot's word, or of an epoll tag: both carry the generation high.
  static uint32_t generation_of(uint64_t w) { return static_cast<uint32_t>(w >> 32); }
  static uint32_t slot_of_tag(uint64_t tag) { return static_cast<uint32_t>(tag); }
  // The epoll tag of a slot the caller holds: its generation and number.
  uint64_t tag_of(uint32_t slot) const {
    return (at(slot)->word.load(std::memory_order_relaxed) & ~uint64_t{0xffffffff}) | slot;
  }
  static State state_of(uint64_t w) { return static_cast<State>(w & 3); }

  WatchSlots() = default;
  ~WatchSlots();
  WatchSlots(const WatchSlots&) = delete;
  WatchSlots& operator=(const WatchSlots&) = delete;

  // A free slot, now away (held by the caller), or UINT32_MAX when the
  // table is full or out of memory.
  uint32_t claim();
  void release(uint32_t slot);  // away -> free, the generation moved on
  // The slot numbered `slot`, or null beyond what was ever claimed.
  Slot* at(uint32_t slot) const {
    if (slot >= kChunk * kMaxChunks) return nullptr;
    Slot* chunk = chunks_[slot / kChunk].load(std::memory_order_acquire);
    return chunk ? &chunk[slot % kChunk] : nullptr;
  }
  uint32_t high_water() const;  // slots below it may be in use
  size_t in_use() const;

 private:
  static constexpr uint32_t kChunk = 1024;
  static constexpr uint32_t kMaxChunks = 4096;  // four million connections
  std::array<std::atomic<Slot*>, kMaxChunks> chunks_{};
  mutable std::mutex mutex_;
  std::vector<uint32_t> free_;
  uint32_t high_water_ = 0;
  size_t in_use_ = 0;
};

}  // namespace fake_org::net
