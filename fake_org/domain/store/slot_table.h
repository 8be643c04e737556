#pragma once
// A flat hash table from a key's 32-bit hash to the record slots filed under
// it: the record store's lookups by id, GUID and index key. One entry is 8
// bytes in one array (no node per key, no key copied): the slot itself, or,
// when several slots share one hash (every Contact of one Account), a group
// kept beside the table, so filing the millionth record under a key costs
// what filing the first did. Two keys may share a hash (about a hundred
// pairs among a million keys): a lookup hands every candidate to the caller,
// which checks the record's own key.
//
// Not thread-safe: its owner's lock guards it (the record store's, the PSP
// sessions').
#include <cstddef>
#include <cstdint>
#include <vector>

namespace fake_org {

class SlotTable {
 public:
  using Slot = uint32_t;
  static constexpr Slot kMaxSlot = 0x7FFFFFFEu;

  // Files `slot` under `hash`.
  void insert(uint32_t hash, Slot slot);
  // Unfiles `slot` from under `hash`; false when it was not filed there.
  bool erase(uint32_t hash, Slot slot);
  // Calls fn(slot) for every slot filed under `hash` (another key's too, when
  // the hashes collide); stops early when fn returns false.
  template <typename Fn>
  void for_each(uint32_t hash, Fn&& fn) const {
    const size_t i = find_entry(hash);
    if (i == kNone) return;
    const uint32_t ref = entries_[i].ref;
    if (!is_group(ref)) {
      fn(ref - 1);
      return;
    }
    for (Slot s : groups_[group_of(ref)])
      if (!fn(s)) return;
  }
  // Sized for `keys` distinct keys without growing.
  void reserve(size_t keys);
  void clear();
  size_t entries() const { return used_; }
  // Heap bytes the table holds: its array and its groups (memory figures).
  size_t heap_bytes() const;

  // The hash a table files a key under.
  static uint32_t hash_of(uint64_t full) { return static_cast<uint32_t>(full ^ (full >> 32)); }

 private:
  struct Entry {
    uint32_t hash;
    uint32_t ref;  // kEmpty; slot + 1; or kGroupBit | group index
  };
  static constexpr uint32_t kEmpty = 0;
  static constexpr uint32_t kGroupBit = 0x80000000u;
  static bool is_group(uint32_t ref) { return (ref & kGroupBit) != 0; }
  static uint32_t group_of(uint32_t ref) { return ref & ~kGroupBit; }

  static constexpr size_t kNone = SIZE_MAX;
  // Where the one entry of `hash` is (every slot filed under a hash shares
  // one entry), or kNone.
  size_t find_entry(uint32_t hash) const {
    if (entries_.empty()) return kNone;
    for (size_t i = home(hash); entries_[i].ref != kEmpty; i = next(i))
      if (entries_[i].hash == hash) return i;
    return kNone;
  }
  size_t home(uint32_t hash) const { return (hash * 0x9E3779B1u) & mask_; }
  size_t next(size_t i) const { return (i + 1) & mask_; }
  void place(uint32_t hash, Slot slot);
  void join(Entry& e, Slot slot);
  void remove_at(size_t i);
  void rehash(size_t capacity);

  std::vector<Entry> entries_;  // power-of-two size, linear probing
  size_t mask_ = 0;
  size_t used_ = 0;
  std::vector<std::vector<Slot>> groups_;
  std::vector<uint32_t> free_groups_;
};

}  // namespace fake_org
