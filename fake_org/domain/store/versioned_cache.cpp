#include "versioned_cache.h"

#include <functional>
#include <utility>

namespace fake_org {

VersionedCache::Slot& VersionedCache::slot_of(std::string_view key) const {
  return slots_[std::hash<std::string_view>{}(key) % kSlots];
}

std::shared_ptr<const std::string> VersionedCache::find(std::string_view key,
                                                        uint64_t version) const {
  Slot& s = slot_of(key);
  std::lock_guard lock(s.mu);
  if (!s.text || s.version != version || s.key != key) return nullptr;
  return s.text;
}

void VersionedCache::put(std::string_view key, uint64_t version,
                         std::shared_ptr<const std::string> text) {
  Slot& s = slot_of(key);
  std::shared_ptr<const std::string> dropped;  // freed after the lock
  std::lock_guard lock(s.mu);
  if (s.text && s.version > version) return;
  s.version = version;
  s.key.assign(key.data(), key.size());
  dropped = std::exchange(s.text, std::move(text));
}

}  // namespace fake_org
