#include "watch_slots.h"

#include <algorithm>
#include <new>

namespace fake_org::net {

WatchSlots::~WatchSlots() {
  for (auto& chunk : chunks_) delete[] chunk.load(std::memory_order_relaxed);
}

uint32_t WatchSlots::claim() {
  std::lock_guard<std::mutex> lock(mutex_);
  uint32_t slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
  } else {
    if (high_water_ == kChunk * kMaxChunks) return UINT32_MAX;
    // Room for every slot, so release(), run by destructors, never
    // allocates; grown by doubling, as push_back would.
    if (free_.capacity() <= high_water_) {
      try {
        free_.reserve(std::max<size_t>(64, 2 * free_.capacity()));
      } catch (const std::bad_alloc&) {
        return UINT32_MAX;
      }
    }
    slot = high_water_;
    auto& chunk = chunks_[slot / kChunk];
    if (chunk.load(std::memory_order_relaxed) == nullptr) {
      Slot* made = new (std::nothrow) Slot[kChunk];
      if (made == nullptr) return UINT32_MAX;
      chunk.store(made, std::memory_order_release);
    }
    ++high_water_;
  }
  Slot& s = *at(slot);
  const uint32_t generation = generation_of(s.word.load(std::memory_order_relaxed));
  s.word.store(word(generation, kAway), std::memory_order_relaxed);
  ++in_use_;
  return slot;
}

void WatchSlots::release(uint32_t slot) {
  Slot& s = *at(slot);
  std::lock_guard<std::mutex> lock(mutex_);
  const uint32_t generation = generation_of(s.word.load(std::memory_order_relaxed));
  // Release order: an event read before this fails its swap and drops.
  s.word.store(word(generation + 1, kFree), std::memory_order_release);
  s.connection = nullptr;
  free_.push_back(slot);
  --in_use_;
}

uint32_t WatchSlots::high_water() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return high_water_;
}

size_t WatchSlots::in_use() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return in_use_;
}

}  // namespace fake_org::net
