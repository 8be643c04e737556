#include "util/thread_cache.h"

#include <malloc.h>
#include <catch2/catch.hpp>

#include <cstring>
#include <thread>
#include <vector>

using fake_org::util::ThreadCache;

TEST_CASE("ThreadCache hands a released block back for its size class", "[thread_cache]") {
  ThreadCache cache;
  void* a = cache.allocate(40);  // 48-byte class
  REQUIRE(a != nullptr);
  std::memset(a, 0xAB, 48);  // the whole class is usable
  cache.release(a, 40);
  CHECK(cache.kept(48) == 1);
  CHECK(cache.kept_bytes() == 48);
  CHECK(cache.allocate(33) == a);  // any size of the same class
  CHECK(cache.kept(48) == 0);
  CHECK(cache.kept_bytes() == 0);
  void* b = cache.allocate(40);
  CHECK(b != a);
  cache.release(a, 40);
  cache.release(b, 40);
  CHECK(cache.allocate(48) == b);  // last in, first out
  CHECK(cache.allocate(48) == a);
  cache.release(a, 48);
  cache.release(b, 48);
  cache.drain();
}

TEST_CASE("ThreadCache sizes a block released without its size by malloc", "[thread_cache]") {
  ThreadCache cache;
  void* a = cache.allocate(100);  // asks malloc for the 112-byte class
  // malloc may hand out a larger chunk than asked (glibc does when the rest
  // of a free chunk would be too small to keep); the block is filed under
  // the class its usable size covers, which is at least the one asked for.
  const size_t usable = malloc_usable_size(a) / 16 * 16;
  REQUIRE(usable >= 112);
  cache.release(a);
  CHECK(cache.kept(usable) == 1);
  CHECK(cache.allocate(usable) == a);
  cache.release(a);
  cache.drain();
}

TEST_CASE("ThreadCache leaves large and empty blocks to malloc", "[thread_cache]") {
  ThreadCache cache;
  void* big = cache.allocate(ThreadCache::kLargest + 1);
  REQUIRE(big != nullptr);
  std::memset(big, 1, ThreadCache::kLargest + 1);
  cache.release(big, ThreadCache::kLargest + 1);
  CHECK(cache.kept_bytes() == 0);
  void* zero = cache.allocate(0);  // a real, distinct block, as operator new(0) must give
  void* zero2 = cache.allocate(0);
  REQUIRE(zero != nullptr);
  CHECK(zero != zero2);
  cache.release(zero, 0);
  cache.release(zero2, 0);
  CHECK(cache.kept(16) == 2);
  cache.release(nullptr);
  cache.release(nullptr, 8);
  CHECK(cache.kept(16) == 2);
  cache.drain();
}

TEST_CASE("ThreadCache keeps at most kDepth blocks a size and kBudget bytes", "[thread_cache]") {
  ThreadCache cache;
  std::vector<void*> small;
  for (unsigned i = 0; i < ThreadCache::kDepth + 10; ++i) small.push_back(cache.allocate(16));
  for (void* p : small) cache.release(p, 16);
  CHECK(cache.kept(16) == ThreadCache::kDepth);
  CHECK(cache.kept_bytes() == ThreadCache::kDepth * 16);

  std::vector<void*> large;
  const size_t n = ThreadCache::kLargest;
  for (size_t i = 0; i < ThreadCache::kBudget / n + 10; ++i) large.push_back(cache.allocate(n));
  for (void* p : large) cache.release(p, n);
  CHECK(cache.kept_bytes() <= ThreadCache::kBudget);
  CHECK(cache.kept(n) == (ThreadCache::kBudget - ThreadCache::kDepth * 16) / n);
  cache.drain();
  CHECK(cache.kept_bytes() == 0);
  CHECK(cache.kept(16) == 0);
}

TEST_CASE("ThreadCache frees straight away once drained", "[thread_cache]") {
  ThreadCache cache;
  void* a = cache.allocate(24);
  cache.drain();
  cache.release(a, 24);
  CHECK(cache.kept_bytes() == 0);
  void* b = cache.allocate(24);  // still allocates
  REQUIRE(b != nullptr);
  cache.release(b);
  CHECK(cache.kept_bytes() == 0);
}

TEST_CASE("ThreadCache takes blocks another thread allocated", "[thread_cache]") {
  ThreadCache mine;
  std::vector<void*> theirs;
  std::thread other([&] {
    ThreadCache cache;
    for (int i = 0; i < 50; ++i) theirs.push_back(cache.allocate(64));
    cache.drain();
  });
  other.join();
  for (void* p : theirs) mine.release(p, 64);
  CHECK(mine.kept(64) == 50);
  CHECK(mine.allocate(64) == theirs.back());
  mine.release(theirs.back(), 64);
  mine.drain();
}

