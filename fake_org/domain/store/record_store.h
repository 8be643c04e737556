#pragma once
// The org's records: typed by object API name, addressed by 18-character
// record id or GUID, with hash indexes for every lookup a request makes.
//
// Locking rule: one reader-writer lock (mu_) guards all state. Readers take
// it shared through read(). A change goes through write(), which holds it
// exclusive for the whole request, or write_optimistic(), which runs the
// request holding no lock at all: each of its reads takes mu_ shared for
// that read alone, and the commit takes it exclusive only to check that no
// transaction committed since the request began wrote an id, GUID or index
// key it read, else runs the request again through write(). Either way a
// request's checks and writes are serialisable (two concurrent
// deduplicating creates cannot both miss the same match). Records are
// immutable once stored (RecordPtr); a transaction stages copies and commit
// swaps them in, so a failed request leaves nothing. Only replace_all() and
// restore() drop records, and they first take reset_mu_ exclusive, which an
// optimistic request holds shared while it runs: an id it found is never
// gone by its next read. reset_mu_ is taken before mu_, never after. The
// write-lock statistics are written only while holding mu_ exclusive.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "domain/core/clock.h"
#include "domain/core/errors.h"
#include "transaction.h"

namespace fake_org {

// The platform's error code for a write past the org's storage.
inline constexpr const char* kStorageLimitExceeded = "STORAGE_LIMIT_EXCEEDED";

// Where one object's records keep their bytes (intent-bench's breakdown):
// their own blocks, and their share of the store's tables (the lookups by id
// and GUID and the slot array by record, each index by its entries).
struct ObjectMemory {
  std::string object;
  size_t records = 0;
  size_t record_bytes =
      0;  // each record's block (fields and GUID inside), as a slab or malloc sizes it
  size_t index_bytes = 0;  // its share of the tables
  // record_bytes in parts: the Record itself, its fields' entries (4 or 8
  // bytes each), their values, its GUID's text, and what its allocator adds
  // (a slab's rounding to 8; malloc's 8-byte header and rounding to 16).
  size_t header_bytes = 0, entry_bytes = 0, value_bytes = 0, guid_bytes = 0, malloc_bytes = 0;
  // value_bytes by field: the bytes its values take and how many records
  // have it (a value whose bytes another field holds counts 0).
  struct Field {
    std::string name;
    size_t records = 0;
    size_t bytes = 0;
  };
  std::vector<Field> fields;
  // index_bytes by table: the lookups by id and GUID, the slot array and the
  // object's list (shared by count), each index of the object.
  std::vector<std::pair<std::string, size_t>> tables;
};

// How long writers held the store's lock exclusive, and how optimistic
// writes fared (intent-bench prints it).
struct WriteLockStats {
  uint64_t commits = 0;     // exclusive holds that committed
  uint64_t optimistic = 0;  // of them: the request ran before the exclusive lock
  uint64_t retried = 0;     // optimistic requests that met a conflicting commit
  // every request's exclusive hold, failed and conflicting ones too
  uint64_t holds = 0;
  // holds by whole microseconds held; the last bucket is "at least 1 ms"
  std::array<uint64_t, 1001> by_us{};
  // The hold time (µs) at or under which `share` of the holds fall.
  double percentile_us(double share) const;
};

class RecordStore;

// The transaction a thread's RecordStore::write_enclosing runs, and its store.
struct EnclosingWrite {
  const RecordStore* store = nullptr;
  Transaction* tx = nullptr;
};

class RecordStore final : public RecordReader {
 public:
  explicit RecordStore(std::vector<IndexSpec> indexes = {});

