#include "util/thread_cache.h"

#include <malloc.h>
#include <pthread.h>
#include <sys/mman.h>

#include <array>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace fake_org::util {

void* ThreadCache::allocate_slow(size_t n) noexcept {
  if (malloc_calls_ < UINT32_MAX) ++malloc_calls_;
  const size_t c = class_of(n);
  // Whole classes, so a block serves any size of its class when it returns.
  return std::malloc(c <= kClasses ? c * kGranule : n);
}

void ThreadCache::free_block(void* p) noexcept {
  std::free(p);
}

void ThreadCache::release(void* p) noexcept {
  if (epoch_ != thread_cache_drain_epoch.load(std::memory_order_relaxed)) catch_up();
  if (p == nullptr) return;
  // malloc gave a block of class c at least c * 16 bytes, so its usable size
  // rounded down names a class it can serve again.
  keep(p, malloc_usable_size(p) / kGranule);
}

void ThreadCache::drain() noexcept {
  budget_ = 0;
  catch_up();
}

void ThreadCache::catch_up() noexcept {
  epoch_ = thread_cache_drain_epoch.load(std::memory_order_relaxed);
  if (kept_bytes_ > 0) released_ = true;
  for (size_t c = 0; c <= kClasses; ++c) {
    while (Block* b = heads_[c]) {
      heads_[c] = b->next;
      std::free(b);
    }
    counts_[c] = 0;
  }
  kept_bytes_ = 0;
}

size_t ThreadCache::kept_blocks() const noexcept {
  size_t n = 0;
  for (size_t c = 0; c <= kClasses; ++c) n += counts_[c];
  return n;
}

void ThreadCache::answer_drain_later() noexcept {
  epoch_ = thread_cache_drain_epoch.load(std::memory_order_relaxed);
}