TEST_CASE("this_thread_cache is one cache per thread", "[thread_cache]") {
  ThreadCache* main_cache = &fake_org::util::this_thread_cache();
  CHECK(&fake_org::util::this_thread_cache() == main_cache);
  ThreadCache* other_cache = nullptr;
  std::thread other([&] { other_cache = &fake_org::util::this_thread_cache(); });
  other.join();
  CHECK(other_cache != main_cache);
}

TEST_CASE("ThreadCache empties itself when another thread asks, and keeps caching",
          "[thread_cache]") {
  ThreadCache cache;
  void* a = cache.allocate(64);
  cache.release(a, 64);
  REQUIRE(cache.kept(64) == 1);
  std::thread other([] { fake_org::util::drain_thread_caches(); });
  other.join();
  CHECK(cache.kept(64) == 1);    // the other thread never touches this cache
  void* b = cache.allocate(64);  // which catches up first: its block went to malloc
  CHECK(cache.kept_bytes() == 0);
  cache.release(b, 64);
  CHECK(cache.kept(64) == 1);  // and goes on caching
  cache.drain();
}

TEST_CASE("a drain calls each registered waker until it is removed", "[thread_cache]") {
  int a = 0, b = 0;
  fake_org::util::add_drain_waker(&a, [&] { ++a; });
  fake_org::util::add_drain_waker(&b, [&] { ++b; });
  fake_org::util::drain_thread_caches();
  CHECK(a == 1);
  CHECK(b == 1);
  fake_org::util::remove_drain_waker(&a);
  fake_org::util::drain_thread_caches();
  CHECK(a == 1);
  CHECK(b == 2);
  fake_org::util::remove_drain_waker(&b);
}

TEST_CASE("a woken thread gives its cache back once per drain", "[thread_cache]") {
  std::thread worker([] {
    ThreadCache& cache = fake_org::util::this_thread_cache();
    fake_org::util::give_back_thread_cache();  // answers earlier tests' drains
    void* p = cache.allocate(96);
    cache.release(p, 96);
    const size_t before = cache.kept_bytes();
    REQUIRE(before > 0);
    fake_org::util::give_back_thread_cache();  // no drain since: kept
    CHECK(cache.kept_bytes() == before);
    std::thread other([] { fake_org::util::drain_thread_caches(); });
    other.join();
    CHECK(cache.kept_bytes() == before);  // nothing reaches into this cache
    fake_org::util::give_back_thread_cache();
    CHECK(cache.kept_bytes() == 0);
  });
  worker.join();
}

namespace {
thread_local int thread_cache_test_spare_room = 0;
int thread_cache_test_hook_runs = 0;
void thread_cache_test_drop_spare() {
  thread_cache_test_spare_room = 0;
  ++thread_cache_test_hook_runs;
}
}  // namespace

TEST_CASE("a thread's give-back hooks run once per drain, on that thread", "[thread_cache]") {
  std::thread worker([] {
    fake_org::util::give_back_thread_cache();  // answers earlier tests' drains
    fake_org::util::on_thread_give_back(thread_cache_test_drop_spare);
    fake_org::util::on_thread_give_back(thread_cache_test_drop_spare);  // once is enough
    thread_cache_test_spare_room = 4096;
    fake_org::util::give_back_thread_cache();  // no drain since
    CHECK(thread_cache_test_spare_room == 4096);
    std::thread other([] { fake_org::util::drain_thread_caches(); });
    other.join();
    CHECK(thread_cache_test_spare_room == 4096);  // the other thread's hooks are its own
    fake_org::util::give_back_thread_cache();
    CHECK(thread_cache_test_spare_room == 0);
    CHECK(thread_cache_test_hook_runs == 1);
  });
  worker.join();
}

TEST_CASE("a thorough give-back empties glibc's thread cache too", "[thread_cache]") {
  if (!fake_org::util::kEmptiesGlibcTcache) {
    SUCCEED("a sanitizer's malloc stands in for glibc's: it has no tcache");
    return;
  }
  std::thread worker([] {
    fake_org::util::give_back_thread_cache();  // answers earlier tests' drains
    ThreadCache& cache = fake_org::util::this_thread_cache();
    void* p = cache.allocate(96);
    cache.release(p, 96);  // a thread that served something gives back
    std::vector<void*> held(7);
    for (auto& h : held) h = std::malloc(200);
    const size_t in_use = mallinfo2().uordblks;
    for (void* h : held) std::free(h);
    // Kept by glibc for this thread, the 7 blocks still count as in use.
    REQUIRE(mallinfo2().uordblks + 7 * 200 > in_use);
    std::thread([] { fake_org::util::drain_thread_caches(); }).join();
    fake_org::util::give_back_thread_cache();
    // An ordinary drain leaves them (it costs a reset 7 ms); a thorough one
    // takes them out.
    CHECK(mallinfo2().uordblks + 7 * 200 > in_use);
    cache.release(cache.allocate(96), 96);  // served again since
    std::thread([] { fake_org::util::drain_thread_caches(true); }).join();
    fake_org::util::give_back_thread_cache();
    CHECK(mallinfo2().uordblks + 7 * 200 <= in_use);
  });
  worker.join();
}
