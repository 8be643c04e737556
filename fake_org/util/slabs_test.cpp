#include "slabs.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <random>
#include <set>
#include <thread>
#include <vector>

using namespace fake_org::util;

TEST_CASE("a slab block is its size rounded to 8, aligned, and of its own", "[slabs]") {
  CHECK(slab_allocate(0) == nullptr);
  CHECK(slab_allocate(kSlabLargestBlock + 1) == nullptr);
  CHECK(slab_block_size(1) == 8);
  CHECK(slab_block_size(72) == 72);
  CHECK(slab_block_size(73) == 80);
  std::vector<std::pair<char*, size_t>> blocks;
  for (size_t n : {size_t{1}, size_t{8}, size_t{73}, size_t{500}, kSlabLargestBlock}) {
    for (int i = 0; i < 50; ++i) {
      auto* p = static_cast<char*>(slab_allocate(n));
      REQUIRE(p != nullptr);
      CHECK(reinterpret_cast<uintptr_t>(p) % 8 == 0);
      std::memset(p, static_cast<int>(blocks.size() % 251), n);
      blocks.emplace_back(p, n);
    }
  }
  // Each kept the bytes written to it: no two overlap.
  for (size_t i = 0; i < blocks.size(); ++i)
    for (size_t k = 0; k < blocks[i].second; ++k)
      REQUIRE(static_cast<unsigned char>(blocks[i].first[k]) == i % 251);
  for (auto [p, n] : blocks) slab_release(p);
}

TEST_CASE("a slab goes back to the system when its last block is released", "[slabs]") {
  const size_t before = slab_mapped_bytes();
  // A size no record has: eight slabs' worth of 1,000-byte blocks.
  const size_t per_slab = kSlabBytes / 1000;
  std::vector<void*> blocks;
  for (size_t i = 0; i < 8 * per_slab; ++i) blocks.push_back(slab_allocate(1000));
  // Eight slabs or more, of which the two kept empty ones (before) may be.
  CHECK(slab_mapped_bytes() >= before + 6 * kSlabBytes);
  // Released in an order that empties no slab until the end.
  for (size_t i = 0; i < blocks.size(); i += 2) slab_release(blocks[i]);
  CHECK(slab_mapped_bytes() >= before + 6 * kSlabBytes);
  // Freed blocks are handed out again before any new slab is mapped.
  const size_t half = slab_mapped_bytes();
  for (size_t i = 0; i < blocks.size(); i += 2) blocks[i] = slab_allocate(1000);
  CHECK(slab_mapped_bytes() == half);
  for (void* p : blocks) slab_release(p);
  // At most the two emptied slabs kept for reuse stay mapped.
  CHECK(slab_mapped_bytes() <= before + 2 * kSlabBytes);
}

TEST_CASE("threads take and release slab blocks at once", "[slabs]") {
  // Blocks are often released on another thread than the one that took
  // them (a record outlives the request that made it). Catch's checks are
  // not for threads: each counts what went wrong, checked after.
  constexpr int kThreads = 4;
  constexpr int kRounds = 20000;
  std::vector<std::vector<void*>> handed(kThreads);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t, &handed, &wrong] {
      std::mt19937 random(static_cast<uint32_t>(t));
      std::vector<std::pair<uint64_t*, uint64_t>> mine;
      for (int i = 0; i < kRounds; ++i) {
        const uint64_t tag = (uint64_t(t) << 32) | uint64_t(i);
        if (mine.empty() || random() % 3 != 0) {
          auto* p = static_cast<uint64_t*>(slab_allocate(8 + random() % 300));
          if (!p) {
            ++wrong;
            continue;
          }
          p[0] = tag;
          mine.emplace_back(p, tag);
        } else {
          auto [p, kept] = mine.back();
          mine.pop_back();
          if (p[0] != kept) ++wrong;
          slab_release(p);
        }
      }
      for (auto [p, tag] : mine) handed[(t + 1) % kThreads].push_back(p);
    });
  for (auto& th : threads) th.join();
  CHECK(wrong == 0);
  std::set<void*> distinct;
  for (auto& list : handed)
    for (void* p : list) CHECK(distinct.insert(p).second);
  for (auto& list : handed)
    for (void* p : list) slab_release(p);
}
