#include "org_database.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

namespace fake_org::durable {

namespace {

const char* const kSchema = R"(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records(
  id TEXT PRIMARY KEY, object TEXT NOT NULL, guid TEXT NOT NULL, fields TEXT NOT NULL,
  created_ms INTEGER NOT NULL, modified_ms INTEGER NOT NULL,
  awaiting_payer INTEGER NOT NULL, deleted INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS state(
  kind TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY(kind, key)) WITHOUT ROWID;
)";

const char* sync_pragma(Sync sync) {
  switch (sync) {
    case Sync::kFull:
      return "PRAGMA synchronous=FULL";
    case Sync::kOff:
      return "PRAGMA synchronous=OFF";
    case Sync::kNormal:
      break;
  }
  return "PRAGMA synchronous=NORMAL";
}

int64_t ms(TimePoint t) {
  return t.time_since_epoch().count();
}

}  // namespace

std::optional<Sync> parse_sync(std::string_view text) {
  if (text == "full") return Sync::kFull;
  if (text == "normal") return Sync::kNormal;
  if (text == "off") return Sync::kOff;
  return std::nullopt;
}

namespace {

// SQLite takes an empty file for a new database, and the org would seed from
// its fixture over what a full disk or a crash cut short.
bool empty_without_log(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size != 0) return false;
  const auto log = std::filesystem::file_size(path + "-wal", ec);
  return ec || log == 0;
}

}  // namespace

std::shared_ptr<OrgDatabase> OrgDatabase::open(const DatabaseOptions& options, std::string& error) {
  if (empty_without_log(options.path)) {
    error = options.path +
            " is empty (0 bytes), though fake-org writes every data file whole: a full disk "
            "or a copy may have cut it short. Nothing was changed: move the file away to "
            "start this org from its fixture, or start with --reset-data to discard the data "
            "directory";
    return nullptr;
  }
  auto db = Database::open(options.path, true, error);
  if (!db) {
    error = options.path + ": " + error;
    return nullptr;
  }
  std::shared_ptr<OrgDatabase> out(new OrgDatabase(options, std::move(db)));
  out->paused_.store(options.disk_full);
  auto failed = out->prepare_schema();
  if (!failed) failed = out->check_meta();
  if (failed) {
    error = *failed;
    return nullptr;
  }
  return out;
}

std::optional<std::string> OrgDatabase::prepare_schema() {
  const std::string& path = options_.path;
  // The first statement to read the file: a damaged one fails here.
  if (auto e = db_->exec("PRAGMA journal_mode=WAL")) {
    return path + ": " + *e +
           " (SQLite). Nothing was changed: move the file away, or start with --reset-data "
           "to discard the data directory";
  }
  if (auto e = db_->exec(sync_pragma(options_.sync))) return path + ": " + *e;
  // Memory is the source for reads: the page cache serves only the writes'
  // lookups, and a thousand orgs at SQLite's default 2 MB each would add up.
  if (auto e = db_->exec("PRAGMA cache_size=-512")) return path + ": " + *e;
  if (auto e = db_->exec(kSchema)) return path + ": " + *e + " (SQLite)";
  std::string error;
  upsert_record_ = db_->prepare(
      "INSERT INTO records VALUES(?1,?2,?3,?4,?5,?6,?7,?8) ON CONFLICT(id) DO UPDATE SET "
      "object=?2, guid=?3, fields=?4, created_ms=?5, modified_ms=?6, awaiting_payer=?7, "
      "deleted=?8",
      error);
  if (upsert_record_)
    put_state_ = db_->prepare("INSERT OR REPLACE INTO state VALUES(?1,?2,?3)", error);
  if (put_state_) erase_state_ = db_->prepare("DELETE FROM state WHERE kind=?1 AND key=?2", error);
  if (erase_state_) clear_state_ = db_->prepare("DELETE FROM state WHERE kind=?1", error);
  if (clear_state_)
    set_sequence_ = db_->prepare("INSERT OR REPLACE INTO meta VALUES('id_sequence', ?1)", error);
  if (!set_sequence_) return path + ": " + error + " (SQLite)";
  return std::nullopt;
}

