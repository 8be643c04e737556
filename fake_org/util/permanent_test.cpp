// Permanent memory: blocks that never move or end, apart from malloc's heap.
#include "permanent.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <vector>

using fake_org::util::permanent_allocate;
using fake_org::util::permanent_bytes;
using fake_org::util::permanent_copy;

TEST_CASE("permanent blocks are aligned as asked and do not overlap", "[permanent]") {
  std::vector<std::pair<uintptr_t, size_t>> blocks;
  for (size_t align : {1, 2, 8, 16, 64, 4096}) {
    for (size_t n : {1, 7, 100, 5000, 70000}) {
      auto* p = static_cast<char*>(permanent_allocate(n, align));
      CHECK(reinterpret_cast<uintptr_t>(p) % align == 0);
      std::memset(p, 0x5a, n);  // writable to its last byte
      blocks.emplace_back(reinterpret_cast<uintptr_t>(p), n);
    }
  }
  std::sort(blocks.begin(), blocks.end());
  for (size_t i = 1; i < blocks.size(); ++i)
    CHECK(blocks[i - 1].first + blocks[i - 1].second <= blocks[i].first);
}

TEST_CASE("a permanent copy keeps its text, the empty one too", "[permanent]") {
  std::string text(300, 'x');
  text[150] = '\0';
  const auto before = permanent_bytes();
  std::string_view kept = permanent_copy(text);
  text.assign(300, 'y');
  CHECK(kept.size() == 300);
  CHECK(kept[150] == '\0');
  CHECK(kept.substr(0, 150) == std::string(150, 'x'));
  CHECK(permanent_bytes() == before + 300);
  std::string_view empty = permanent_copy("");
  CHECK(empty.empty());
  CHECK(empty.data() != nullptr);
}

TEST_CASE("threads take permanent blocks at once without sharing one", "[permanent]") {
  constexpr size_t kThreads = 4, kEach = 20000;
  std::vector<std::vector<uintptr_t>> got(kThreads);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < kThreads; ++t)
    threads.emplace_back([&got, t] {
      for (size_t i = 0; i < kEach; ++i) {
        auto* p = static_cast<uint64_t*>(permanent_allocate(24, 8));
        p[0] = p[1] = p[2] = t;
        got[t].push_back(reinterpret_cast<uintptr_t>(p));
      }
    });
  for (auto& th : threads) th.join();
  std::set<uintptr_t> all;
  for (size_t t = 0; t < kThreads; ++t)
    for (uintptr_t a : got[t]) {
      CHECK(reinterpret_cast<const uint64_t*>(a)[2] == t);  // nobody wrote over it
      all.insert(a);
    }
  CHECK(all.size() == kThreads * kEach);
}
