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

TEST_CASE("SlotTable files slots under a hash and groups those of one key") {
  SlotTable t;
  // Keys by slot: slots 0-2 share key "a", slot 3 has key "b" with the same hash.
  std::map<SlotTable::Slot, std::string> key{{0, "a"}, {1, "a"}, {2, "a"}, {3, "b"}};
  auto same = [&](SlotTable::Slot mine) {
    return [&, mine](SlotTable::Slot other) { return key[other] == key[mine]; };
  };
  for (SlotTable::Slot s = 0; s < 4; ++s) t.insert(7, s, same(s));
  CHECK(t.entries() == 2);  // one for "a", one for "b"
  CHECK(under(t, 7) == std::vector<SlotTable::Slot>{0, 1, 2, 3});
  CHECK(under(t, 8).empty());

  CHECK(t.erase(7, 1));
  CHECK_FALSE(t.erase(7, 1));
  CHECK_FALSE(t.erase(9, 0));
  CHECK(under(t, 7) == std::vector<SlotTable::Slot>{0, 2, 3});
  CHECK(t.erase(7, 0));  // the group of "a" is down to slot 2: a plain entry again
  CHECK(t.erase(7, 3));
  CHECK(under(t, 7) == std::vector<SlotTable::Slot>{2});
  CHECK(t.entries() == 1);

  // A stop asked for by the caller ends the walk.
  t.insert(7, 4, same(3));
  int seen = 0;
  t.for_each(7, [&](SlotTable::Slot) { return ++seen < 1; });
  CHECK(seen == 1);
}

TEST_CASE("SlotTable agrees with a multimap through growth and deletion") {
  // Random inserts and erases over a small hash range, so runs wrap the
  // table's end and backward-shift deletion moves entries across it.
  std::mt19937 rng(42);
  SlotTable t;
  std::multimap<uint32_t, SlotTable::Slot> model;
  std::map<SlotTable::Slot, uint32_t> hash_of;  // one key per slot: no groups
  const auto distinct = [](SlotTable::Slot) { return false; };
  SlotTable::Slot next = 0;
  for (int step = 0; step < 20000; ++step) {
    if (hash_of.empty() || rng() % 3 != 0) {
      const uint32_t h = rng() % 512 * 0x01000193u;
      t.insert(h, next, distinct);
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
  REQUIRE(t.entries() == model.size());
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
  const auto same = [](SlotTable::Slot) { return true; };
  for (SlotTable::Slot s = 0; s < 100000; ++s) t.insert(1, s, same);
  CHECK(t.entries() == 1);
  CHECK(under(t, 1).size() == 100000);
  for (SlotTable::Slot s = 0; s < 200; s += 2) REQUIRE(t.erase(1, s));
  CHECK(under(t, 1).size() == 99900);
  t.clear();
  CHECK(t.entries() == 0);
  CHECK(under(t, 1).empty());
  t.reserve(1000);
  t.insert(1, 5, same);
  CHECK(under(t, 1) == std::vector<SlotTable::Slot>{5});
}