std::optional<std::string> OrgDatabase::check_meta() {
  std::string error;
  auto read = db_->prepare("SELECT key, value FROM meta", error);
  if (!read) return options_.path + ": " + error;
  std::string format, digest, fixture;
  while (read->step(error)) {
    const std::string_view key = read->text(0);
    if (key == "format") format = std::string(read->text(1));
    if (key == "fixture_digest") digest = std::string(read->text(1));
    if (key == "fixture") fixture = std::string(read->text(1));
  }
  if (!error.empty()) return options_.path + ": " + error + " (SQLite)";
  if (format.empty()) {
    auto init = db_->prepare(
        "INSERT OR REPLACE INTO meta VALUES('format',?1),('fixture',?2),('fixture_digest',?3)",
        error);
    if (!init) return options_.path + ": " + error;
    init->bind(1, std::to_string(kFormat));
    init->bind(2, options_.fixture);
    init->bind(3, options_.fixture_digest);
    init->step(error);
    return error.empty() ? std::nullopt : std::optional(options_.path + ": " + error);
  }
  if (std::atol(format.c_str()) > kFormat)
    return options_.path + " was written by a newer fake-org (data format " + format +
           "; this one reads format " + std::to_string(kFormat) +
           "): run that version, or start with --reset-data to discard the data directory";
  if (digest != options_.fixture_digest)
    return options_.path + " holds an org made from the fixture " + fixture +
           ", not from this org's " + options_.fixture +
           (fixture == options_.fixture ? " as it is now (the file changed)" : "") +
           ": start with --reset-data to discard the data directory, or give another "
           "--data-dir";
  if (std::atol(format.c_str()) < kFormat) {
    // What this version writes, it reads, and it reads every older format:
    // the file is marked so that an older fake-org refuses it.
    auto mark = db_->prepare("UPDATE meta SET value=?1 WHERE key='format'", error);
    if (!mark) return options_.path + ": " + error;
    mark->bind(1, std::to_string(kFormat));
    mark->step(error);
    if (!error.empty()) return options_.path + ": " + error;
  }
  return std::nullopt;
}

namespace {

// Rows [from, to] by rowid (creation order), parsed on `db` into `out`; the
// error, or empty.
std::string read_records(Database& db, int64_t from, int64_t to, std::vector<RecordPtr>& out) {
  std::string error;
  auto rows = db.prepare(
      "SELECT id, object, guid, fields, created_ms, modified_ms, awaiting_payer, deleted "
      "FROM records WHERE rowid BETWEEN ?1 AND ?2 ORDER BY rowid",
      error);
  if (!rows) return error;
  rows->bind(1, from);
  rows->bind(2, to);
  Record r;  // one fields block for every row (make_record_from)
  while (rows->step(error)) {
    const std::string_view id = rows->text(0);
    if (id.size() > RecordId::kMaxSize)
      return "record " + std::string(id) + " has an id longer than 18 characters";
    r.id = id;
    r.object = rows->text(1);
    r.guid = rows->text(2);
    if (!FieldMap::parse(rows->text(3), r.fields))
      return "record " + r.id + " has fields that are not a JSON object";
    r.created = TimePoint(Millis(rows->integer(4)));
    r.modified = TimePoint(Millis(rows->integer(5)));
    r.awaiting_payer = rows->integer(6) != 0;
    r.deleted = rows->integer(7) != 0;
    out.push_back(make_record_from(r));
  }
  return error;
}

// Below this many records one thread reads them all.
constexpr int64_t kRecordsPerReader = 50000;
// Records a reader takes at a time, and at most this many ranges.
constexpr int64_t kRecordsPerRange = 20000;
constexpr int64_t kMaxRanges = 4096;

}  // namespace

