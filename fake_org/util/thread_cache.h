#pragma once
// A per-thread cache of freed small blocks in front of malloc, for the
// executables' operator new (app/main_operator_new.cpp).
//
// Why: a POST makes about 500 small allocations, and a worker thread per
// connection shares glibc's arenas with 15 others; past glibc's per-thread
// cache of 7 blocks a size, malloc takes the arena's lock and consolidates
// fast bins on the next large request. Keeping a few hundred freed blocks a
// size per thread made POST /PaymentIntent 45 % faster (decision 121).
//
// Locking rule: none. Each thread owns its cache (thread_local); a block
// freed on another thread than the one that allocated it simply joins the
// freeing thread's cache, which any malloc block may. Another thread asks a
// cache to empty itself only through thread_cache_drain_epoch, which the owner reads.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace fake_org::util {

// Raised by drain_thread_caches(): a cache that sees a new value gives its
// blocks back to malloc before its next allocation or release.
inline std::atomic<uint32_t> thread_cache_drain_epoch{0};

class ThreadCache {
 public:
  // Sizes are rounded up to 16 bytes; blocks up to kLargest bytes (4 KB: a
  // response body or a JSON text, not only tree nodes) are kept.
  static constexpr size_t kGranule = 16;
  static constexpr size_t kClasses = 256;
  static constexpr size_t kLargest = kGranule * kClasses;
  // At most this many bytes of free blocks per thread, all sizes together.
  static constexpr size_t kBudget = 256 * 1024;
  // At most this many free blocks of one size.
  static constexpr unsigned kDepth = 1024;

  // A block of at least n bytes, aligned for any scalar type; nullptr when
  // malloc has none.
  void* allocate(size_t n) noexcept {
    if (__builtin_expect(epoch_ != thread_cache_drain_epoch.load(std::memory_order_relaxed), 0))
      catch_up();
    const size_t c = class_of(n);
    if (c <= kClasses)
      if (Block* b = heads_[c]) {
        heads_[c] = b->next;
        // The next block of this size is likely cold (its thread last ran
        // many requests ago): start loading it now, not at the next call.
        __builtin_prefetch(b->next);
        --counts_[c];
        kept_bytes_ -= c * kGranule;
        return b;
      }
    return allocate_slow(n);
  }
  // Returns a block from allocate(), of the size asked then (any thread's).
  void release(void* p, size_t n) noexcept {
    if (__builtin_expect(epoch_ != thread_cache_drain_epoch.load(std::memory_order_relaxed), 0))
      catch_up();
    if (p != nullptr) keep(p, class_of(n));
  }
  // The same when the size is not known: asks malloc for it.
  void release(void* p) noexcept;
  // Frees every kept block; later releases go straight to free().
  void drain() noexcept;
  // Frees every kept block and keeps caching: what a raised thread_cache_drain_epoch asks.
  void catch_up() noexcept;
  // Whether catch_up() freed any block since the last call.
  bool take_released() noexcept {
    const bool r = released_;
    released_ = false;
    return r;
  }

  // Blocks kept now, all sizes together.
  size_t kept_blocks() const noexcept;
  // Moves every kept block to out[0, kept_blocks()) and answers a drain as
  // catch_up() does, but leaves freeing them to the caller.
  void take_all(void** out) noexcept;
  // Takes the drain asked now as answered, without freeing: blocks released
  // until take_all() are kept.
  void answer_drain_later() noexcept;
  // Calls to malloc and free since the last call (saturating).
  uint32_t take_malloc_calls() noexcept {
    const uint32_t n = malloc_calls_;
    malloc_calls_ = 0;
    return n;
  }

  size_t kept_bytes() const { return kept_bytes_; }
  unsigned kept(size_t n) const;

 private:
  struct Block {
    Block* next;
  };
  // Class c holds blocks of c * 16 bytes; allocate(0) gives one of 16.
  static size_t class_of(size_t n) { return (n + kGranule - 1) / kGranule + (n == 0); }
  void keep(void* p, size_t c) noexcept {
    if (c > kClasses || counts_[c] >= kDepth || kept_bytes_ + c * kGranule > budget_) {
      if (malloc_calls_ < UINT32_MAX) ++malloc_calls_;
      free_block(p);
      return;
    }
    Block* b = static_cast<Block*>(p);
    b->next = heads_[c];
    heads_[c] = b;
    ++counts_[c];
    kept_bytes_ += c * kGranule;
  }
  void* allocate_slow(size_t n) noexcept;
  static void free_block(void* p) noexcept;

  Block* heads_[kClasses + 1] = {};
  unsigned counts_[kClasses + 1] = {};
  size_t kept_bytes_ = 0;
  size_t budget_ = kBudget;    // 0 once drained
  uint32_t epoch_ = 0;         // the thread_cache_drain_epoch this cache last emptied for
  bool released_ = false;      // catch_up() freed blocks malloc may not have returned
  uint32_t malloc_calls_ = 0;  // malloc and free calls since take_malloc_calls()
};

// This thread's cache. Trivially destructible, so it stays usable while other
// thread_local objects are destroyed; a guard drains it when the thread ends.
ThreadCache& this_thread_cache() noexcept;

// operator new and delete through this thread's cache: defined beside the
// thread_local, so the cache's fast paths inline into them.
void* thread_cached_allocate(size_t n) noexcept;
void thread_cached_release(void* p, size_t n) noexcept;
void thread_cached_release(void* p) noexcept;

// Asks every thread's cache to give its blocks back to malloc: this
// thread's at once, each other's at its next allocation or release, and the
// threads a registered waker wakes at once too. After an org reset, blocks
// kept among the freed records would pin their pages. A thorough drain (a
// reset after a large load) also has each thread that served empty glibc's
// own cache of freed chunks, at the cost of a short-lived thread each.
void drain_thread_caches(bool thorough = false) noexcept;

// A pool whose threads sleep until work comes registers how to wake them:
// drain_thread_caches() calls `wake` (which must not block), and each woken
// thread calls give_back_thread_cache() before it sleeps again.
void add_drain_waker(const void* owner, std::function<void()> wake);
// After it returns, `owner`'s waker is not running and is never called again.
void remove_drain_waker(const void* owner);

// Has this thread run `fn` whenever it gives its cache back (the calls
// above): a thread-local buffer kept for reuse drops its room there, as its
// blocks would pin pages among what a reset freed. Idempotent per function;
// a thread holds a few (kGiveBackHooks), registered on first use.
inline constexpr size_t kGiveBackHooks = 12;
void on_thread_give_back(void (*fn)()) noexcept;

// Whether a give-back also empties glibc's own per-thread cache (tcache);
// not where a sanitizer's malloc stands in for glibc's.
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#if defined(__has_feature)
#if !__has_feature(address_sanitizer) && !__has_feature(thread_sanitizer)
#define FAKE_ORG_GLIBC_TCACHE 1
#endif
#else
#define FAKE_ORG_GLIBC_TCACHE 1
#endif
#endif
#ifdef FAKE_ORG_GLIBC_TCACHE
inline constexpr bool kEmptiesGlibcTcache = true;
#else
inline constexpr bool kEmptiesGlibcTcache = false;
#endif

// When a drain was asked since this thread last gave back: runs its hooks,
// empties its cache and, if that freed anything, has malloc return free
// pages to the system; gives back the stack pages below where it runs (on
// the main thread finding them reads /proc/self/maps). Cheap otherwise (one
// comparison).
void give_back_thread_cache() noexcept;

}  // namespace fake_org::util