  // Runs fn inside an exclusive transaction; commits when fn returns ok.
  // After a commit, `committed` (when given) runs still holding the lock:
  // what it announces (events, sessions) is then ordered as the transactions
  // are, so a later transaction's announcements cannot overtake this one's.
  // It must only take leaf locks (see org.h), touch no file or console, and
  // must not fail; slower follow-up work runs after write() returns.
  // A commit that would take the store past its record cap
  // (set_max_records) does not happen: the typed forms answer
  // storage_limit_error(), the untyped ones false.
  template <typename T>
  Result<T> write(const std::function<Result<T>(Transaction&)>& fn,
                  const std::function<void()>& committed = nullptr) {
    std::optional<Result<T>> out;
    const bool taken = write_untyped(
        [&](Transaction& tx) {
          out.emplace(fn(tx));
          return out->ok();
        },
        committed);
    if (!taken) return storage_limit_error();
    return std::move(*out);
  }
  // The same, with fn run holding no lock (beside readers and other
  // writers; each read it makes through the transaction takes the lock
  // shared for that read); the exclusive lock is held only to check fn's
  // reads against what committed meanwhile and to commit. fn may run twice:
  // it must read the store only through the transaction and change nothing
  // but the transaction and its own locals. Its reads may straddle another
  // commit: a run that read such a commit's writes, whether it succeeded,
  // failed or threw, runs again through write(), so only an outcome of one
  // consistent state is returned.
  template <typename T>
  Result<T> write_optimistic(const std::function<Result<T>(Transaction&)>& fn,
                             const std::function<void()>& committed = nullptr) {
    std::optional<Result<T>> out;
    const bool taken = write_optimistic_untyped(
        [&](Transaction& tx) {
          out.emplace(fn(tx));
          return out->ok();
        },
        committed);
    if (!taken) return storage_limit_error();
    return std::move(*out);
  }
  // write() and write_optimistic() without a result type: fn tells whether
  // to commit (the typed forms keep fn's result in their own frame). False
  // only when the record cap refused the commit.
  bool write_untyped(const std::function<bool(Transaction&)>& fn,
                     const std::function<void()>& committed = nullptr);
  bool write_optimistic_untyped(const std::function<bool(Transaction&)>& fn,
                                const std::function<void()>& committed = nullptr);

  // The most records the store holds (deleted ones too, as they take memory);
  // 0: no cap. Commits that would add records past it are refused. Set
  // before writers run (the fixture's org.max_records).
  void set_max_records(size_t max) { max_records_ = max; }
  size_t max_records() const { return max_records_; }
  // What a refused commit answers: the platform's STORAGE_LIMIT_EXCEEDED,
  // as a DML exception words it, and how to raise the cap.
  ApiError storage_limit_error() const;
  // For tests: runs in write_optimistic between the request and its commit,
  // holding no lock (another writer may commit there). Set before writers run.
  void set_between_phases_for_test(std::function<void()> fn) { between_phases_ = std::move(fn); }
  // For tests: true while a reset waits for optimistic runs or holds them off.
  bool reset_waiting_for_test() const {
    if (!reset_mu_.try_lock_shared()) return true;
    reset_mu_.unlock_shared();
    return false;
  }
  WriteLockStats write_lock_stats() const {
    std::shared_lock lock(mu_);
    return stats_;
  }
  // For tests, from a thread other than the writer's: true while a writer
  // holds the lock or turns new readers away while it waits for it (a
  // reader would have to wait).
  bool is_write_locked() const {
    if (!mu_.try_lock_shared()) return true;
    mu_.unlock_shared();
    return false;
  }
  // Runs fn holding the lock shared and returns what it returns.
  template <typename F>
  auto read(F&& fn) const {
    using R = std::invoke_result_t<F&, const RecordStore&>;
    if constexpr (std::is_void_v<R>) {
      read_untyped([&](const RecordStore& store) { fn(store); });
    } else {
      std::optional<R> out;
      read_untyped([&](const RecordStore& store) { out.emplace(fn(store)); });
      return std::move(*out);
    }
  }
  void read_untyped(const std::function<void(const RecordStore&)>& fn) const;

  // Runs fn with every write this thread makes to the store meanwhile
  // (write(), write_optimistic()) joined into one transaction, which
  // commits only when fn returns true: an all-or-none composite request
  // runs each subrequest's own handler and still writes all or nothing.
  // The lock is held exclusive throughout. A joined write that fails
  // leaves the transaction as it was before that write (a savepoint); one
  // that gives `committed` is refused (std::logic_error), since what it
  // announces could not be withdrawn. This thread's reads meanwhile (read(),
  // get, get_by_guid, find, current, staged_new_of) see the transaction's
  // staged records; other threads wait for the commit.
  void write_enclosing(const std::function<bool()>& fn);
  // Inside write_enclosing: the staged record for `r`'s id, else r itself;
  // outside it, r. What a scan of ids_of() shows a record as.
  RecordPtr current(const RecordPtr& r) const;
  // Inside write_enclosing: the records of `object` the transaction created
  // (not yet committed), in staging order; outside it, none. A scan of
  // ids_of() adds them.
  std::vector<RecordPtr> staged_new_of(std::string_view object) const;