Status OrgDatabase::read_all_records(std::vector<RecordPtr>& out) {
  std::string error;
  // Not count(*): that reads every page of the table (0.3 s for a million
  // records). Rowids are dense enough for sizing the work; the rowid span
  // is only a guess (rows put in by hand may leave gaps), so nothing is
  // sized by it: each range's records grow as they are read.
  auto extent = db_->prepare("SELECT min(rowid), max(rowid) FROM records", error);
  if (!extent || !extent->step(error)) return data_failure(error);
  if (extent->is_null(0)) return ok_status();
  const int64_t first = extent->integer(0), last = extent->integer(1);
  // Rowids are positive when SQLite picks them; by hand they may be anything
  // (one reader then, and no arithmetic on the span that could overflow).
  const int64_t count = first > 0 ? last - first + 1 : 0;
  // Parsing the fields is most of a start-up: each reader has a connection
  // of its own (WAL lets readers share the file) and takes the next range of
  // rowids while any is left, so no reader idles while another has a backlog.
  const int64_t readers = std::clamp<int64_t>(
      std::min<int64_t>(count / kRecordsPerReader, std::thread::hardware_concurrency()), 1, 8);
  const int64_t ranges =
      readers == 1 ? 1 : std::clamp<int64_t>(count / kRecordsPerRange, readers, kMaxRanges);
  const int64_t span = ranges == 1 ? 0 : (last - first) / ranges + 1;
  std::vector<std::vector<RecordPtr>> parts(static_cast<size_t>(ranges));
  std::vector<std::string> errors(static_cast<size_t>(readers));
  std::atomic<size_t> next{0};
  auto read_ranges = [&](Database& db, std::string& error) {
    for (size_t i = next++; i < parts.size() && error.empty(); i = next++) {
      const int64_t from = first + static_cast<int64_t>(i) * span;
      const int64_t to = i + 1 == parts.size() ? last : from + span - 1;
      error = read_records(db, from, to, parts[i]);
    }
  };
  std::vector<std::thread> threads;
  for (size_t t = 1; t < errors.size(); ++t)
    threads.emplace_back([&, t] {
      auto own = Database::open(options_.path, false, errors[t]);
      if (own) read_ranges(*own, errors[t]);
    });
  read_ranges(*db_, errors[0]);
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (!e.empty()) return data_failure(e);
  size_t read = 0;
  for (const auto& part : parts) read += part.size();
  out.reserve(read);
  for (auto& part : parts)
    for (auto& r : part) out.push_back(std::move(r));
  return ok_status();
}

Status OrgDatabase::data_failure(const std::string& error) const {
  return make_error(error_code::kUncategorised, "", options_.path + ": " + error + " (SQLite)");
}

std::shared_ptr<SavedOrg> OrgDatabase::saved_org(std::string& error) {
  std::lock_guard io(io_mu_);
  auto kept = std::make_shared<SavedOrg>();
  auto meta = db_->prepare("SELECT value FROM meta WHERE key='id_sequence'", error);
  if (!meta) return nullptr;
  bool initialised = false;
  if (meta->step(error)) {
    kept->id_sequence = static_cast<uint64_t>(std::stoull(std::string(meta->text(0))));
    initialised = true;
  }
  if (auto read = read_all_records(kept->records); !read.ok()) {
    error = read.errors().front().message;
    return nullptr;
  }
  for (auto& [key, value] : saved_locked(state_kind::kOrg, error))
    if (key == org_state_key::kClockOffsetMs && value.is_number_integer())
      kept->clock_offset_ms = value.get<int64_t>();
  if (!error.empty()) return nullptr;
  return initialised || !kept->records.empty() ? kept : nullptr;
}

std::vector<std::pair<std::string, nlohmann::json>> OrgDatabase::saved(std::string_view kind,
                                                                       std::string& error) {
  std::lock_guard io(io_mu_);
  return saved_locked(kind, error);
}

std::vector<std::pair<std::string, nlohmann::json>> OrgDatabase::saved_locked(std::string_view kind,
                                                                              std::string& error) {
  std::vector<std::pair<std::string, nlohmann::json>> out;
  for (auto& [key, text] : saved_texts_locked(kind, error))
    out.emplace_back(std::move(key), nlohmann::json::parse(text, nullptr, false));
  return out;
}

std::vector<std::pair<std::string, std::string>> OrgDatabase::saved_texts(std::string_view kind,
                                                                          std::string& error) {
  std::lock_guard io(io_mu_);
  return saved_texts_locked(kind, error);
}

