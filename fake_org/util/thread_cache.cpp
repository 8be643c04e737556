#include "util/thread_cache.h"

#include <malloc.h>

#include <cstdlib>

namespace fake_org::util {

void* ThreadCache::allocate_slow(size_t n) noexcept {
  const size_t c = class_of(n);
  // Whole classes, so a block serves any size of its class when it returns.
  return std::malloc(c <= kClasses ? c * kGranule : n);
}

void ThreadCache::free_block(void* p) noexcept {
  std::free(p);
}

void ThreadCache::release(void* p) noexcept {
  if (p == nullptr) return;
  // malloc gave a block of class c at least c * 16 bytes, so its usable size
  // rounded down names a class it can serve again.
  keep(p, malloc_usable_size(p) / kGranule);
}

void ThreadCache::drain() noexcept {
  budget_ = 0;
  for (size_t c = 0; c <= kClasses; ++c) {
    while (Block* b = heads_[c]) {
      heads_[c] = b->next;
      std::free(b);
    }
    counts_[c] = 0;
  }
  kept_bytes_ = 0;
}

unsigned ThreadCache::kept(size_t n) const {
  const size_t c = class_of(n);
  return c > kClasses ? 0 : counts_[c];
}

namespace {

thread_local ThreadCache cache;

struct DrainAtThreadExit {
  ~DrainAtThreadExit() { cache.drain(); }
};

inline ThreadCache& cache_with_guard() noexcept {
  // Constructing the guard registers its destructor for this thread's exit.
  thread_local DrainAtThreadExit guard;
  (void)guard;
  return cache;
}

}  // namespace

ThreadCache& this_thread_cache() noexcept {
  return cache_with_guard();
}

void* thread_cached_allocate(size_t n) noexcept {
  return cache_with_guard().allocate(n);
}

void thread_cached_release(void* p, size_t n) noexcept {
  cache_with_guard().release(p, n);
}

void thread_cached_release(void* p) noexcept {
  cache_with_guard().release(p);
}

}  // namespace fake_org::util
