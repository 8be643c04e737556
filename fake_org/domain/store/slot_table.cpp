#include "slot_table.h"

#include <algorithm>
#include <stdexcept>

namespace fake_org {

namespace {
// Grown at 7/8 full: linear probing stays short, and a table is on average
// about 60 % full, 13 bytes a key.
bool too_full(size_t used, size_t capacity) {
  return (used + 1) * 8 > capacity * 7;
}
}  // namespace

void SlotTable::insert(uint32_t hash, Slot slot) {
  const size_t i = find_entry(hash);
  if (i != kNone) return join(entries_[i], slot);
  place(hash, slot);
}

void SlotTable::place(uint32_t hash, Slot slot) {
  if (slot > kMaxSlot) throw std::length_error("record store full");
  if (too_full(used_, entries_.size())) rehash(std::max<size_t>(16, entries_.size() * 2));
  size_t i = home(hash);
  while (entries_[i].ref != kEmpty) i = next(i);
  entries_[i] = Entry{hash, slot + 1};
  ++used_;
}

void SlotTable::join(Entry& e, Slot slot) {
  if (is_group(e.ref)) {
    groups_[group_of(e.ref)].push_back(slot);
    return;
  }
  uint32_t g;
  if (!free_groups_.empty()) {
    g = free_groups_.back();
    free_groups_.pop_back();
  } else {
    g = static_cast<uint32_t>(groups_.size());
    groups_.emplace_back();
  }
  groups_[g] = {e.ref - 1, slot};
  e.ref = kGroupBit | g;
}

bool SlotTable::erase(uint32_t hash, Slot slot) {
  const size_t i = find_entry(hash);
  if (i == kNone) return false;
  Entry& e = entries_[i];
  if (!is_group(e.ref)) {
    if (e.ref - 1 != slot) return false;
    remove_at(i);
    return true;
  }
  // Order inside a group is not kept: lookups sort what they return.
  auto& group = groups_[group_of(e.ref)];
  auto at = std::find(group.begin(), group.end(), slot);
  if (at == group.end()) return false;
  *at = group.back();
  group.pop_back();
  if (group.size() == 1) {
    const Slot last = group.front();
    group = {};
    free_groups_.push_back(group_of(e.ref));
    e.ref = last + 1;
  }
  return true;
}

void SlotTable::remove_at(size_t i) {
  // Backward-shift deletion: later entries of the run move up so that no
  // probe stops early at the hole, and no tombstone is left.
  --used_;
  size_t hole = i;
  for (size_t j = next(i); entries_[j].ref != kEmpty; j = next(j)) {
    const size_t want = home(entries_[j].hash);
    // j may fill the hole when its home is not in (hole, j], cyclically.
    const bool movable = hole <= j ? (want <= hole || want > j) : (want <= hole && want > j);
    if (movable) {
      entries_[hole] = entries_[j];
      hole = j;
    }
  }
  entries_[hole] = Entry{0, kEmpty};
}

void SlotTable::rehash(size_t capacity) {
  std::vector<Entry> old = std::move(entries_);
  entries_.assign(capacity, Entry{0, kEmpty});
  mask_ = capacity - 1;
  for (const Entry& e : old) {
    if (e.ref == kEmpty) continue;
    size_t i = home(e.hash);
    while (entries_[i].ref != kEmpty) i = next(i);
    entries_[i] = e;
  }
}

void SlotTable::reserve(size_t keys) {
  size_t capacity = 16;
  while (too_full(keys, capacity)) capacity *= 2;
  if (capacity > entries_.size()) rehash(capacity);
}

size_t SlotTable::heap_bytes() const {
  size_t n = entries_.capacity() * sizeof(Entry) + groups_.capacity() * sizeof(groups_[0]) +
             free_groups_.capacity() * sizeof(uint32_t);
  for (const auto& g : groups_) n += g.capacity() * sizeof(Slot);
  return n;
}

void SlotTable::clear() {
  entries_.clear();
  entries_.shrink_to_fit();
  mask_ = 0;
  used_ = 0;
  groups_.clear();
  free_groups_.clear();
}

}  // namespace fake_org
