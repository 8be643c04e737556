#pragma once
// One org: its configuration, clock, ids and records. An object, not a
// global, so one process can serve several orgs side by side. What lies
// outside the domain (tokens, webhook delivery, contract checks) the app
// wires around it (app/org_factory.h); the domain reaches out only through
// the EventSink it is given.
//
// Locking rule: Org adds no lock of its own. Config and the PSP callback
// secret are immutable; the clock and id generator are internally
// thread-safe (atomics); records, idempotency entries, PSP sessions and
// query cursors each guard themselves with one mutex. The event sink is set while wiring,
// before requests arrive.
// Lock order: RecordStore's lock may be held while taking PspSessionStore's
// (a collection completes its session inside the transaction) and while
// events are published (RecordStore::write's `committed` step: the sink's
// queues). Those are leaves: none calls back into the org, waits, or touches
// a file or the console while holding its lock, so publishing under the
// store's write lock cannot deadlock, and one intent's events queue in the
// order their transactions committed (a collection run committing right
// after a payment cannot put its installment.created ahead of the payer's
// status_change). The slow part of publishing runs in EventSink::flush,
// after the request released the store's lock. Idempotency claims wrap a
// request from outside the store lock; a claim completes in the commit,
// under it (IdempotencyStore's mutex is a leaf too).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/core/errors.h"

namespace fake_org {

// The org holds its stores by pointer and names them here only: a change to
// one of them (record_store.h, most often) rebuilds what uses that store,
// not everything that reads the org. Include the store's own header to use
// it.
class AdjustableClock;
class Clock;
class EventSink;
class IdGenerator;
class IdempotencyStore;
class PspSessionStore;
class RandomSource;
struct Record;
class RecordPtr;
class RecordReader;
class RecordStore;
class Transaction;
class OrgStateSink;
struct DomainEvent;
struct IndexSpec;
struct OrgConfig;
struct SavedOrg;
namespace soql {
class QueryCursorStore;
}

struct OrgDeps {
  std::shared_ptr<const Clock> base_clock;  // default: SystemClock
  std::shared_ptr<RandomSource> random;     // default: OsRandom
  // Where the org's changes go besides memory (a data directory); null: nowhere.
  std::shared_ptr<OrgStateSink> state;
  // What a data directory kept: the org starts from it instead of its seed.
  std::shared_ptr<SavedOrg> saved;
};

class Org {
 public:
  // Fails (with messages naming the fixture) when seed records are invalid.
  static Result<std::shared_ptr<Org>> create(OrgConfig config, OrgDeps deps = {});
  // The same with a configuration shared by several orgs (an org registry's
  // orgs of one fixture keep one copy of it).
  static Result<std::shared_ptr<Org>> create(std::shared_ptr<const OrgConfig> config,
                                             OrgDeps deps = {});

  const OrgConfig& config() const { return *config_; }
  std::shared_ptr<const OrgConfig> config_ptr() const { return config_; }
  AdjustableClock& clock() { return *clock_; }
  std::shared_ptr<AdjustableClock> clock_ptr() const { return clock_; }
  IdGenerator& ids() { return *ids_; }
  std::shared_ptr<IdGenerator> ids_ptr() const { return ids_; }
  RecordStore& records() { return *store_; }
  const RecordStore& records() const { return *store_; }
  const std::string& org_id() const { return org_id_; }
  IdempotencyStore& idempotency() { return *idempotency_; }
  PspSessionStore& psp_sessions() { return *psp_sessions_; }
  // Open SOQL query locators (soql.h). A query reads the org yet opens a
  // cursor, so a const org hands it out; the store locks itself.
  soql::QueryCursorStore& query_cursors() const { return *query_cursors_; }
  // The simulated PSP's key for signing its callbacks (events/psp_signature.h):
  // random at each start, from the OS (not the possibly seeded id generator),
  // never shown; a reset keeps it.
  const std::string& psp_callback_secret() const { return psp_callback_secret_; }
  // Where committed changes, clock moves and resets announce themselves
  // (webhooks). Set once while wiring, before requests arrive; a
  // RecordingEventSink until then.
  EventSink& events() { return *events_; }
  void set_event_sink(std::shared_ptr<EventSink> sink) { events_ = std::move(sink); }
  ~Org();
  Org(const Org&) = delete;
  Org& operator=(const Org&) = delete;

