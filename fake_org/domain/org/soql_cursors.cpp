#include "soql_cursors.h"

#include <cstdio>

#include "domain/core/ids.h"
#include "domain/store/slot_table.h"

namespace fake_org::soql {

namespace {
bool expired(TimePoint last_used, TimePoint now) {
  return now - last_used > QueryCursorStore::kIdleTimeout;
}
}  // namespace

std::string QueryCursorStore::open(std::shared_ptr<const QueryCursor> cursor, TimePoint now) {
  std::lock_guard lock(mu_);
  for (auto it = cursors_.begin(); it != cursors_.end();) {
    auto next = std::next(it);
    if (expired(it->second.last_used, now)) evict_locked(it->first);
    it = next;
  }
  const size_t rows = cursor->rows.size();
  while (!cursors_.empty() && (cursors_.size() >= kMaxCursors || rows_ + rows > kMaxRows)) {
    auto lru = cursors_.begin();
    for (auto it = cursors_.begin(); it != cursors_.end(); ++it)
      if (it->second.last_used < lru->second.last_used ||
          (it->second.last_used == lru->second.last_used && it->second.opened < lru->second.opened))
        lru = it;
    evict_locked(lru->first);
  }
  // Never reused, not even after clear(): an old locator cannot name a new answer.
  char digits[16];
  std::snprintf(digits, sizeof digits, "%012llu",
                static_cast<unsigned long long>(++sequence_ % 1000000000000ull));
  std::string id = *to_id18(std::string("01g") + digits);
  rows_ += rows;
  cursors_[id] = Entry{std::move(cursor), now, sequence_};
  return id;
}

std::shared_ptr<const QueryCursor> QueryCursorStore::find(std::string_view id, TimePoint now) {
  std::lock_guard lock(mu_);
  auto it = cursors_.find(id);
  if (it == cursors_.end()) return nullptr;
  if (expired(it->second.last_used, now)) {
    evict_locked(it->first);
    return nullptr;
  }
  it->second.last_used = std::max(it->second.last_used, now);
  return it->second.cursor;
}

void QueryCursorStore::clear() {
  std::lock_guard lock(mu_);
  cursors_.clear();
  rows_ = 0;
}

size_t QueryCursorStore::size() const {
  std::lock_guard lock(mu_);
  return cursors_.size();
}

void QueryCursorStore::evict_locked(const std::string& id) {
  auto it = cursors_.find(id);
  if (it == cursors_.end()) return;
  rows_ -= it->second.cursor->rows.size();
  cursors_.erase(it);
}

}  // namespace fake_org::soql
