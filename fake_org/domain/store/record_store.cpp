#include "record_store.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <exception>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <unordered_set>

#include "domain/core/ids.h"
#include "util/ascii.h"
#include "util/json_text.h"
#include "util/memory_cap.h"
#include "util/slabs.h"
#include "util/thread_cache.h"

namespace fake_org {

namespace {
std::string_view trimmed(std::string_view v) {
  size_t b = 0, e = v.size();
  while (b < e && std::isspace(static_cast<unsigned char>(v[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(v[e - 1]))) --e;
  return v.substr(b, e - b);
}

// Appends one value of an index key: trimmed, lower-cased when the index
// ignores case, and ended by a unit separator (which cannot appear in
// normalised field text).
void append_key_part(std::string& key, std::string_view v, bool case_insensitive) {
  const size_t from = key.size();
  key += trimmed(v);
  if (case_insensitive)
    for (size_t i = from; i < key.size(); ++i) key[i] = ascii_lower(key[i]);
  key += '\x1f';
}

std::string field_text(const FieldValue& v) {
  if (v.is_string()) return std::string(v.str());
  if (v.is_null()) return "";
  return text::json_text(v.json());
}

const IdList::Slots kNoIds;
// A pass over a million restored records waits on memory, one miss after
// another: the record kAhead places on is asked for, and the text of the one
// half as far on (its record has arrived by then), while this one is read.
constexpr size_t kAhead = 16;
template <typename Text>
void prefetch(const std::vector<RecordPtr>& slots, size_t s, Text text) {
  if (s + kAhead < slots.size()) __builtin_prefetch(slots[s + kAhead].get());
  if (s + kAhead / 2 < slots.size()) __builtin_prefetch(text(*slots[s + kAhead / 2]).data());
}
std::string_view object_of(const Record& r) {
  return r.object;
}
std::string_view id_of(const Record& r) {
  return r.id;
}
std::string_view guid_of(const Record& r) {
  return r.guid;
}

// Below this many records restore() fills its tables on one thread.
constexpr size_t kRecordsPerThread = 50000;
}  // namespace

std::optional<FieldValue> Record::get(std::string_view field) const {
  auto v = fields.find(field);
  if (!v || v->is_null()) return std::nullopt;
  return v;
}

bool Record::has(std::string_view field) const {
  auto v = get(field);
  return v && !(v->is_string() && v->str().empty());
}

std::string Record::text(std::string_view field) const {
  auto v = get(field);
  return v ? field_text(*v) : std::string();
}

uint64_t write_key(uint64_t kind, std::string_view text) {
  // A collision only makes an optimistic write run again, never miss a conflict.
  return std::hash<std::string_view>{}(text) ^ ((kind + 1) * 0x9E3779B97F4A7C15ull);
}

double WriteLockStats::percentile_us(double share) const {
  uint64_t all = 0;
  for (uint64_t n : by_us) all += n;
  if (all == 0) return 0;
  const double want = share * static_cast<double>(all);
  uint64_t seen = 0;
  for (size_t us = 0; us < by_us.size(); ++us) {
    seen += by_us[us];
    if (static_cast<double>(seen) >= want) return static_cast<double>(us);
  }
  return static_cast<double>(by_us.size() - 1);
}

// Times one exclusive hold into the statistics (declared after the lock,
// so it stops before the lock is released).
class RecordStore::HoldTimer {
 public:
  explicit HoldTimer(WriteLockStats& s) : stats_(s), start_(std::chrono::steady_clock::now()) {}
  ~HoldTimer();
  HoldTimer(const HoldTimer&) = delete;
  HoldTimer& operator=(const HoldTimer&) = delete;

 private:
  WriteLockStats& stats_;
  std::chrono::steady_clock::time_point start_;
};

// The lock lets no new reader in while a writer waits (decision 122), so
// it is not reentrant: a thread asking for it again while it holds it
// would wait behind a writer that waits for that thread. Such a nested
// read, or a read inside a write, fails at once instead.
class RecordStore::Holding {
 public:
  explicit Holding(const RecordStore* store) : outer_(held_) {
    if (held_ == store)
      throw std::logic_error("RecordStore: this thread already holds the store's lock");
    held_ = store;
  }
  ~Holding() { held_ = outer_; }
  Holding(const Holding&) = delete;
  Holding& operator=(const Holding&) = delete;

 private:
  const RecordStore* outer_;
  static inline thread_local const RecordStore* held_ = nullptr;
};

bool RecordStore::write_untyped(const std::function<bool(Transaction&)>& fn,
                                const std::function<void()>& committed) {
  if (Transaction* tx = enclosing_tx()) return write_joined(*tx, fn, committed);
  Holding holding(this);
  std::unique_lock lock(mu_);
  HoldTimer held(stats_);
  Transaction tx(*this);
  if (fn(tx)) {
    if (over_cap_locked(tx)) return false;
    commit_locked(tx);
    if (committed) committed();
    ++stats_.commits;
  }
  return true;
}

bool RecordStore::over_cap_locked(const Transaction& tx) const {
  const bool memory_full = util::over_memory_cap();
  if (max_records_ == 0 && !memory_full) return false;
  size_t added = 0;
  for (const std::string& id : tx.order_)
    if (!slot_of(id)) ++added;
  if (added == 0) return false;
  return memory_full || slots_.size() + added > max_records_;
}

ApiError RecordStore::storage_limit_error() const {
  if (util::over_memory_cap()) {
    constexpr uint64_t kMiB = 1024 * 1024;
    return make_error(
        error_code::kUncategorised, "",
        std::string(kStorageLimitExceeded) +
            ", storage limit exceeded: fake-org holds its most memory (" +
            std::to_string(util::sampled_memory() / kMiB) + " MiB resident, --max-memory " +
            std::to_string(util::memory_cap() / kMiB) +
            " MiB, every org together); reset or delete an org (POST /__admin/reset, "
            "DELETE /__admin/orgs/NAME) or start fake-org with a larger --max-memory");
  }
  return make_error(error_code::kUncategorised, "",
                    std::string(kStorageLimitExceeded) +
                        ", storage limit exceeded: the org holds its most records (" +
                        std::to_string(max_records_) +
                        ", the fixture's org.max_records, deleted ones too); reset the org "
                        "(POST /__admin/reset) or raise org.max_records");
}

bool RecordStore::try_optimistic(const std::function<bool(Transaction&)>& fn,
                                 const std::function<void()>& committed) {
  Transaction tx(*this, true);
  std::optional<bool> ok;
  uint64_t seen = 0;
  {
    Holding holding(this);
    std::shared_lock no_reset(reset_mu_);
    seen = version_now();
    try {
      ok = fn(tx);
    } catch (...) {
      if (read_unchanged(tx, seen)) throw;
    }
  }
  if (ok && !*ok && read_unchanged(tx, seen)) return true;
  if (ok && *ok) {
    if (between_phases_) {
      auto hook = between_phases_;  // the hook may clear itself
      hook();
    }
    if (commit_if_unchanged(tx, seen, committed)) return true;
  }
  return false;
}

bool RecordStore::write_optimistic_untyped(const std::function<bool(Transaction&)>& fn,
                                           const std::function<void()>& committed) {
  if (Transaction* tx = enclosing_tx()) return write_joined(*tx, fn, committed);
  if (!try_optimistic(fn, committed)) return write_untyped(fn, committed);
  return true;
}

void RecordStore::read_untyped(const std::function<void(const RecordStore&)>& fn) const {
  if (enclosing_tx()) return fn(*this);  // this thread holds the lock exclusive
  Holding holding(this);
  std::shared_lock lock(mu_);
  fn(*this);
}

RecordStore::HoldTimer::~HoldTimer() {
  auto ns = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                      std::chrono::steady_clock::now() - start_)
                                      .count());
  ++stats_.holds;
  ++stats_.by_us[std::min<uint64_t>(ns / 1000, stats_.by_us.size() - 1)];
}

std::string index_key(const IndexSpec& spec, const std::vector<std::string>& values) {
  std::string key;
  for (const auto& v : values) append_key_part(key, v, spec.case_insensitive);
  return key;
}

// ---- Transaction -----------------------------------------------------------

RecordPtr Transaction::get(std::string_view id18) const {
  auto it = staged_.find(std::string(id18));
  if (it != staged_.end()) return it->second;
  return get_committed(id18);
}

RecordPtr Transaction::get_committed(std::string_view id18) const {
  note_read(write_key(0, id18));
  auto lock = reading();
  return store_.stored_get(id18);
}

std::shared_lock<util::WriterFirstSharedMutex> Transaction::reading() const {
  if (!track_reads_) return {};
  return std::shared_lock(store_.mu_);
}

RecordPtr Transaction::get_by_guid(std::string_view guid) const {
  std::string key = guid_key(guid);
  auto it = staged_guids_.find(key);
  if (it != staged_guids_.end()) return get(it->second);
  note_read(write_key(1, key));
  auto lock = reading();
  return store_.stored_get_by_guid(guid);
}

std::vector<std::string> Transaction::find(std::string_view index,
                                           const std::vector<std::string>& values) const {
  const IndexSpec* spec = store_.index_spec(index);
  if (!spec) throw std::logic_error("unknown index " + std::string(index));
  std::string want = index_key(*spec, values);
  note_read(write_key(2 + store_.position_of(*spec), want));
  std::vector<std::string> out;
  {
    auto lock = reading();
    out = store_.stored_find(index, values);
  }
  // Committed matches unless this transaction changed them, then every staged
  // record that matches now (through the staged records' own index).
  out.erase(std::remove_if(out.begin(), out.end(),
                           [&](const std::string& id) { return staged_.count(id) != 0; }),
            out.end());
  const size_t n = store_.position_of(*spec);
  if (n >= staged_keys_.size()) return out;
  auto hit = staged_keys_[n].find(want);
  if (hit == staged_keys_[n].end()) return out;
  for (uint32_t pos : hit->second) out.push_back(order_[pos]);
  return out;
}

RecordPtr Transaction::put(Record record) {
  if (record.id.size() != 18 || record.object.empty())
    throw std::logic_error("record needs an object and an 18-character id");
  std::string id = record.id;
  if (!record.guid.empty()) staged_guids_[guid_key(record.guid)] = id;
  auto [at, fresh] = position_.emplace(id, order_.size());
  const size_t pos = at->second;
  if (fresh) {
    order_.push_back(id);
    filed_.emplace_back();
  }
  for (const auto& [n, key] : filed_[pos]) {  // its keys as staged before
    auto it = staged_keys_[n].find(*key);
    auto& positions = it->second;
    positions.erase(std::lower_bound(positions.begin(), positions.end(), pos));
    if (positions.empty()) staged_keys_[n].erase(it);
  }
  filed_[pos].clear();
  for (uint32_t n : store_.specs_of(record.object)) {
    if (auto k = store_.key_of(store_.specs_[n], record)) {
      if (staged_keys_.size() <= n) staged_keys_.resize(store_.specs_.size());
      auto& entry = *staged_keys_[n].try_emplace(std::move(*k)).first;
      auto& positions = entry.second;
      positions.insert(std::lower_bound(positions.begin(), positions.end(), pos),
                       static_cast<uint32_t>(pos));
      filed_[pos].emplace_back(n, &entry.first);
    }
  }
  return staged_[id] = make_record(std::move(record));  // laid out without gaps
}

Record Transaction::edit(std::string_view id18) const {
  auto r = get(id18);
  if (!r) throw std::logic_error("no record " + std::string(id18));
  return *r;
}

// ---- RecordStore -----------------------------------------------------------

RecordStore::RecordStore(std::vector<IndexSpec> indexes) : specs_(std::move(indexes)) {
  for (size_t i = 0; i < specs_.size(); ++i) {
    specs_[i].field_ids.clear();
    for (const auto& f : specs_[i].fields) specs_[i].field_ids.push_back(FieldNames::intern(f));
    spec_by_name_.emplace(specs_[i].name, i);
    specs_by_object_[&ObjectName(specs_[i].object).text()].push_back(static_cast<uint32_t>(i));
  }
  indexes_.resize(specs_.size());
  ordered_.resize(specs_.size());
}

const std::vector<uint32_t>& RecordStore::specs_of(const ObjectName& object) const {
  static const std::vector<uint32_t> kNone;
  auto it = specs_by_object_.find(&object.text());
  return it == specs_by_object_.end() ? kNone : it->second;
}

const IndexSpec* RecordStore::index_spec(std::string_view name) const {
  auto it = spec_by_name_.find(name);
  return it == spec_by_name_.end() ? nullptr : &specs_[it->second];
}

std::optional<SlotTable::Slot> RecordStore::slot_of(std::string_view id18) const {
  std::optional<SlotTable::Slot> found;
  by_id_.for_each(slot_hash(id18), [&](SlotTable::Slot s) {
    if (slots_[s]->id != id18) return true;
    found = s;
    return false;
  });
  return found;
}

RecordPtr RecordStore::stored_get(std::string_view id18) const {
  auto slot = slot_of(id18);
  return slot ? slots_[*slot] : nullptr;
}

RecordPtr RecordStore::stored_get_by_guid(std::string_view guid) const {
  const std::string key = guid_key(guid);
  RecordPtr found;
  by_guid_.for_each(slot_hash(key), [&](SlotTable::Slot s) {
    if (guid_key(slots_[s]->guid) != key) return true;
    found = slots_[s];
    return false;
  });
  return found;
}

std::vector<std::string> RecordStore::stored_find(std::string_view index,
                                                  const std::vector<std::string>& values) const {
  const IndexSpec* spec = index_spec(index);
  if (!spec) throw std::logic_error("unknown index " + std::string(index));
  for (const auto& v : values)
    if (trimmed(v).empty()) return {};
  const std::string want = index_key(*spec, values);
  std::vector<std::string> out;
  indexes_[position_of(*spec)].for_each(slot_hash(want), [&](SlotTable::Slot s) {
    if (key_of(*spec, *slots_[s]) == want) out.push_back(slots_[s]->id);
    return true;
  });
  std::sort(out.begin(), out.end());  // deterministic order for callers and tests
  return out;
}

std::vector<std::string> IdList::to_vector() const {
  std::vector<std::string> out;
  out.reserve(size());
  for (const RecordId& id : *this) out.emplace_back(id.view());
  return out;
}

IdList RecordStore::ids_of(std::string_view object) const {
  auto it = ids_by_object_.find(object);
  return IdList(it == ids_by_object_.end() ? kNoIds : it->second, slots_);
}

std::vector<std::string> RecordStore::up_to(std::string_view index, const std::string& value,
                                            size_t limit) const {
  const IndexSpec* spec = index_spec(index);
  if (!spec || !spec->ordered) throw std::logic_error("no ordered index " + std::string(index));
  const std::string last = index_key(*spec, {value});
  std::vector<std::string> out;
  for (const auto& [key, id] : ordered_[position_of(*spec)]) {
    if (last < key || out.size() >= limit) break;
    out.push_back(id);
  }
  return out;
}

std::vector<std::string> RecordStore::objects() const {
  std::vector<std::string> out;
  for (const auto& [name, ids] : ids_by_object_) out.push_back(name);
  return out;
}

namespace {
// What malloc takes for a block of n bytes (glibc: an 8-byte header, 16-byte
// steps, 32 at least): the figures count what the process pays, not sizeof.
size_t heap_block(size_t n) {
  return n == 0 ? 0 : std::max<size_t>(32, (n + 8 + 15) & ~size_t{15});
}
size_t heap_string(const std::string& s) {
  return s.size() > 15 ? heap_block(s.capacity() + 1) : 0;
}
}  // namespace

namespace {

// One record's block in its parts, into its object's figures.
void add_record_parts(const Record& r, ObjectMemory& m,
                      std::map<std::string_view, size_t>& field_at) {
  const size_t block =
      r.in_slab() ? util::slab_block_size(r.block_bytes()) : heap_block(r.block_bytes());
  m.record_bytes += block;
  m.header_bytes += sizeof(Record);
  m.guid_bytes += r.guid.room_bytes();
  m.malloc_bytes += block - r.block_bytes();
  size_t values = 0;
  for (const auto& [name, bytes] : r.fields.value_bytes()) {
    auto [at, fresh] = field_at.try_emplace(name, m.fields.size());
    if (fresh) m.fields.push_back({std::string(name), 0, 0});
    ++m.fields[at->second].records;
    m.fields[at->second].bytes += bytes;
    values += bytes;
  }
  m.value_bytes += values;
  m.entry_bytes += r.fields.heap_bytes() - values;
}

void add_table(ObjectMemory& m, std::string name, size_t bytes) {
  m.index_bytes += bytes;
  m.tables.emplace_back(std::move(name), bytes);
}

}  // namespace

std::vector<ObjectMemory> RecordStore::memory_by_object() const {
  std::vector<ObjectMemory> out;
  std::map<std::string_view, size_t> at;  // object -> position in out
  std::vector<size_t> guids;              // records with a GUID, by position
  for (const auto& [object, slots] : ids_by_object_) {
    at[object] = out.size();
    ObjectMemory m;
    m.object = object;
    m.records = slots.size();
    add_table(m, "the object's list", slots.capacity() * sizeof(SlotTable::Slot));
    std::map<std::string_view, size_t> field_at;
    size_t with_guid = 0;
    for (SlotTable::Slot s : slots) {
      add_record_parts(*slots_[s], m, field_at);
      if (!slots_[s]->guid.empty()) ++with_guid;
    }
    guids.push_back(with_guid);
    out.push_back(std::move(m));
  }
  add_shared_tables(out, guids);
  for (size_t n = 0; n < specs_.size(); ++n) {
    auto it = at.find(specs_[n].object);
    if (it == at.end()) continue;
    size_t bytes = indexes_[n].heap_bytes();
    for (const auto& [key, id] : ordered_[n])
      bytes += heap_block(32 + 2 * sizeof(std::string)) + heap_string(key) + heap_string(id);
    add_table(out[it->second], "index " + specs_[n].name, bytes);
  }
  return out;
}

void RecordStore::add_shared_tables(std::vector<ObjectMemory>& out,
                                    const std::vector<size_t>& guids) const {
  // The tables every record is in, shared by count; the GUID table by the
  // records that have one.
  const double n = slots_.empty() ? 1.0 : double(slots_.size());
  size_t with_guid = 0;
  for (size_t g : guids) with_guid += g;
  for (size_t i = 0; i < out.size(); ++i) {
    const double records = double(out[i].records);
    add_table(out[i], "the slots (a handle a record)",
              static_cast<size_t>(double(slots_.capacity() * sizeof(RecordPtr)) / n * records));
    add_table(out[i], "by id", static_cast<size_t>(double(by_id_.heap_bytes()) / n * records));
    if (with_guid && guids[i])
      add_table(out[i], "by GUID", by_guid_.heap_bytes() * guids[i] / with_guid);
  }
}

namespace {

// The key `spec` files `r` under, built in `key` (whose block a caller
// filing many records reuses); false when `r` is filed under none.
bool index_key(const IndexSpec& spec, const Record& r, std::string& key) {
  key.clear();
  if (r.object != spec.object || r.deleted) return false;
  if (spec.when && !spec.when(r)) return false;
  // Built in place: this runs for every index on every write and restore.
  // A packed text unpacked, or a value that is not text as text: one
  // buffer for every key a thread files, not an allocation a field.
  thread_local std::string other;
  thread_local const bool hooked =
      (util::on_thread_give_back([] { std::string().swap(other); }), true);
  (void)hooked;
  for (uint32_t f : spec.field_ids) {
    std::string_view text;
    if (auto t = r.fields.text_id(f, other)) {
      text = *t;
    } else {
      auto v = r.fields.find_id(f);
      if (!v || v->is_null()) return false;
      text = other = field_text(*v);
    }
    if (trimmed(text).empty()) return false;
    append_key_part(key, text, spec.case_insensitive);
  }
  return true;
}

}  // namespace

std::optional<std::string> RecordStore::key_of(const IndexSpec& spec, const Record& r) const {
  std::string key;
  if (!index_key(spec, r, key)) return std::nullopt;
  return key;
}

void RecordStore::index_insert(SlotTable::Slot slot,
                               const std::vector<std::pair<uint32_t, const std::string*>>& keys,
                               std::vector<uint64_t>& written) {
  // The keys the transaction filed the record under when it was staged.
  for (const auto& [n, key] : keys) {
    indexes_[n].insert(slot_hash(*key), slot);
    if (specs_[n].ordered) ordered_[n].emplace(*key, slots_[slot]->id);
    written.push_back(write_key(2 + n, *key));
  }
}

void RecordStore::index_erase(SlotTable::Slot slot, std::vector<uint64_t>& written) {
  const Record& r = *slots_[slot];
  for (uint32_t n : specs_of(r.object)) {
    auto k = key_of(specs_[n], r);
    if (!k) continue;
    written.push_back(write_key(2 + n, *k));
    if (specs_[n].ordered) ordered_[n].erase({*k, r.id});
    indexes_[n].erase(slot_hash(*k), slot);
  }
}

void RecordStore::commit_locked(Transaction& tx, bool replaced_all) {
  // Nothing below can fail on valid input, so the commit is all-or-nothing.
  CommitWrites writes{++version_, {}};
  writes.keys.reserve(tx.order_.size() * 4);
  for (size_t pos = 0; pos < tx.order_.size(); ++pos) {
    const std::string& id = tx.order_[pos];
    const RecordPtr& next = tx.staged_.at(id);
    writes.keys.push_back(write_key(0, id));
    SlotTable::Slot slot;
    if (auto old = slot_of(id)) {
      slot = *old;
      index_erase(slot, writes.keys);
      if (!slots_[slot]->guid.empty()) {
        std::string old_guid = guid_key(slots_[slot]->guid);
        writes.keys.push_back(write_key(1, old_guid));
        by_guid_.erase(slot_hash(old_guid), slot);
      }
      slots_[slot] = next;  // its id and object list place stay
    } else {
      slot = static_cast<SlotTable::Slot>(slots_.size());
      slots_.push_back(next);
      by_id_.insert(slot_hash(id), slot);
      ids_by_object_[next->object].push_back(slot);
    }
    if (!next->guid.empty()) {
      std::string key = guid_key(next->guid);
      writes.keys.push_back(write_key(1, key));
      by_guid_.insert(slot_hash(key), slot);
    }
    index_insert(slot, tx.filed_[pos], writes.keys);
  }
  log_keys_ += writes.keys.size();
  log_.push_back(std::move(writes));
  while (log_.size() > kCommitLogSize || (log_keys_ > kCommitLogKeys && !log_.empty())) {
    log_floor_ = log_.front().version;
    log_keys_ -= log_.front().keys.size();
    log_.pop_front();
  }
  if (observer_) {
    std::vector<RecordPtr> written;
    written.reserve(tx.order_.size());
    for (const auto& id : tx.order_) written.push_back(tx.staged_.at(id));
    observer_(written, replaced_all);
  }
}

void RecordStore::restore(std::vector<RecordPtr> records) {
  std::unique_lock no_reader(reset_mu_);
  std::unique_lock lock(mu_);
  clear_locked();
  ++version_;
  log_.clear();
  log_keys_ = 0;
  log_floor_ = version_;
  if (records.size() > SlotTable::kMaxSlot) throw std::length_error("too many records to restore");
  slots_ = std::move(records);
  if (file_all_locked()) return;
  // Saved twice (not from a data directory, whose ids are a primary key):
  // the first stands.
  std::vector<RecordPtr> all = std::move(slots_);
  clear_locked();
  std::unordered_set<std::string_view> seen;
  for (auto& r : all)
    if (seen.insert(r->id).second) slots_.push_back(std::move(r));
  seen.clear();
  file_all_locked();
}

bool RecordStore::file_all_locked() {
  // Object lists first: the index jobs walk only their object's records.
  IdList::Slots* list = nullptr;
  const std::string* last = nullptr;
  size_t guids = 0;
  for (SlotTable::Slot s = 0; s < slots_.size(); ++s) {
    prefetch(slots_, s, object_of);
    const std::string& object = slots_[s]->object;
    if (!last || *last != object) {
      list = &ids_by_object_[object];
      last = &object;
    }
    list->push_back(s);
    guids += !slots_[s]->guid.empty();
  }
  std::atomic<bool> unique{true};
  std::vector<std::pair<size_t, std::function<void()>>> jobs;  // (records read, job)
  jobs.emplace_back(slots_.size(), [&] {
    by_id_.reserve(slots_.size());
    for (SlotTable::Slot s = 0; s < slots_.size(); ++s) {
      prefetch(slots_, s, id_of);
      if (slot_of(slots_[s]->id)) unique = false;
      by_id_.insert(slot_hash(slots_[s]->id), s);
    }
  });
  jobs.emplace_back(slots_.size(), [&] {
    // Sized once, not grown by doubling with a rehash at each step.
    by_guid_.reserve(guids);
    for (SlotTable::Slot s = 0; s < slots_.size(); ++s) {
      prefetch(slots_, s, guid_of);
      if (!slots_[s]->guid.empty()) by_guid_.insert(slot_hash(guid_key(slots_[s]->guid)), s);
    }
  });
  for (size_t n = 0; n < specs_.size(); ++n) {
    auto it = ids_by_object_.find(specs_[n].object);
    if (it != ids_by_object_.end())
      jobs.emplace_back(it->second.size(), [this, n] { file_index_locked(n); });
  }
  // Largest first, each thread taking the next: the longest job starts at once.
  std::stable_sort(jobs.begin(), jobs.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::atomic<size_t> next{0};
  // A job's failure (out of memory) reaches restore()'s caller, as it would
  // on one thread, once every thread has stopped.
  std::mutex failed_mu;
  std::exception_ptr failed;
  auto work = [&] {
    try {
      for (size_t j = next++; j < jobs.size(); j = next++) jobs[j].second();
    } catch (...) {
      std::lock_guard hold(failed_mu);
      if (!failed) failed = std::current_exception();
      next = jobs.size();
    }
  };
  const size_t threads = slots_.size() < kRecordsPerThread
                             ? 1
                             : std::clamp<size_t>(std::thread::hardware_concurrency(), 1,
                                                  std::min<size_t>(8, jobs.size()));
  std::vector<std::thread> helpers;
  try {
    for (size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
  } catch (const std::system_error&) {
    // No thread to be had: the ones started, and this one, do every job.
  }
  work();
  for (auto& t : helpers) t.join();
  if (failed) {
    clear_locked();
    std::rethrow_exception(failed);
  }
  if (unique) return true;
  std::vector<RecordPtr> records = std::move(slots_);
  clear_locked();
  slots_ = std::move(records);
  return false;
}

void RecordStore::file_index_locked(size_t n) {
  const IndexSpec& spec = specs_[n];
  const IdList::Slots& mine = ids_by_object_.find(spec.object)->second;
  indexes_[n].reserve(mine.size());
  std::string key;  // one block for every record's key, not a malloc each
  for (size_t i = 0; i < mine.size(); ++i) {
    if (i + kAhead < mine.size()) __builtin_prefetch(slots_[mine[i + kAhead]].get());
    const SlotTable::Slot s = mine[i];
    const Record& r = *slots_[s];
    if (!index_key(spec, r, key)) continue;
    indexes_[n].insert(slot_hash(key), s);
    if (spec.ordered) ordered_[n].emplace(key, r.id);
  }
}

bool RecordStore::read_unchanged(Transaction& tx, uint64_t seen) const {
  std::sort(tx.reads_.begin(), tx.reads_.end());
  std::shared_lock lock(mu_);
  return unchanged_since_locked(tx, seen);
}

bool RecordStore::commit_if_unchanged(Transaction& tx, uint64_t seen,
                                      const std::function<void()>& committed) {
  std::sort(tx.reads_.begin(), tx.reads_.end());  // before the lock, not under it
  Holding holding(this);
  std::unique_lock lock(mu_);
  HoldTimer held(stats_);
  if (!unchanged_since_locked(tx, seen)) {
    ++stats_.retried;
    return false;
  }
  // Refused under the exclusive lock by write_untyped, which then runs it.
  if (over_cap_locked(tx)) return false;
  commit_locked(tx);
  if (committed) committed();
  ++stats_.commits;
  ++stats_.optimistic;
  return true;
}

bool RecordStore::unchanged_since_locked(const Transaction& tx, uint64_t seen) const {
  if (version_ == seen) return true;
  if (seen < log_floor_) return false;  // the log no longer reaches back to it
  const auto& reads = tx.reads_;        // sorted by the caller
  for (auto c = log_.rbegin(); c != log_.rend() && c->version > seen; ++c)
    for (uint64_t key : c->keys)
      if (std::binary_search(reads.begin(), reads.end(), key)) return false;
  return true;
}

Status RecordStore::replace_all(const std::function<Status(Transaction&)>& fn) {
  std::unique_lock no_reader(reset_mu_);
  std::unique_lock lock(mu_);
  // Moved out, not copied and cleared: a copy of every index doubled a busy
  // org's memory for the reset, and a cleared table keeps its capacity.
  auto old_slots = std::move(slots_);
  auto old_by_id = std::move(by_id_);
  auto old_by_guid = std::move(by_guid_);
  auto old_ids = std::move(ids_by_object_);
  auto old_indexes = std::move(indexes_);
  auto old_ordered = std::move(ordered_);
  indexes_ = std::vector<SlotTable>(specs_.size());
  ordered_ = decltype(ordered_)(specs_.size());
  clear_locked();
  // Every optimistic writer that read the old records must run again.
  ++version_;
  log_.clear();
  log_keys_ = 0;
  log_floor_ = version_;
  Transaction tx(*this);
  Status s = fn(tx);
  if (s.ok()) {
    commit_locked(tx, true);
  } else {
    slots_ = std::move(old_slots);
    by_id_ = std::move(old_by_id);
    by_guid_ = std::move(old_by_guid);
    ids_by_object_ = std::move(old_ids);
    indexes_ = std::move(old_indexes);
    ordered_ = std::move(old_ordered);
  }
  return s;
}

void RecordStore::clear_locked() {
  slots_.clear();
  by_id_.clear();
  by_guid_.clear();
  ids_by_object_.clear();
  for (auto& idx : indexes_) idx.clear();
  for (auto& idx : ordered_) idx.clear();
}

}  // namespace fake_org
