#include "soql_cursors.h"

#include <cstdio>

#include "domain/core/ids.h"
#include "domain/store/slot_table.h"

namespace fake_org::soql {

namespace {
bool expired(TimePoint opened_at, TimePoint now) {
  return now - opened_at > QueryCursorStore::kLifetime;
}
}  // namespace

size_t QueryCursorStore::cursor_bytes(const QueryCursor& cursor) {
  // The map entries and the cursor itself are a few hundred bytes; the rows
  // are what grows.
  constexpr size_t kOverhead = 512;
  return kOverhead + cursor.rows.capacity() * sizeof(RecordPtr) + cursor.api_version.capacity();
}

std::string QueryCursorStore::open(std::shared_ptr<const QueryCursor> cursor, TimePoint now) {
  std::lock_guard lock(mu_);
  // The oldest lead by_age_, so the expired are a prefix of it.
  while (!by_age_.empty()) {
    auto it = cursors_.find(by_age_.begin()->second);
    if (!expired(it->second.opened_at, now)) break;
    evict_locked(it->first);
  }
  const size_t bytes = cursor_bytes(*cursor);
  while (!by_age_.empty() && bytes_ + bytes > kMemoryBudget) {
    const std::string oldest = by_age_.begin()->second;
    evict_locked(oldest);
  }
  // Never reused, not even after clear(): an old locator cannot name a new answer.
  char digits[16];
  std::snprintf(digits, sizeof digits, "%012llu",
                static_cast<unsigned long long>(++sequence_ % 1000000000000ull));
  std::string id = *to_id18(std::string("01g") + digits);
  bytes_ += bytes;
  by_age_[sequence_] = id;
  cursors_[id] = Entry{std::move(cursor), now, bytes, sequence_};
  return id;
}

std::shared_ptr<const QueryCursor> QueryCursorStore::find(std::string_view id, TimePoint now) {
  std::lock_guard lock(mu_);
  auto it = cursors_.find(id);
  if (it == cursors_.end()) return nullptr;
  if (expired(it->second.opened_at, now)) {
    evict_locked(it->first);
    return nullptr;
  }
  return it->second.cursor;
}

void QueryCursorStore::clear() {
  std::lock_guard lock(mu_);
  cursors_.clear();
  by_age_.clear();
  bytes_ = 0;
}

size_t QueryCursorStore::size() const {
  std::lock_guard lock(mu_);
  return cursors_.size();
}

size_t QueryCursorStore::bytes() const {
  std::lock_guard lock(mu_);
  return bytes_;
}

void QueryCursorStore::evict_locked(const std::string& id) {
  auto it = cursors_.find(id);
  if (it == cursors_.end()) return;
  bytes_ -= it->second.bytes;
  by_age_.erase(it->second.sequence);
  cursors_.erase(it);
}

}  // namespace fake_org::soql
