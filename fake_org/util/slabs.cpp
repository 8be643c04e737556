#include "slabs.h"

#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>
#include <string_view>

#if defined(__SANITIZE_ADDRESS__)
#define FAKE_ORG_SLABS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FAKE_ORG_SLABS_ASAN 1
#endif
#endif
#ifdef FAKE_ORG_SLABS_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace fake_org::util {

namespace {

// Blocks not handed out are poisoned under AddressSanitizer, so a read past
// a record's block is caught here as it is in malloc's heap.
#ifdef FAKE_ORG_SLABS_ASAN
void poison(const void* p, size_t n) {
  ASAN_POISON_MEMORY_REGION(p, n);
}
void unpoison(const void* p, size_t n) {
  ASAN_UNPOISON_MEMORY_REGION(p, n);
}
#else
void poison(const void*, size_t) {}
void unpoison(const void*, size_t) {}
#endif

// Size class c holds blocks of 8c bytes.
constexpr size_t kClasses = kSlabLargestBlock / 8 + 1;
// Emptied slabs kept for the next blocks of any size: a size whose one
// record is made and dropped in turn does not map and unmap each time.
constexpr size_t kKeptEmpty = 2;
// Threads take blocks from their own shard's slabs: two threads writing
// records into one slab's neighbouring blocks fought over its cache lines
// (a restore's readers spent a fifth of their time there).
constexpr size_t kShards = 8;

// At the start of each slab; its blocks follow.
struct Slab {
  Slab* prev = nullptr;  // in its size's list of slabs with room
  Slab* next = nullptr;
  void* free = nullptr;   // released blocks, each holding the next
  char* fresh = nullptr;  // the first block never handed out
  char* end = nullptr;
  uint32_t live = 0;   // blocks handed out
  uint32_t block = 0;  // bytes of each block
  uint32_t shard = 0;
  bool listed = false;
};
constexpr size_t kHeader = (sizeof(Slab) + 15) & ~size_t{15};

struct Size {
  std::mutex mu;
  Slab* room = nullptr;  // slabs with a free or fresh block
};

struct Shard {
  Size sizes[kClasses];
};

struct Slabs {
  Shard shards[kShards];
  std::mutex kept_mu;
  void* kept[kKeptEmpty] = {};
  size_t kept_count = 0;
  std::atomic<size_t> mapped{0};
};

Slabs& slabs() {
  static Slabs* all = new Slabs;  // never destroyed: records outlive statics
  return *all;
}

// FAKE_ORG_SLABS=off leaves every block to operator new: for comparing the
// two, and for tools that see only malloc's heap (valgrind's memcheck).
bool slabs_on() {
  static const bool on = [] {
    const char* v = std::getenv("FAKE_ORG_SLABS");
    return !(v && std::string_view(v) == "off");
  }();
  return on;
}

// This thread's shard, dealt in turn as threads first ask.
size_t my_shard() {
  static std::atomic<size_t> next{0};
  thread_local const size_t shard = next.fetch_add(1, std::memory_order_relaxed) % kShards;
  return shard;
}

Slab* slab_of(void* block) {
  return reinterpret_cast<Slab*>(reinterpret_cast<uintptr_t>(block) & ~(kSlabBytes - 1));
}

// kSlabBytes mapped at a multiple of kSlabBytes (so a block finds its slab
// by its address), or nullptr.
void* map_aligned() {
  void* p =
      mmap(nullptr, 2 * kSlabBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  const auto at = reinterpret_cast<uintptr_t>(p);
  const uintptr_t aligned = (at + kSlabBytes - 1) & ~(kSlabBytes - 1);
  if (aligned > at) munmap(p, aligned - at);
  const uintptr_t tail = aligned + kSlabBytes;
  if (at + 2 * kSlabBytes > tail) munmap(reinterpret_cast<void*>(tail), at + 2 * kSlabBytes - tail);
  return reinterpret_cast<void*>(aligned);
}

// An empty slab of `shard` for blocks of `block` bytes: a kept one, else a
// new mapping.
Slab* new_slab(uint32_t block, uint32_t shard) {
  Slabs& all = slabs();
  void* at = nullptr;
  {
    std::lock_guard lock(all.kept_mu);
    if (all.kept_count > 0) at = all.kept[--all.kept_count];
  }
  if (!at) {
    at = map_aligned();
    if (!at) return nullptr;
    all.mapped.fetch_add(kSlabBytes, std::memory_order_relaxed);
    poison(at, kSlabBytes);
  }
  unpoison(at, kHeader);
  Slab* s = new (at) Slab;
  s->block = block;
  s->shard = shard;
  s->fresh = static_cast<char*>(at) + kHeader;
  s->end = static_cast<char*>(at) + kSlabBytes;
  return s;
}

// Keeps an emptied slab for reuse, or unmaps it.
void drop_slab(Slab* s) {
  Slabs& all = slabs();
  poison(s, kSlabBytes);
  {
    std::lock_guard lock(all.kept_mu);
    if (all.kept_count < kKeptEmpty) {
      all.kept[all.kept_count++] = s;
      return;
    }
  }
  unpoison(s, kSlabBytes);  // the next mapping at this address starts clean
  munmap(s, kSlabBytes);
  all.mapped.fetch_sub(kSlabBytes, std::memory_order_relaxed);
}

void link(Size& z, Slab* s) {
  s->prev = nullptr;
  s->next = z.room;
  if (z.room) z.room->prev = s;
  z.room = s;
  s->listed = true;
}

void unlink(Size& z, Slab* s) {
  (s->prev ? s->prev->next : z.room) = s->next;
  if (s->next) s->next->prev = s->prev;
  s->prev = s->next = nullptr;
  s->listed = false;
}

// A block of the first slab with room, or nullptr when none has. Under z.mu.
void* take(Size& z) {
  Slab* s = z.room;
  if (!s) return nullptr;
  void* p;
  if (s->free) {
    p = s->free;
    unpoison(p, s->block);
    s->free = *static_cast<void**>(p);
  } else {
    p = s->fresh;
    unpoison(p, s->block);
    s->fresh += s->block;
  }
  ++s->live;
  if (!s->free && s->fresh + s->block > s->end) unlink(z, s);
  return p;
}

}  // namespace

void* slab_allocate(size_t n) noexcept {
  if (n == 0 || n > kSlabLargestBlock || !slabs_on()) return nullptr;
  const size_t size = slab_block_size(n);
  const size_t shard = my_shard();
  Size& z = slabs().shards[shard].sizes[size / 8];
  {
    std::lock_guard lock(z.mu);
    if (void* p = take(z)) return p;
  }
  // Outside the lock: a system call.
  Slab* s = new_slab(static_cast<uint32_t>(size), static_cast<uint32_t>(shard));
  if (!s) return nullptr;
  std::lock_guard lock(z.mu);
  link(z, s);
  return take(z);
}

void slab_release(void* block) noexcept {
  if (!block) return;
  Slab* s = slab_of(block);
  // The block's size and shard are fixed while the slab holds a live block,
  // as this one.
  Size& z = slabs().shards[s->shard].sizes[s->block / 8];
  bool emptied = false;
  {
    std::lock_guard lock(z.mu);
    *static_cast<void**>(block) = s->free;
    poison(block, s->block);
    s->free = block;
    if (--s->live == 0) {
      if (s->listed) unlink(z, s);
      emptied = true;
    } else if (!s->listed) {
      link(z, s);
    }
  }
  if (emptied) drop_slab(s);  // outside the lock: may unmap
}

size_t slab_mapped_bytes() noexcept {
  return slabs().mapped.load(std::memory_order_relaxed);
}

}  // namespace fake_org::util