std::vector<std::pair<std::string, std::string>> OrgDatabase::saved_texts_locked(
    std::string_view kind, std::string& error) {
  std::vector<std::pair<std::string, std::string>> out;
  auto rows = db_->prepare("SELECT key, value FROM state WHERE kind=?1 ORDER BY key", error);
  if (!rows) return out;
  rows->bind(1, kind);
  while (rows->step(error)) out.emplace_back(rows->text(0), rows->text(1));
  if (!error.empty()) error = options_.path + ": " + error;
  return out;
}

namespace {

// The last change this thread queued, and where: a request's own changes
// (a request runs on one thread), told apart from those it waited for.
thread_local const OrgDatabase* tl_queued_in = nullptr;
thread_local uint64_t tl_queued_number = 0;

}  // namespace

void OrgDatabase::enqueue(Op op) {
  std::lock_guard lock(q_mu_);
  // Counted even when dropped: the caller's flush must still fail.
  if (!rolled_back_.load(std::memory_order_relaxed)) queue_.push_back(std::move(op));
  ++enqueued_;
  tl_queued_in = this;
  tl_queued_number = enqueued_;
}

void OrgDatabase::begin_request() {
  tl_queued_in = nullptr;
}

bool OrgDatabase::own_changes_written() const {
  return tl_queued_in == this && tl_queued_number <= written_.load(std::memory_order_acquire);
}

void OrgDatabase::records_committed(const std::vector<RecordPtr>& records, uint64_t id_sequence) {
  enqueue(Op{Op::kRecords, records, id_sequence, {}, {}, {}});
}

void OrgDatabase::records_replaced(const std::vector<RecordPtr>& records, uint64_t id_sequence) {
  enqueue(Op{Op::kReplaceRecords, records, id_sequence, {}, {}, {}});
}

void OrgDatabase::put(std::string_view kind, std::string_view key, const nlohmann::json& value) {
  enqueue(Op{Op::kPut, {}, 0, std::string(kind), std::string(key), value.dump()});
}

void OrgDatabase::put_text(std::string_view kind, std::string_view key, std::string text) {
  enqueue(Op{Op::kPut, {}, 0, std::string(kind), std::string(key), std::move(text)});
}

void OrgDatabase::erase(std::string_view kind, std::string_view key) {
  enqueue(Op{Op::kErase, {}, 0, std::string(kind), std::string(key), {}});
}

void OrgDatabase::clear(std::string_view kind) {
  enqueue(Op{Op::kClear, {}, 0, std::string(kind), {}, {}});
}

std::optional<std::string> OrgDatabase::write_record(const Record& r) {
  Statement& s = *upsert_record_;
  s.reset();
  s.bind(1, r.id);
  s.bind(2, r.object);
  s.bind(3, r.guid);
  s.bind(4, r.fields.dump());
  s.bind(5, ms(r.created));
  s.bind(6, ms(r.modified));
  s.bind(7, int64_t{r.awaiting_payer});
  s.bind(8, int64_t{r.deleted});
  std::string error;
  s.step(error);
  if (!error.empty()) return error;
  return std::nullopt;
}

std::optional<std::string> OrgDatabase::apply(const Op& op) {
  std::string error;
  auto run = [&](Statement& s) -> std::optional<std::string> {
    s.step(error);
    s.reset();
    if (!error.empty()) return error;
    return std::nullopt;
  };
  switch (op.type) {
    case Op::kReplaceRecords:
      if (auto e = db_->exec("DELETE FROM records")) return e;
      [[fallthrough]];
    case Op::kRecords:
      for (const auto& r : op.records)
        if (auto e = write_record(*r)) return e;
      set_sequence_->bind(1, std::to_string(op.id_sequence));
      return run(*set_sequence_);
    case Op::kPut:
      put_state_->bind(1, op.kind);
      put_state_->bind(2, op.key);
      put_state_->bind(3, op.value);
      return run(*put_state_);
    case Op::kErase:
      erase_state_->bind(1, op.kind);
      erase_state_->bind(2, op.key);
      return run(*erase_state_);
    case Op::kClear:
      clear_state_->bind(1, op.kind);
      return run(*clear_state_);
  }
  return std::nullopt;
}

