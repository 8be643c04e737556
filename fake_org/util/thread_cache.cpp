#include "util/thread_cache.h"

#include <malloc.h>

#include <cstdlib>

namespace fake_org::util {
namespace {

size_t class_of(size_t n) {
  return n == 0 ? 1 : (n + ThreadCache::kGranule - 1) / ThreadCache::kGranule;
}

}  // namespace

void* ThreadCache::allocate(size_t n) noexcept {
  const size_t c = class_of(n);
  if (c > kClasses) return std::malloc(n);
  if (Block* b = heads_[c]) {
    heads_[c] = b->next;
    --counts_[c];
    kept_bytes_ -= c * kGranule;
    return b;
  }
  return std::malloc(c * kGranule);
}

void ThreadCache::release(void* p, size_t n) noexcept {
  if (p == nullptr) return;
  keep(p, class_of(n));
}

void ThreadCache::release(void* p) noexcept {
  if (p == nullptr) return;
  // malloc gave a block of class c at least c * 16 bytes, so its usable size
  // rounded down names a class it can serve again.
  keep(p, malloc_usable_size(p) / kGranule);
}

void ThreadCache::keep(void* p, size_t c) noexcept {
  if (drained_ || c == 0 || c > kClasses || counts_[c] >= kDepth ||
      kept_bytes_ + c * kGranule > kBudget) {
    std::free(p);
    return;
  }
  Block* b = static_cast<Block*>(p);
  b->next = heads_[c];
  heads_[c] = b;
  ++counts_[c];
  kept_bytes_ += c * kGranule;
}

void ThreadCache::drain() noexcept {
  drained_ = true;
  for (size_t c = 1; c <= kClasses; ++c) {
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

}  // namespace

ThreadCache& this_thread_cache() noexcept {
  // Constructing the guard registers its destructor for this thread's exit.
  thread_local DrainAtThreadExit guard;
  (void)guard;
  return cache;
}

}  // namespace fake_org::util
