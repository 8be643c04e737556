#pragma once
// Blocks of one size carved from slabs of their own (decision 229): stored
// records' blocks live here. A slab is mapped apart from malloc's heap and
// unmapped the moment its last block is released, so what a reset frees goes
// back to the system whole, where malloc kept the pages that the few blocks
// outliving a reset pinned among the freed records. A block costs its size
// rounded up to 8 bytes: no 8-byte header, no 16-byte rounding.
//
// Locking rule: each block size of each of 8 shards (a thread allocates from
// one) has its own mutex over its slabs and their free lists; a few emptied
// slabs kept for reuse have one more. No system
// call runs under either: slabs are mapped and unmapped outside them.
#include <cstddef>

namespace fake_org::util {

// Largest block the slabs hold; past it, slab_allocate answers nullptr.
inline constexpr size_t kSlabLargestBlock = 2048;
// Bytes of a slab (a mapping of its own, aligned to its size).
inline constexpr size_t kSlabBytes = 256 * 1024;

// A block of at least n bytes (n rounded up to 8), aligned to 8; nullptr
// when n is 0 or past kSlabLargestBlock, when no slab could be mapped, or
// when the environment has FAKE_ORG_SLABS=off: the caller then takes the
// block from operator new.
void* slab_allocate(size_t n) noexcept;

// Gives back a block slab_allocate returned (from any thread).
void slab_release(void* block) noexcept;

// The size slab_allocate(n) gives a block: n rounded up to 8.
constexpr size_t slab_block_size(size_t n) {
  return (n + 7) & ~size_t{7};
}

// Bytes of slabs mapped now, the kept empty ones included (memory figures).
size_t slab_mapped_bytes() noexcept;

}  // namespace fake_org::util