Status OrgDatabase::flush() {
  // Every change the caller made, or saw in memory, queued before this; an
  // empty queue is not enough, since a concurrent flush may be writing them.
  uint64_t mine = 0;
  {
    std::lock_guard lock(q_mu_);
    mine = enqueued_;
  }
  if (written_.load(std::memory_order_acquire) >= mine) return ok_status();
  std::lock_guard io(io_mu_);
  if (written_.load(std::memory_order_acquire) >= mine) return ok_status();  // one wrote ours
  if (rolled_back_.load(std::memory_order_acquire)) return not_applied();
  if (!db_)
    return make_error(error_code::kUncategorised, "",
                      options_.path + " was closed: fake-org is exiting, the change is lost");
  std::vector<Op> ops;
  uint64_t upto = 0;
  const auto swap = [&] {
    std::lock_guard lock(q_mu_);
    ops.swap(queue_);
    upto = enqueued_;
  };
  if (swap_guard_)
    swap_guard_(swap);
  else
    swap();
  std::optional<std::string> failed = db_->exec("BEGIN IMMEDIATE");
  for (size_t i = 0; !failed && i < ops.size(); ++i) failed = apply(ops[i]);
  if (!failed) failed = db_->exec("COMMIT");
  if (!failed) {
    written_.store(upto, std::memory_order_release);
    flushes_.fetch_add(1, std::memory_order_relaxed);
    return ok_status();
  }
  (void)db_->exec("ROLLBACK");
  {
    std::lock_guard lock(problem_mu_);
    problem_ = *failed;
  }
  if (paused_.load(std::memory_order_acquire)) {
    // Only background changes (webhook attempts) arrive while writes wait
    // for the disk: kept in order ahead of what queued meanwhile.
    std::lock_guard lock(q_mu_);
    ops.insert(ops.end(), std::make_move_iterator(queue_.begin()),
               std::make_move_iterator(queue_.end()));
    queue_.swap(ops);
    return make_error(error_code::kUncategorised, "",
                      "the org could not write its data directory (" + options_.path +
                          "): " + *failed + "; kept in memory for the next write");
  }
  {
    std::lock_guard lock(q_mu_);
    rolled_back_.store(true, std::memory_order_release);
    queue_.clear();
  }
  return not_applied();
}

Status OrgDatabase::not_applied() const {
  return make_error(error_code::kUncategorised, "",
                    "the org could not write its data directory (" + options_.path +
                        "): " + disk_problem() +
                        "; the request was not applied (the org went back to what its data "
                        "directory holds): retry once the disk has room");
}

bool OrgDatabase::disk_full() const {
  return paused_.load(std::memory_order_acquire) || rolled_back_.load(std::memory_order_acquire);
}

std::string OrgDatabase::disk_problem() const {
  std::lock_guard lock(problem_mu_);
  return problem_;
}

Status OrgDatabase::probe_disk() {
  if (!paused_.load(std::memory_order_acquire)) return ok_status();
  std::lock_guard io(io_mu_);
  if (!paused_.load(std::memory_order_acquire)) return ok_status();
  if (!db_) return not_applied();
  const std::string stamp = std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                               std::chrono::system_clock::now().time_since_epoch())
                                               .count());
  auto failed = db_->exec("BEGIN IMMEDIATE; INSERT OR REPLACE INTO meta VALUES('disk_probe', '" +
                          stamp + "'); COMMIT");
  if (!failed) {
    paused_.store(false, std::memory_order_release);
    std::lock_guard lock(problem_mu_);
    problem_.clear();
    return ok_status();
  }
  (void)db_->exec("ROLLBACK");
  {
    std::lock_guard lock(problem_mu_);
    problem_ = *failed;
  }
  return make_error(error_code::kUncategorised, "",
                    "the org cannot write its data directory (" + options_.path + "): " + *failed +
                        "; the request was not applied: retry once the disk has room");
}

Status OrgDatabase::close() {
  Status flushed = flush();
  std::lock_guard io(io_mu_);
  // Statements first: SQLite closes a connection only once they are finalized.
  upsert_record_.reset();
  put_state_.reset();
  erase_state_.reset();
  clear_state_.reset();
  set_sequence_.reset();
  db_.reset();
  return flushed;
}

}  // namespace fake_org::durable