  // Unlocked accessors: call inside read()/write() or where no writer runs.
  // Inside write_enclosing they read through its transaction.
  RecordPtr get(std::string_view id18) const override;
  RecordPtr get_by_guid(std::string_view guid) const override;
  std::vector<std::string> find(std::string_view index,
                                const std::vector<std::string>& values) const override;
  // Ids of one object in creation order (admin listing).
  IdList ids_of(std::string_view object) const;
  // Ids of an ordered index whose key is at most `value` (inclusive), in key
  // order; at most `limit`. Committed state only.
  std::vector<std::string> up_to(std::string_view index, const std::string& value,
                                 size_t limit = SIZE_MAX) const;
  std::vector<std::string> objects() const;
  // Bytes by object, walking every record: for benchmarks, not requests.
  std::vector<ObjectMemory> memory_by_object() const;

  size_t size() const { return slots_.size(); }
  // Bumped by every commit and restore: equal versions mean equal records
  // (answers built from them may be reused).
  uint64_t version() const { return version_; }
  const IndexSpec* index_spec(std::string_view name) const;
  // Every index kept (a query planner picks from them).
  const std::vector<IndexSpec>& indexes() const { return specs_; }

  // Replaces every record with what fn stages into an empty store (the admin
  // reset and the initial seed); on failure the old records stay.
  Status replace_all(const std::function<Status(Transaction&)>& fn);
  // Fills an empty store with records saved earlier (a data directory at
  // start-up), indexing them as commits would; tells no commit observer.
  // The lookup tables are filled in parallel, one thread to a table.
  void restore(std::vector<RecordPtr> records);

  // Told of every commit while the lock is still held exclusive, in commit
  // order: the records it wrote, and whether they replaced every record
  // (replace_all). It must only queue (see org_state.h). Set before writers run.
  using CommitObserver = std::function<void(const std::vector<RecordPtr>&, bool replaced_all)>;
  void set_commit_observer(CommitObserver observer) { observer_ = std::move(observer); }

