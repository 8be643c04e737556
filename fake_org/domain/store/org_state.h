#pragma once
// Where an org keeps its state besides memory, so that it outlives the
// process (a data directory: durable/org_database.h). Without one, nothing
// touches the disk. Memory stays the source for every read; this is told of
// each change and replays them at the next start.
//
// Locking rule: implementations guard themselves with leaf locks. Records
// arrive while the record store's write lock is held, and the other stores
// call put/erase/clear holding their own mutex, so those calls only queue (no
// disk, no waiting, no call back into the org). flush() writes what was queued
// and must be called holding no lock: the HTTP layer calls it before it
// answers, so every change a response shows is on disk first.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "domain/core/errors.h"
#include "record.h"

namespace fake_org {

class OrgStateSink {
 public:
  virtual ~OrgStateSink() = default;
  // A transaction committed these records (new or changed), in commit order;
  // `id_sequence` is the id generator's at the commit.
  virtual void records_committed(const std::vector<RecordPtr>& records, uint64_t id_sequence) = 0;
  // These records replaced every record (the first seed, a reset).
  virtual void records_replaced(const std::vector<RecordPtr>& records, uint64_t id_sequence) = 0;
  // Keyed state of the org's other stores; `kind` names the store (kinds below).
  virtual void put(std::string_view kind, std::string_view key, const nlohmann::json& value) = 0;
  // The same, kept as the very text given: for an entry whose bulk is itself
  // a text (a webhook's body), which as a JSON value would be escaped at
  // every write and unescaped at every start.
  virtual void put_text(std::string_view kind, std::string_view key, std::string text) = 0;
  virtual void erase(std::string_view kind, std::string_view key) = 0;
  virtual void clear(std::string_view kind) = 0;
  // Writes what was queued: ok, or why it could not (a full disk).
  virtual Status flush() = 0;
  // A flush failed and what it held was dropped: memory is ahead of the
  // disk, and the org must be built again from what the disk holds.
  virtual bool rolled_back() const { return false; }
  // Writes wait for the disk: the org was built again after a failed flush,
  // and a write is taken only once probe_disk() succeeds.
  virtual bool disk_full() const { return false; }
  // Tries a small write; ok (and writes go ahead) when the disk takes it.
  virtual Status probe_disk() { return ok_status(); }
  // Why the last write failed, or empty.
  virtual std::string disk_problem() const { return {}; }
  // A request starts on this thread: it has queued nothing yet.
  virtual void begin_request() {}
  // After a failed flush: this thread's request queued changes and all of
  // them were written (a concurrent flush took them before the failure).
  virtual bool own_changes_written() const { return false; }
  // Where it writes (a file path), for the admin API's health.
  virtual std::string location() const = 0;
};

// The kinds of keyed state an org keeps.
namespace state_kind {
inline constexpr std::string_view kOrg = "org";  // keys below
inline constexpr std::string_view kToken = "token";
inline constexpr std::string_view kIdempotency = "idempotency";
inline constexpr std::string_view kPspSession = "psp_session";
inline constexpr std::string_view kWebhook = "webhook";
}  // namespace state_kind
namespace org_state_key {
inline constexpr std::string_view kClockOffsetMs = "clock_offset_ms";
}  // namespace org_state_key

// What a restart found of an org: its records in creation order, the last
// record id sequence number, and the clock's offset.
struct SavedOrg {
  std::vector<RecordPtr> records;
  uint64_t id_sequence = 0;
  int64_t clock_offset_ms = 0;
};

}  // namespace fake_org