  // One change whose webhook events must queue in commit order: `change`
  // fills `events`; once it commits, `on_commit` and then the events' publish
  // run still under the store's lock (see the lock order above), and the sink
  // is flushed after the lock is released. A failed change publishes nothing.
  // kOptimistic runs `change` without the exclusive lock (RecordStore::
  // write_optimistic): it may then run twice, so it must change nothing but
  // the transaction and `events` (which each run starts empty).
  enum class Locking { kExclusive, kOptimistic };
  template <typename T>
  Result<T> write_publishing(
      const std::function<Result<T>(Transaction&, std::vector<DomainEvent>&)>& change,
      const std::function<void()>& on_commit = nullptr, Locking locking = Locking::kExclusive) {
    std::optional<Result<T>> out;
    const bool taken = write_publishing_untyped(
        [&](Transaction& tx, std::vector<DomainEvent>& events) {
          out.emplace(change(tx, events));
          return out->ok();
        },
        on_commit, locking);
    if (!taken) return storage_limit_error();
    return std::move(*out);
  }
  // The same without a result type: `change` tells whether to commit; false
  // when the record cap refused the commit (RecordStore::set_max_records).
  bool write_publishing_untyped(
      const std::function<bool(Transaction&, std::vector<DomainEvent>&)>& change,
      const std::function<void()>& on_commit, Locking locking);
  // What a write past the record cap answers (RecordStore::storage_limit_error).
  ApiError storage_limit_error() const;
  // The org clock moved (admin API): work that came due runs now.
  void clock_changed();
  // The data directory's sink, or null (org_state.h).
  const std::shared_ptr<OrgStateSink>& state() const { return state_; }

  // Back to the fixture's initial records and real time. Id sequences restart,
  // so the same scenario sees the same record ids after a reset.
  void reset();

  // The record path of the platform: /services/data/vNN.0/sobjects/{Type}/{Id}.
  std::string record_url(const Record& r) const;
  std::string record_url(std::string_view object, std::string_view id) const;
  // Resolves a 15/18-character record id or a GUID to the stored record.
  // Code 200 (invalid data, as a malformed OneTime.Id) when it is neither
  // form; kNotFound when nothing has it.
  Result<RecordPtr> find_record(std::string_view id_or_guid, std::string_view what) const;
  // The same inside a read() or write(): a view that reads more records must
  // resolve its id there too, in the same lock, or an admin reset between two
  // locks could leave the id unknown or (ids restart) naming another record.
  static Result<RecordPtr> find_record(const RecordReader& records, std::string_view id_or_guid,
                                       std::string_view what);

 private:
  Org(std::shared_ptr<const OrgConfig> config, std::shared_ptr<AdjustableClock> clock,
      std::shared_ptr<IdGenerator> ids);
  Status seed();
  void keep_state_in(std::shared_ptr<OrgStateSink> sink);
  void save_clock_offset();

  std::shared_ptr<const OrgConfig> config_;
  std::shared_ptr<AdjustableClock> clock_;
  std::shared_ptr<IdGenerator> ids_;
  std::unique_ptr<RecordStore> store_;
  std::string org_id_;
  std::unique_ptr<IdempotencyStore> idempotency_;
  std::unique_ptr<PspSessionStore> psp_sessions_;
  std::unique_ptr<soql::QueryCursorStore> query_cursors_;
  std::string psp_callback_secret_;
  std::shared_ptr<EventSink> events_;
  std::shared_ptr<OrgStateSink> state_;
};

// Indexes every org keeps: one per deduplication rule of the fixture
// ("dedup:<Object>:<n>") plus the domain's own lookups.
std::vector<IndexSpec> org_indexes(const OrgConfig& config);

// Objects whose records carry a GUID (the package's objects; spec 2.4, 2.5).
bool object_has_guid(std::string_view object);

}  // namespace fake_org