void ThreadCache::take_all(void** out) noexcept {
  epoch_ = thread_cache_drain_epoch.load(std::memory_order_relaxed);
  for (size_t c = 0; c <= kClasses; ++c) {
    for (Block* b = heads_[c]; b != nullptr; b = b->next) *out++ = b;
    heads_[c] = nullptr;
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

namespace {

// Locking rule: wakers_mu guards wakers; a waker runs under it.
std::mutex wakers_mu;
std::vector<std::pair<const void*, std::function<void()>>>& wakers() {
  static auto* list = new std::vector<std::pair<const void*, std::function<void()>>>();
  return *list;
}
// The drain this thread last gave back for (give_back_thread_cache).
thread_local uint32_t given_back_for = 0;

struct GiveBackHooks {
  std::array<void (*)(), kGiveBackHooks> fns{};
  size_t count = 0;
};
thread_local GiveBackHooks give_back_hooks;

void run_give_back_hooks() noexcept {
  for (size_t i = 0; i < give_back_hooks.count; ++i) give_back_hooks.fns[i]();
}

// A burst's deep calls touched pages of this thread's stack that stay
// resident until the thread ends: below where it runs now (less a margin
// for the calls it makes from here), none is in use. The stack's bounds are
// asked once: pthread_getattr_np mallocs and frees.
void give_back_unused_stack() noexcept {
  thread_local uintptr_t low = 0;
  constexpr uintptr_t kPage = 4096;
  if (low == 0) {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
    void* base = nullptr;
    size_t size = 0;
    const bool known = pthread_attr_getstack(&attr, &base, &size) == 0;
    pthread_attr_destroy(&attr);
    if (!known) return;
    low = (reinterpret_cast<uintptr_t>(base) + kPage - 1) & ~(kPage - 1);
  }
  constexpr uintptr_t kMargin = 8 * 1024;
  const char here = 0;
  const auto sp = reinterpret_cast<uintptr_t>(&here);
  if (sp < low + kMargin + kPage) return;
  const uintptr_t end = (sp - kMargin) & ~(kPage - 1);
  madvise(reinterpret_cast<void*>(low), end - low, MADV_DONTNEED);
}

// Frees blocks[0, n) on a thread of its own, once `add` has added to them
// what this thread's tcache keeps (after the thread is made: making it
// mallocs and frees here).
template <typename Add>
void free_on_a_thread_that_ends(void** blocks, size_t& n, Add&& add) noexcept {
  std::mutex mu;
  std::condition_variable cv;
  bool added = false;
  auto free_all = [&] {
    {
      std::unique_lock lock(mu);
      cv.wait(lock, [&] { return added; });
    }
    for (size_t i = 0; i < n; ++i) std::free(blocks[i]);
  };
  std::thread freer;
  try {
    freer = std::thread(free_all);
  } catch (...) {  // no thread to be had: freed here, into this tcache
  }
  add();
  {
    std::lock_guard lock(mu);
    added = true;
  }
  cv.notify_one();
  if (freer.joinable())
    freer.join();
  else
    free_all();
}

// The last drain asked to be thorough (drain_thread_caches).
std::atomic<uint32_t> thorough_epoch{0};

// Freed on this thread, a give-back's blocks would fill glibc's own
// per-thread cache (tcache: up to 7 chunks of each of 64 sizes, 24 to 1,032
// bytes asked), which nothing but the thread's end empties: its chunks,
// scattered over the heap, pinned about 3 MB of pages a reset freed
// (decision 95). For a thorough drain, a thread made for it frees them and
// ends, its tcache going back to the arena as it does, and this thread's
// tcache is emptied the same way: what malloc hands out first is what that
// cache kept. That costs a thread and some 240 KB of chunks taken and given
// back on every thread that served (a reset took 8 ms instead of 1 when
// every drain paid it). A thread that called neither malloc nor free since
// its last give-back is left alone. The thread's give-back hooks run first,
// their blocks kept with the rest.
bool give_back_caches(ThreadCache& cache) noexcept {
  cache.answer_drain_later();
  run_give_back_hooks();
  const uint32_t calls = cache.take_malloc_calls();
  if (calls == 0 && cache.kept_bytes() == 0) return false;
  give_back_unused_stack();
  if (thorough_epoch.load(std::memory_order_relaxed) !=
      thread_cache_drain_epoch.load(std::memory_order_relaxed)) {
    cache.catch_up();
    return cache.take_released();
  }
  const size_t kept = cache.kept_blocks();
  constexpr size_t kTcacheSizes = 64;
  constexpr size_t kTcacheDepth = 7;
  auto** blocks =
      static_cast<void**>(std::malloc((kept + kTcacheSizes * kTcacheDepth) * sizeof(void*)));
  if (blocks == nullptr) {
    cache.catch_up();
    return true;
  }
  cache.take_all(blocks);
  size_t n = kept;
  free_on_a_thread_that_ends(blocks, n, [&] {
    if constexpr (kEmptiesGlibcTcache)
      for (size_t s = 0; s < kTcacheSizes; ++s)
        for (size_t k = 0; k < kTcacheDepth; ++k)
          if (void* p = std::malloc(24 + 16 * s)) blocks[n++] = p;
  });
  std::free(blocks);
  return true;
}

}  // namespace

void on_thread_give_back(void (*fn)()) noexcept {
  GiveBackHooks& h = give_back_hooks;
  for (size_t i = 0; i < h.count; ++i)
    if (h.fns[i] == fn) return;
  if (h.count < h.fns.size()) h.fns[h.count++] = fn;
}

void drain_thread_caches(bool thorough) noexcept {
  const uint32_t epoch = thread_cache_drain_epoch.fetch_add(1, std::memory_order_relaxed) + 1;
  if (thorough) thorough_epoch.store(epoch, std::memory_order_relaxed);
  give_back_caches(cache_with_guard());
  given_back_for = epoch;
  std::lock_guard lock(wakers_mu);
  for (auto& [owner, wake] : wakers()) wake();
}

void add_drain_waker(const void* owner, std::function<void()> wake) {
  std::lock_guard lock(wakers_mu);
  wakers().emplace_back(owner, std::move(wake));
}

void remove_drain_waker(const void* owner) {
  std::lock_guard lock(wakers_mu);
  auto& list = wakers();
  for (auto it = list.begin(); it != list.end();)
    it = it->first == owner ? list.erase(it) : std::next(it);
}

void give_back_thread_cache() noexcept {
  const uint32_t epoch = thread_cache_drain_epoch.load(std::memory_order_relaxed);
  if (given_back_for == epoch) return;
  given_back_for = epoch;
  ThreadCache& cache = cache_with_guard();
  const bool freed = give_back_caches(cache);
  if (cache.take_released() || freed) malloc_trim(0);
}

}  // namespace fake_org::util
