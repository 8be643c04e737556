#include "field_values.h"

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <string_view>

#include "util/permanent.h"

namespace fake_org {

namespace {

// One field's texts, found by an open-addressed table of their numbers.
struct ValueTable {
  static constexpr size_t kSlots = 2 * FieldValues::kPerField;
  std::mutex add;
  std::atomic<uint32_t> count{0};
  // Written once, before the slot that names it is published.
  std::array<std::string_view, FieldValues::kPerField> texts;
  std::array<std::atomic<uint16_t>, kSlots> slots{};  // number + 1; 0: empty
  // Each filled slot's tag (tag_of its text's hash), written before the
  // slot is published: a probe past another text compares numbers, not
  // bytes. A field of unique values (a GUID, a token) fills its 255 texts
  // and then has every new value probed past a few of the same length and
  // prefix: those comparisons were 4 % of a restart's samples.
  std::array<uint16_t, kSlots> tags{};
  // The hash's top bits: its low ones chose the slot.
  static uint16_t tag_of(size_t hash) {
    return static_cast<uint16_t>(static_cast<uint64_t>(hash) >> 48);
  }

  // The slot holding `text`, or the empty slot where it would go.
  size_t probe(std::string_view text, size_t hash, bool& found) const {
    for (size_t i = hash % kSlots;; i = (i + 1) % kSlots) {
      const uint16_t s = slots[i].load(std::memory_order_acquire);
      if (s == 0 || (tags[i] == tag_of(hash) && texts[s - 1] == text)) {
        found = s != 0;
        return i;
      }
    }
  }
};

// Tables by field number, in chunks that never move (as FieldNames' texts).
constexpr size_t kTablesPerChunk = 1024;
constexpr size_t kTableChunks = 1024;

struct ValueTables {
  std::mutex grow;
  std::array<std::atomic<std::atomic<ValueTable*>*>, kTableChunks> chunks{};
  std::atomic<size_t> heap{0};
};

ValueTables& value_tables() {
  static ValueTables* t = new ValueTables;  // never destroyed: records outlive statics
  return *t;
}

// The table of field `name`, made on first use.
ValueTable& value_table(uint32_t name) {
  ValueTables& all = value_tables();
  auto& chunk_ref = all.chunks[name / kTablesPerChunk];
  std::atomic<ValueTable*>* chunk = chunk_ref.load(std::memory_order_acquire);
  if (chunk) {
    if (ValueTable* t = chunk[name % kTablesPerChunk].load(std::memory_order_acquire)) return *t;
  }
  std::lock_guard<std::mutex> lock(all.grow);
  chunk = chunk_ref.load(std::memory_order_relaxed);
  // The tables and their texts are made during requests and outlive any
  // reset: in permanent memory, they pin no page of malloc's (decision 95).
  if (!chunk) {
    constexpr size_t bytes = kTablesPerChunk * sizeof(std::atomic<ValueTable*>);
    chunk = new (util::permanent_allocate(bytes, alignof(std::atomic<ValueTable*>)))
        std::atomic<ValueTable*>[kTablesPerChunk]();
    chunk_ref.store(chunk, std::memory_order_release);
    all.heap += bytes;
  }
  ValueTable* t = chunk[name % kTablesPerChunk].load(std::memory_order_relaxed);
  if (!t) {
    t = new (util::permanent_allocate(sizeof(ValueTable), alignof(ValueTable))) ValueTable;
    chunk[name % kTablesPerChunk].store(t, std::memory_order_release);
    all.heap += sizeof(ValueTable);
  }
  return *t;
}

}  // namespace

std::optional<uint8_t> FieldValues::intern(uint32_t name, std::string_view text) {
  if (text.size() > kLongest || name / kTablesPerChunk >= kTableChunks) return std::nullopt;
  ValueTable& t = value_table(name);
  const size_t hash = std::hash<std::string_view>()(text);
  bool found = false;
  size_t slot = t.probe(text, hash, found);
  if (found) return static_cast<uint8_t>(t.slots[slot].load(std::memory_order_relaxed) - 1);
  if (t.count.load(std::memory_order_relaxed) >= kPerField) return std::nullopt;
  std::lock_guard<std::mutex> lock(t.add);
  slot = t.probe(text, hash, found);  // another thread may have added it
  if (found) return static_cast<uint8_t>(t.slots[slot].load(std::memory_order_relaxed) - 1);
  const uint32_t n = t.count.load(std::memory_order_relaxed);
  if (n >= kPerField) return std::nullopt;
  t.texts[n] = util::permanent_copy(text);
  value_tables().heap += text.size();
  t.tags[slot] = ValueTable::tag_of(hash);
  t.slots[slot].store(static_cast<uint16_t>(n + 1), std::memory_order_release);
  t.count.store(n + 1, std::memory_order_relaxed);
  return static_cast<uint8_t>(n);
}

std::string_view FieldValues::text(uint32_t name, uint8_t number) {
  const auto* chunk = value_tables().chunks[name / kTablesPerChunk].load(std::memory_order_acquire);
  return chunk[name % kTablesPerChunk].load(std::memory_order_acquire)->texts[number];
}

size_t FieldValues::heap_bytes() {
  return value_tables().heap.load();
}

}  // namespace fake_org
