#pragma once
// One org's data directory database (README "Durability"): a SQLite file in
// WAL mode with the org's records, its keyed state (tokens, idempotency
// entries, PSP sessions, webhooks) and its meta data (format, fixture, id
// sequence). Memory stays the source for reads; this is written as changes
// commit and read once, at start-up.
//
// Tables, for a developer with the sqlite3 shell:
//   records(id, object, guid, fields JSON, created_ms, modified_ms,
//           awaiting_payer, deleted)       one row per record, creation order
//   state(kind, key, value JSON)           the other stores' entries
//   meta(key, value)                       format, fixture, fixture_digest, id_sequence
//
// Group commit: changes queue in memory (OrgStateSink's calls, under the
// callers' locks), each numbered; flush() takes the writer's lock, drains the
// whole queue into one SQLite transaction and commits it. A request whose
// changes a concurrent flush drained waits for that flush's commit (the
// writer's lock) and returns, so under load one disk write serves many
// requests, and none answers before its changes are on disk.
//
// A failed flush (a full disk) drops what it held and every change queued
// after it: the requests waiting for it answer that nothing was applied, and
// the serving layer builds the org again from this file (rolled_back()), so
// memory never keeps what the disk refused. The file built again opens with
// `disk_full`: writes then wait until probe_disk() gets a small write through.
// A request waits for every change queued before its flush, others' too; if
// its own were written before a later batch failed, it stands.
//
// Locking rule: q_mu_ (a leaf) guards queue_ and enqueued_; problem_mu_ (a
// leaf) the last failure's message; io_mu_ guards
// the connection and its statements (start-up reads too: the webhook
// engine's workers flush as soon as it is restored) and is held for one
// flush; flush takes the swap guard's lock and then q_mu_ inside io_mu_ only
// to swap the queue out, never the other way round (a committing writer
// holds the record store's lock and takes only q_mu_).
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "domain/store/org_state.h"
#include "durable/sqlite.h"

namespace fake_org::durable {

// What each --sync setting survives (docs/durability.md).
enum class Sync {
  kFull,    // fsync at every commit: a process crash and a power loss
  kNormal,  // WAL's default: a process crash; a power loss may lose the last commits
  kOff,     // no fsync: a process crash; a power loss may damage the file
};
std::optional<Sync> parse_sync(std::string_view text);

struct DatabaseOptions {
  std::string path;
  std::string fixture;         // the fixture's name, for messages
  std::string fixture_digest;  // OrgConfig::digest: a file made from another is refused
  Sync sync = Sync::kNormal;
  bool disk_full = false;  // opened after a failed write: writes wait for probe_disk()
};

class OrgDatabase final : public OrgStateSink {
 public:
  // 2: a webhook's entry is its state as JSON, a newline, then its body
  // (put_text); format 1's entries, all JSON, are read as they were.
  static constexpr int kFormat = 2;
  // Opens or creates the file. Refuses, with what to do, a file made from
  // another fixture or by a newer format, and reports a damaged one in
  // SQLite's words.
  static std::shared_ptr<OrgDatabase> open(const DatabaseOptions& options, std::string& error);

  // Start-up only, before any change queues:
  // what the file kept, or null when it is new (the org then seeds).
  std::shared_ptr<SavedOrg> saved_org(std::string& error);
  // The keyed entries of one kind, as they were put.
  std::vector<std::pair<std::string, nlohmann::json>> saved(std::string_view kind,
                                                            std::string& error);
  // The same, as the texts that were put (put_text's, or put's JSON text).
  std::vector<std::pair<std::string, std::string>> saved_texts(std::string_view kind,
                                                               std::string& error);

  void records_committed(const std::vector<RecordPtr>& records, uint64_t id_sequence) override;
  void records_replaced(const std::vector<RecordPtr>& records, uint64_t id_sequence) override;
  void put(std::string_view kind, std::string_view key, const nlohmann::json& value) override;
  void put_text(std::string_view kind, std::string_view key, std::string text) override;
  void erase(std::string_view kind, std::string_view key) override;
  void clear(std::string_view kind) override;
  Status flush() override;
  std::string location() const override { return options_.path; }
  bool rolled_back() const override { return rolled_back_.load(std::memory_order_acquire); }
  bool disk_full() const override;
  Status probe_disk() override;
  std::string disk_problem() const override;
  void begin_request() override;
  bool own_changes_written() const override;
  // Flushes and closes the file (SQLite checkpoints its WAL), for a process
  // that then exits without destroying the org; a later flush fails, saying
  // so. What the flush answered.
  Status close();

  // Runs flush's take of the queue inside `guard`, which the wiring makes
  // the record store's lock (shared): a commit queues its records and then
  // the webhook events it published, and a flush taking the queue between
  // the two would let a crash keep an intent without its webhooks. Set while
  // wiring, before any flush.
  using SwapGuard = std::function<void(const std::function<void()>& swap)>;
  void set_swap_guard(SwapGuard guard) { swap_guard_ = std::move(guard); }
  // Disk transactions committed so far, and changes they carried (tests, bench).
  uint64_t flushes() const { return flushes_.load(); }

 private:
  struct Op {
    enum Type { kRecords, kReplaceRecords, kPut, kErase, kClear } type;
    std::vector<RecordPtr> records;
    uint64_t id_sequence = 0;
    std::string kind, key, value;
  };
  OrgDatabase(DatabaseOptions options, std::unique_ptr<Database> db)
      : options_(std::move(options)), db_(std::move(db)) {}
  std::optional<std::string> prepare_schema();
  std::optional<std::string> check_meta();
  std::optional<std::string> apply(const Op& op);
  std::optional<std::string> write_record(const Record& r);
  Status read_all_records(std::vector<RecordPtr>& out);
  Status data_failure(const std::string& error) const;
  Status not_applied() const;
  std::vector<std::pair<std::string, std::string>> saved_texts_locked(std::string_view kind,
                                                                      std::string& error);
  std::vector<std::pair<std::string, nlohmann::json>> saved_locked(std::string_view kind,
                                                                   std::string& error);
  void enqueue(Op op);

  const DatabaseOptions options_;
  std::mutex io_mu_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Statement> upsert_record_, put_state_, erase_state_, clear_state_, set_sequence_;
  SwapGuard swap_guard_;
  std::mutex q_mu_;
  std::vector<Op> queue_;
  uint64_t enqueued_ = 0;             // changes queued since open
  std::atomic<uint64_t> written_{0};  // of those, the first written_ are on disk
  std::atomic<uint64_t> flushes_{0};
  std::atomic<bool> rolled_back_{false};  // a flush failed: every later one fails too
  std::atomic<bool> paused_{false};       // writes wait for probe_disk()
  mutable std::mutex problem_mu_;         // a leaf: guards problem_
  std::string problem_;
};

}  // namespace fake_org::durable
