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

std::string scalar_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "";
  return text::json_text(v);
}

const std::vector<std::string> kNoIds;
}  // namespace

const nlohmann::json* Record::get(std::string_view field) const {
  auto it = fields.find(std::string(field));
  if (it == fields.end() || it->is_null()) return nullptr;
  return &*it;
}

bool Record::has(std::string_view field) const {
  const auto* v = get(field);
  return v && !(v->is_string() && v->get_ref<const std::string&>().empty());
}

std::string Record::text(std::string_view field) const {
  const auto* v = get(field);
  return v ? scalar_text(*v) : std::string();
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
  return store_.get(id18);
}

RecordPtr Transaction::get_by_guid(std::string_view guid) const {
  auto it = staged_guids_.find(guid_key(guid));
  if (it != staged_guids_.end()) return get(it->second);
  return store_.get_by_guid(guid);
}

std::vector<std::string> Transaction::find(std::string_view index,
                                           const std::vector<std::string>& values) const {
  const IndexSpec* spec = store_.index_spec(index);
  if (!spec) throw std::logic_error("unknown index " + std::string(index));
  std::string want = index_key(*spec, values);
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
  for (const auto& s : specs_) {
    indexes_[s.name];
    if (s.ordered) ordered_[s.name];
  }
}

const IndexSpec* RecordStore::index_spec(std::string_view name) const {
  auto it = spec_by_name_.find(name);
  return it == spec_by_name_.end() ? nullptr : &specs_[it->second];
}

RecordPtr RecordStore::get(std::string_view id18) const {
  auto it = by_id_.find(std::string(id18));
  return it == by_id_.end() ? nullptr : it->second;
}

RecordPtr RecordStore::get_by_guid(std::string_view guid) const {
  auto it = by_guid_.find(guid_key(guid));
  return it == by_guid_.end() ? nullptr : get(it->second);
}

std::vector<std::string> RecordStore::find(std::string_view index,
                                           const std::vector<std::string>& values) const {
  const IndexSpec* spec = index_spec(index);
  if (!spec) throw std::logic_error("unknown index " + std::string(index));
  for (const auto& v : values)
    if (normalise(v, false).empty()) return {};
  const auto& idx = indexes_.at(spec->name);
  auto it = idx.find(index_key(*spec, values));
  if (it == idx.end()) return {};
  std::vector<std::string> out(it->second.begin(), it->second.end());
  std::sort(out.begin(), out.end());  // deterministic order for callers and tests
  return out;
}

const std::vector<std::string>& RecordStore::ids_of(std::string_view object) const {
  auto it = ids_by_object_.find(object);
  return it == ids_by_object_.end() ? kNoIds : it->second;
}

std::vector<std::string> RecordStore::up_to(std::string_view index, const std::string& value,
                                            size_t limit) const {
  const IndexSpec* spec = index_spec(index);
  if (!spec || !spec->ordered) throw std::logic_error("no ordered index " + std::string(index));
  const std::string last = index_key(*spec, {value});
  std::vector<std::string> out;
  for (const auto& [key, id] : ordered_.at(spec->name)) {
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

void RecordStore::index_insert(const Record& r) {
  for (const auto& s : specs_)
    if (auto k = key_of(s, r)) {
      indexes_[s.name][*k].insert(r.id);
      if (s.ordered) ordered_[s.name].emplace(*k, r.id);
    }
}

void RecordStore::index_erase(const Record& r) {
  for (const auto& s : specs_) {
    auto k = key_of(s, r);
    if (!k) continue;
    if (s.ordered) ordered_[s.name].erase({*k, r.id});
    auto& idx = indexes_[s.name];
    auto it = idx.find(*k);
    if (it == idx.end()) continue;
    it->second.erase(r.id);
    if (it->second.empty()) idx.erase(it);
  }
}

void RecordStore::commit_locked(Transaction& tx) {
  // Nothing below can fail on valid input, so the commit is all-or-nothing.
  for (const auto& id : tx.order_) {
    const RecordPtr& next = tx.staged_.at(id);
    auto it = by_id_.find(id);
    if (it != by_id_.end()) {
      index_erase(*it->second);
      if (!it->second->guid.empty() && guid_key(it->second->guid) != guid_key(next->guid))
        by_guid_.erase(guid_key(it->second->guid));
      it->second = next;
    } else {
      by_id_.emplace(id, next);
      ids_by_object_[next->object].push_back(id);
    }
    if (!next->guid.empty()) by_guid_[guid_key(next->guid)] = id;
    index_insert(*next);
  }
}

Status RecordStore::replace_all(const std::function<Status(Transaction&)>& fn) {
  std::unique_lock lock(mu_);
  auto old_by_id = std::move(by_id_);
  auto old_by_guid = std::move(by_guid_);
  auto old_ids = std::move(ids_by_object_);
  auto old_indexes = indexes_;
  auto old_ordered = ordered_;
  clear_locked();
  Transaction tx(*this);
  Status s = fn(tx);
  if (s.ok()) {
    commit_locked(tx);
  } else {
    by_id_ = std::move(old_by_id);
    by_guid_ = std::move(old_by_guid);
    ids_by_object_ = std::move(old_ids);
    indexes_ = std::move(old_indexes);
    ordered_ = std::move(old_ordered);
  }
  return s;
}

void RecordStore::clear_locked() {
  by_id_.clear();
  by_guid_.clear();
  ids_by_object_.clear();
  for (auto& [name, idx] : indexes_) idx.clear();
  for (auto& [name, idx] : ordered_) idx.clear();
}

}  // namespace fake_org
