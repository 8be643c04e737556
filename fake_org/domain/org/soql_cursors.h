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
  // As the platform: a cursor idle for 15 minutes (org time) is gone.
  static constexpr Millis kIdleTimeout{15 * 60 * 1000};
  // Open cursors are capped by count and by the records they hold (a
  // pointer each); past either cap the least recently used go first.
  static constexpr size_t kMaxCursors = 50;
  static constexpr size_t kMaxRows = 5'000'000;

  // The new cursor's id: 18 characters with the platform's key prefix 01g.
  std::string open(std::shared_ptr<const QueryCursor> cursor, TimePoint now);
  // The cursor, its idle time restarted; null when unknown or expired.
  std::shared_ptr<const QueryCursor> find(std::string_view id, TimePoint now);
  // An admin reset: record ids restart, so no old cursor may survive it.
  void clear();
  size_t size() const;

 private:
  struct Entry {
    std::shared_ptr<const QueryCursor> cursor;
    TimePoint last_used{};
    uint64_t opened = 0;
  };
  void evict_locked(const std::string& id);

  mutable std::mutex mu_;
  std::map<std::string, Entry, std::less<>> cursors_;
  size_t rows_ = 0;
  uint64_t sequence_ = 0;
};

}  // namespace fake_org::soql