 private:
  friend class Transaction;
  // The committed state alone (what the accessors read outside
  // write_enclosing, and what a transaction reads under its staging).
  RecordPtr stored_get(std::string_view id18) const;
  RecordPtr stored_get_by_guid(std::string_view guid) const;
  std::vector<std::string> stored_find(std::string_view index,
                                       const std::vector<std::string>& values) const;
  // This thread's write_enclosing transaction (EnclosingWrite), if any.
  static inline thread_local EnclosingWrite enclosing_{};
  Transaction* enclosing_tx() const { return enclosing_.store == this ? enclosing_.tx : nullptr; }
  // A write joined into the enclosing transaction `tx`; false when the
  // record cap refused it (rolled back to before it).
  bool write_joined(Transaction& tx, const std::function<bool(Transaction&)>& fn,
                    const std::function<void()>& committed);
  // Committing `tx` would take the store past max_records_ (lock held).
  bool over_cap_locked(const Transaction& tx) const;
  size_t max_records_ = 0;
  // Times one exclusive hold into the statistics; a thread's guard against
  // taking the lock twice (both in record_store.cpp).
  class HoldTimer;
  class Holding;
  // The optimistic run of write_optimistic_untyped: true when it decided the
  // outcome (committed, or failed on a consistent state), false when fn must
  // run again under the exclusive lock.
  bool try_optimistic(const std::function<bool(Transaction&)>& fn,
                      const std::function<void()>& committed);
  // What one commit wrote: hashes of ids, GUID keys and index keys (old and new).
  struct CommitWrites {
    uint64_t version;
    std::vector<uint64_t> keys;
  };
  // The log keeps the last 512 commits' writes, or fewer when they wrote more
  // than 65,536 keys together (a seed or collection run writes thousands): an
  // optimistic writer older than the log runs again, which is always safe.
  static constexpr size_t kCommitLogSize = 512;
  static constexpr size_t kCommitLogKeys = 65536;
  size_t position_of(const IndexSpec& spec) const {
    return static_cast<size_t>(&spec - specs_.data());
  }
  void commit_locked(Transaction& tx, bool replaced_all = false);
  // The version an optimistic request begins at, read without the lock: a
  // commit under way may have counted itself already, but every read the
  // request then makes takes the lock and so sees that commit whole.
  uint64_t version_now() const { return version_.load(std::memory_order_acquire); }
  // Whether nothing committed since `seen` wrote what tx read.
  bool read_unchanged(Transaction& tx, uint64_t seen) const;
  // Commits tx if nothing committed since `seen` wrote what it read (true);
  // false, committing nothing, if something did.
  bool commit_if_unchanged(Transaction& tx, uint64_t seen, const std::function<void()>& committed);
  // What restore() does with the records in slots_: each table filled by
  // one job, the jobs spread over threads; false when two records have one
  // id (nothing is filed then).
  bool file_all_locked();
  void file_index_locked(size_t n);
  // The same, holding mu_, with tx's reads sorted.
  bool unchanged_since_locked(const Transaction& tx, uint64_t seen) const;
  void clear_locked();
  std::optional<SlotTable::Slot> slot_of(std::string_view id18) const;
  void index_insert(SlotTable::Slot slot,
                    const std::vector<std::pair<uint32_t, const std::string*>>& keys,
                    std::vector<uint64_t>& written);
  void index_erase(SlotTable::Slot slot, std::vector<uint64_t>& written);
  std::optional<std::string> key_of(const IndexSpec& spec, const Record& r) const;
  // memory_by_object's share of the tables every record is in (`guids`:
  // the records with a GUID, by object as in `out`).
  void add_shared_tables(std::vector<ObjectMemory>& out, const std::vector<size_t>& guids) const;
  static uint32_t slot_hash(std::string_view key) {
    return SlotTable::hash_of(std::hash<std::string_view>{}(key));
  }

  mutable util::WriterFirstSharedMutex mu_;
  // Held shared by optimistic requests while they run, exclusive by what
  // drops records (see the locking rule).
  mutable util::WriterFirstSharedMutex reset_mu_;
  // Every record, by creation; a record replaced keeps its slot. The tables
  // below file slots, never copies of ids or keys: a lookup checks each
  // candidate's own id or key, so a hash collision never answers wrongly.
  std::vector<RecordPtr> slots_;
  SlotTable by_id_;    // hash of the id
  SlotTable by_guid_;  // hash of guid_key
  // per object, its records' slots by creation
  std::map<std::string, IdList::Slots, std::less<>> ids_by_object_;
  std::vector<IndexSpec> specs_;
  std::map<std::string, size_t, std::less<>> spec_by_name_;  // name -> position in specs_
  // per object (the address of its interned name), the positions in specs_
  // of its indexes: a write keys a record for its own object's indexes only.
  std::unordered_map<const std::string*, std::vector<uint32_t>> specs_by_object_;
  const std::vector<uint32_t>& specs_of(const ObjectName& object) const;
  // per index (position in specs_): hash of the index key -> slots
  std::vector<SlotTable> indexes_;
  // per ordered index (position in specs_; empty for the others): (key, id)
  std::vector<std::set<std::pair<std::string, std::string>>> ordered_;
  // Commits counted since construction; the log holds the writes of those
  // after log_floor_, for optimistic writers to check their reads against.
  std::atomic<uint64_t> version_{0};  // written holding mu_ exclusive
  uint64_t log_floor_ = 0;
  std::deque<CommitWrites> log_;
  size_t log_keys_ = 0;  // keys held in log_
  WriteLockStats stats_;
  std::function<void()> between_phases_;
  CommitObserver observer_;
};

// The key an id, GUID key or index key has in read and write sets: kind 0 is
// an id, 1 a GUID key, 2 + n a key of index n.
uint64_t write_key(uint64_t kind, std::string_view text);

}  // namespace fake_org
