#include "record_store.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "ids.h"
#include "util/json_text.h"

namespace fake_org {

namespace {
std::string normalise(std::string_view v, bool case_insensitive) {
  size_t b = 0, e = v.size();
  while (b < e && std::isspace(static_cast<unsigned char>(v[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(v[e - 1]))) --e;
  std::string out(v.substr(b, e - b));
  if (case_insensitive)
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string field_text(const FieldValue& v) {
  if (v.is_string()) return std::string(v.str());
  if (v.is_null()) return "";
  return text::json_text(v.json());
}

const IdList::Slots kNoIds;
// For tables whose keys never repeat (ids), or may repeat only by mistake
// (GUIDs): every record gets an entry of its own.
const auto kDistinct = [](SlotTable::Slot) { return false; };
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
  if (holds == 0) return 0;
  const double want = share * static_cast<double>(holds);
  uint64_t seen = 0;
  for (size_t us = 0; us < by_us.size(); ++us) {
    seen += by_us[us];
    if (static_cast<double>(seen) >= want) return static_cast<double>(us);
  }
  return static_cast<double>(by_us.size() - 1);
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
  for (const auto& v : values) {
    key += normalise(v, spec.case_insensitive);
    key += '\x1f';  // unit separator: cannot appear in normalised field text
  }
  return key;
}

// ---- Transaction -----------------------------------------------------------

RecordPtr Transaction::get(std::string_view id18) const {
  auto it = staged_.find(std::string(id18));
  if (it != staged_.end()) return it->second;
  note_read(write_key(0, id18));
  return store_.get(id18);
}

RecordPtr Transaction::get_by_guid(std::string_view guid) const {
  std::string key = guid_key(guid);
  auto it = staged_guids_.find(key);
  if (it != staged_guids_.end()) return get(it->second);
  note_read(write_key(1, key));
  return store_.get_by_guid(guid);
}

std::vector<std::string> Transaction::find(std::string_view index,
                                           const std::vector<std::string>& values) const {
  const IndexSpec* spec = store_.index_spec(index);
  if (!spec) throw std::logic_error("unknown index " + std::string(index));
  std::string want = index_key(*spec, values);
  note_read(write_key(2 + store_.position_of(*spec), want));
  std::vector<std::string> out;
  // Committed matches unless this transaction changed them, then every staged
  // record that matches now (through the staged records' own index).
  for (const auto& id : store_.find(index, values))
    if (staged_.find(id) == staged_.end()) out.push_back(id);
  auto idx = staged_keys_.find(spec->name);
  if (idx == staged_keys_.end()) return out;
  auto hit = idx->second.find(want);
  if (hit == idx->second.end()) return out;
  for (size_t pos : hit->second) out.push_back(order_[pos]);
  return out;
}

void Transaction::put(Record record) {
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
  for (const auto& [spec, key] : filed_[pos]) {  // its keys as staged before
    auto& by_key = staged_keys_[spec->name];
    auto it = by_key.find(key);
    it->second.erase(pos);
    if (it->second.empty()) by_key.erase(it);
  }
  filed_[pos].clear();
  for (const auto& spec : store_.specs_)
    if (auto k = store_.key_of(spec, record)) {
      staged_keys_[spec.name][*k].insert(pos);
      filed_[pos].emplace_back(&spec, std::move(*k));
    }
  record.fields.shrink();
  staged_[id] = std::make_shared<const Record>(std::move(record));
}

Record Transaction::edit(std::string_view id18) const {
  auto r = get(id18);
  if (!r) throw std::logic_error("no record " + std::string(id18));
  return *r;
}

// ---- RecordStore -----------------------------------------------------------

RecordStore::RecordStore(std::vector<IndexSpec> indexes) : specs_(std::move(indexes)) {
  for (size_t i = 0; i < specs_.size(); ++i) spec_by_name_.emplace(specs_[i].name, i);
  indexes_.resize(specs_.size());
  ordered_.resize(specs_.size());
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

RecordPtr RecordStore::get(std::string_view id18) const {
  auto slot = slot_of(id18);
  return slot ? slots_[*slot] : nullptr;
}

RecordPtr RecordStore::get_by_guid(std::string_view guid) const {
  const std::string key = guid_key(guid);
  RecordPtr found;
  by_guid_.for_each(slot_hash(key), [&](SlotTable::Slot s) {
    if (guid_key(slots_[s]->guid) != key) return true;
    found = slots_[s];
    return false;
  });
  return found;
}

std::vector<std::string> RecordStore::find(std::string_view index,
                                           const std::vector<std::string>& values) const {
  const IndexSpec* spec = index_spec(index);
  if (!spec) throw std::logic_error("unknown index " + std::string(index));
  for (const auto& v : values)
    if (normalise(v, false).empty()) return {};
  const std::string want = index_key(*spec, values);
  std::vector<std::string> out;
  indexes_[position_of(*spec)].for_each(slot_hash(want), [&](SlotTable::Slot s) {
    if (key_of(*spec, *slots_[s]) == want) out.push_back(slots_[s]->id);
    return true;
  });
  std::sort(out.begin(), out.end());  // deterministic order for callers and tests
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

std::optional<std::string> RecordStore::key_of(const IndexSpec& spec, const Record& r) const {
  if (r.object != spec.object || r.deleted) return std::nullopt;
  if (spec.when && !spec.when(r)) return std::nullopt;
  std::vector<std::string> values;
  for (const auto& f : spec.fields) {
    std::string v = r.text(f);
    if (normalise(v, false).empty()) return std::nullopt;
    values.push_back(std::move(v));
  }
  return index_key(spec, values);
}

void RecordStore::index_insert(SlotTable::Slot slot,
                               const std::vector<std::pair<const IndexSpec*, std::string>>& keys,
                               std::vector<uint64_t>& written) {
  // The keys the transaction filed the record under when it was staged.
  for (const auto& [spec, key] : keys) {
    const size_t n = position_of(*spec);
    indexes_[n].insert(slot_hash(key), slot, [&, spec = spec, &key = key](SlotTable::Slot other) {
      return key_of(*spec, *slots_[other]) == key;
    });
    if (spec->ordered) ordered_[n].emplace(key, slots_[slot]->id);
    written.push_back(write_key(2 + n, key));
  }
}

void RecordStore::index_erase(SlotTable::Slot slot, std::vector<uint64_t>& written) {
  const Record& r = *slots_[slot];
  for (size_t n = 0; n < specs_.size(); ++n) {
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
      by_id_.insert(slot_hash(id), slot, kDistinct);
      ids_by_object_[next->object].push_back(slot);
    }
    if (!next->guid.empty()) {
      std::string key = guid_key(next->guid);
      writes.keys.push_back(write_key(1, key));
      by_guid_.insert(slot_hash(key), slot, kDistinct);
    }
    index_insert(slot, tx.filed_[pos], writes.keys);
  }
  log_.push_back(std::move(writes));
  if (log_.size() > kCommitLogSize) {
    log_floor_ = log_.front().version;
    log_.pop_front();
  }
  if (observer_) {
    std::vector<RecordPtr> written;
    written.reserve(tx.order_.size());
    for (const auto& id : tx.order_) written.push_back(tx.staged_.at(id));
    observer_(written, replaced_all);
  }
}

void RecordStore::file_locked(SlotTable::Slot slot) {
  const Record& r = *slots_[slot];
  std::vector<uint64_t> ignored;
  std::vector<std::pair<const IndexSpec*, std::string>> keys;
  for (const auto& spec : specs_)
    if (auto k = key_of(spec, r)) keys.emplace_back(&spec, std::move(*k));
  if (!r.guid.empty()) by_guid_.insert(slot_hash(guid_key(r.guid)), slot, kDistinct);
  ids_by_object_[r.object].push_back(slot);
  index_insert(slot, keys, ignored);
}

void RecordStore::restore(const std::vector<RecordPtr>& records) {
  std::unique_lock lock(mu_);
  clear_locked();
  ++version_;
  log_.clear();
  log_floor_ = version_;
  // Sized once: a million records would otherwise rehash every table ~20 times.
  std::unordered_map<std::string_view, size_t> per_object;
  for (const auto& r : records) ++per_object[r->object];
  slots_.reserve(records.size());
  by_id_.reserve(records.size());
  by_guid_.reserve(records.size());
  for (size_t n = 0; n < specs_.size(); ++n) indexes_[n].reserve(per_object[specs_[n].object]);
  for (const auto& r : records) {
    if (slot_of(r->id)) continue;  // saved twice: the first stands
    const auto slot = static_cast<SlotTable::Slot>(slots_.size());
    slots_.push_back(r);
    by_id_.insert(slot_hash(r->id), slot, kDistinct);
    file_locked(slot);
  }
}

bool RecordStore::unchanged_since_locked(Transaction& tx, uint64_t seen) const {
  if (version_ == seen) return true;
  if (seen < log_floor_) return false;  // the log no longer reaches back to it
  auto& reads = tx.reads_;
  std::sort(reads.begin(), reads.end());
  for (auto c = log_.rbegin(); c != log_.rend() && c->version > seen; ++c)
    for (uint64_t key : c->keys)
      if (std::binary_search(reads.begin(), reads.end(), key)) return false;
  return true;
}

Status RecordStore::replace_all(const std::function<Status(Transaction&)>& fn) {
  std::unique_lock lock(mu_);
  auto old_slots = std::move(slots_);
  auto old_by_id = std::move(by_id_);
  auto old_by_guid = std::move(by_guid_);
  auto old_ids = std::move(ids_by_object_);
  auto old_indexes = indexes_;
  auto old_ordered = ordered_;
  clear_locked();
  // Every optimistic writer that read the old records must run again.
  ++version_;
  log_.clear();
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
