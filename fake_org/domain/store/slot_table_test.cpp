#include "slot_table.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <set>

using fake_org::SlotTable;

namespace {
std::vector<SlotTable::Slot> under(const SlotTable& t, uint32_t hash) {
  std::vector<SlotTable::Slot> out;
  t.for_each(hash, [&](SlotTable::Slot s) {
    out.push_back(s);
    return true;
  });
  std::sort(out.begin(), out.end());
  return out;
}
}  // namespace

TEST_CASE("SlotTable files slots under a hash, one entry per hash") {
  SlotTable t;
  for (SlotTable::Slot s = 0; s < 4; ++s) t.insert(7, s);
  t.insert(8, 4);
  CHECK(t.entries() == 2);  // a group under 7, slot 4 alone under 8
  CHECK(under(t, 7) == std::vector<SlotTable::Slot>{0, 1, 2, 3});
  CHECK(under(t, 8) == std::vector<SlotTable::Slot>{4});
  CHECK(under(t, 9).empty());

  CHECK(t.erase(7, 1));
  CHECK_FALSE(t.erase(7, 1));
  CHECK_FALSE(t.erase(9, 0));
  CHECK_FALSE(t.erase(8, 0));  // filed, but under another hash
  CHECK(under(t, 7) == std::vector<SlotTable::Slot>{0, 2, 3});
  CHECK(t.erase(7, 0));
  CHECK(t.erase(7, 3));  // the group is down to slot 2: a plain entry again
  CHECK(under(t, 7) == std::vector<SlotTable::Slot>{2});
  CHECK_FALSE(t.erase(7, 9));  // another slot under that hash: slot 2 stays
  CHECK(under(t, 7) == std::vector<SlotTable::Slot>{2});
  CHECK(t.entries() == 2);
  // The freed group is used again.
  t.insert(8, 5);
  CHECK(under(t, 8) == std::vector<SlotTable::Slot>{4, 5});

  // A stop asked for by the caller ends the walk.
  int seen = 0;
  t.for_each(8, [&](SlotTable::Slot) { return ++seen < 1; });
  CHECK(seen == 1);
}

TEST_CASE("SlotTable agrees with a multimap through growth and deletion") {
  // Random inserts and erases over a small hash range, so runs wrap the
  // table's end, backward-shift deletion moves entries across it, and groups
  // form and break up.
  std::mt19937 rng(42);
  SlotTable t;
  std::multimap<uint32_t, SlotTable::Slot> model;
  std::map<SlotTable::Slot, uint32_t> hash_of;
  SlotTable::Slot next = 0;
  for (int step = 0; step < 20000; ++step) {
    if (hash_of.empty() || rng() % 3 != 0) {
      const uint32_t h = rng() % 512 * 0x01000193u;
      t.insert(h, next);
      model.emplace(h, next);
      hash_of[next++] = h;
    } else {
      auto victim = hash_of.begin();
      std::advance(victim, static_cast<long>(rng() % hash_of.size()));
      REQUIRE(t.erase(victim->second, victim->first));
      auto [from, to] = model.equal_range(victim->second);
      for (auto it = from; it != to; ++it)
        if (it->second == victim->first) {
          model.erase(it);
          break;
        }
      hash_of.erase(victim);
    }
  }
  std::set<uint32_t> hashes;
  for (const auto& [h, slot] : model) hashes.insert(h);
  REQUIRE(t.entries() == hashes.size());
  for (uint32_t k = 0; k < 512; ++k) {
    const uint32_t h = k * 0x01000193u;
    std::vector<SlotTable::Slot> want;
    auto [from, to] = model.equal_range(h);
    for (auto it = from; it != to; ++it) want.push_back(it->second);
    std::sort(want.begin(), want.end());
    CHECK(under(t, h) == want);
  }
}

TEST_CASE("SlotTable keeps one entry for a large group") {
  // Every Contact of one Account under one key: a group, not a probe run.
  SlotTable t;
  for (SlotTable::Slot s = 0; s < 100000; ++s) t.insert(1, s);
  CHECK(t.entries() == 1);
  CHECK(under(t, 1).size() == 100000);
  for (SlotTable::Slot s = 0; s < 200; s += 2) REQUIRE(t.erase(1, s));
  CHECK(under(t, 1).size() == 99900);
  t.clear();
  CHECK(t.entries() == 0);
  CHECK(under(t, 1).empty());
  t.reserve(1000);
  t.insert(1, 5);
  CHECK(under(t, 1) == std::vector<SlotTable::Slot>{5});
}
