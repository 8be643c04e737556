#pragma once
// Answers built from the record store, kept per store version: a read
// repeated before the next commit (a checkout page polling GET
// /PaymentIntent/{ID}) is the text built the first time, not a new view and
// its serialisation. Any commit changes the version, so a kept answer is
// never older than the records it was built from.
//
// Locking rule: each slot has its own mutex, held only to compare a key and
// copy or swap a shared_ptr; answers are built outside it. Safe from any
// thread.
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace fake_org {

class VersionedCache {
 public:
  // The text kept for `key` at `version`, or null.
  std::shared_ptr<const std::string> find(std::string_view key, uint64_t version) const;
  // Keeps `text` for `key` at `version`, unless its slot holds a newer one.
  void put(std::string_view key, uint64_t version, std::shared_ptr<const std::string> text);

 private:
  // Direct-mapped: a key's hash picks its one slot, so memory stays bounded
  // (about a thousand answers) and a lookup never walks. 50 intents polled
  // in turn collided in 18 % of reads with 256 slots.
  static constexpr size_t kSlots = 1024;
  struct Slot {
    std::mutex mu;
    uint64_t version = 0;
    std::string key;
    std::shared_ptr<const std::string> text;
  };
  Slot& slot_of(std::string_view key) const;
  mutable std::array<Slot, kSlots> slots_;
};

}  // namespace fake_org
