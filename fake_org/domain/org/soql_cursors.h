#pragma once
// Query locators: what a query answered beyond its first batch, kept so
// GET /services/data/vNN.0/query/{locator} can serve the rest, as the
// platform's server-side cursors do.
//
// Locking rule: one std::mutex guards the table. A cursor is immutable once
// opened (shared_ptr<const>), so its pages are built outside the lock. The
// lock is a leaf: it is never held while taking another (the record store's
// included), and nothing blocks while holding it.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "domain/config/org_config.h"
#include "domain/core/clock.h"
#include "domain/store/record.h"
#include "domain/store/slot_table.h"

namespace fake_org::soql {

struct BoundQuery;

// One query's answer: every record it matched as they were when it ran
// (records are immutable, so later changes do not move the pages), with
// what is needed to show them again.
struct QueryCursor {
  std::shared_ptr<const BoundQuery> query;
  std::vector<RecordPtr> rows;
  size_t batch_size = 2000;
  std::string api_version;
};

class QueryCursorStore {
 public:
  // As the platform since API 56.0: a cursor and its results live two days
  // (org time) from the query that opened it, however often it is read, and
  // any number may be open.
  static constexpr Millis kLifetime{2LL * 24 * 60 * 60 * 1000};
  // What the fake can afford instead of a count: the bytes the open cursors
  // hold (cursor_bytes). Past it the oldest go first; the records themselves
  // are shared with the store, so only the pointers count.
  static constexpr size_t kMemoryBudget = size_t{256} << 20;
  static size_t cursor_bytes(const QueryCursor& cursor);

  // The new cursor's id: 18 characters with the platform's key prefix 01g.
  std::string open(std::shared_ptr<const QueryCursor> cursor, TimePoint now);
  // The cursor; null when unknown, evicted or expired.
  std::shared_ptr<const QueryCursor> find(std::string_view id, TimePoint now);
  // An admin reset: record ids restart, so no old cursor may survive it.
  void clear();
  size_t size() const;
  size_t bytes() const;

 private:
  struct Entry {
    std::shared_ptr<const QueryCursor> cursor;
    TimePoint opened_at{};
    size_t bytes = 0;
    uint64_t sequence = 0;
  };
  void evict_locked(const std::string& id);

  mutable std::mutex mu_;
  std::map<std::string, Entry, std::less<>> cursors_;
  // Ids in the order opened: the front is the oldest (ids never repeat).
  std::map<uint64_t, std::string> by_age_;
  size_t bytes_ = 0;
  uint64_t sequence_ = 0;
};

}  // namespace fake_org::soql
