// RecordStore::write_enclosing: one transaction that several requests'
// writes join (an all-or-none composite request runs each subrequest's own
// handler), and the reads of the thread that runs it, which see what the
// transaction staged. The accessors outside it read the committed state.
#include <algorithm>
#include <stdexcept>

#include "record_store.h"

namespace fake_org {

std::vector<RecordPtr> Transaction::staged_records() const {
  std::vector<RecordPtr> out;
  out.reserve(order_.size());
  for (const auto& id : order_) out.push_back(staged_.at(id));
  return out;
}

void Transaction::roll_back_to(const std::vector<RecordPtr>& staged) {
  bool same = staged.size() == order_.size();
  for (size_t i = 0; same && i < staged.size(); ++i) same = staged_.at(order_[i]) == staged[i];
  if (same) return;
  staged_.clear();
  staged_guids_.clear();
  order_.clear();
  staged_keys_.clear();
  position_.clear();
  filed_.clear();
  for (const RecordPtr& r : staged) put(Record(*r));
}

void RecordStore::write_enclosing(const std::function<bool()>& fn) {
  if (enclosing_tx()) throw std::logic_error("RecordStore: write_enclosing inside write_enclosing");
  (void)write_untyped([&](Transaction& tx) {
    // Cleared before write_untyped commits, however fn ends.
    struct Joined {
      EnclosingWrite outer = enclosing_;
      ~Joined() { enclosing_ = outer; }
    } joined;
    enclosing_ = EnclosingWrite{this, &tx};
    return fn();
  });
}

bool RecordStore::write_joined(Transaction& tx, const std::function<bool(Transaction&)>& fn,
                               const std::function<void()>& committed) {
  if (committed)
    throw std::logic_error("RecordStore: a write with announcements cannot join another");
  const std::vector<RecordPtr> savepoint = tx.staged_records();
  bool ok = false;
  try {
    ok = fn(tx);
  } catch (...) {
    tx.roll_back_to(savepoint);
    throw;
  }
  if (!ok) tx.roll_back_to(savepoint);
  // The enclosing transaction holds the lock: each joined write is held to
  // the cap, so its final commit never passes it.
  if (ok && over_cap_locked(tx)) {
    tx.roll_back_to(savepoint);
    return false;
  }
  return true;
}

RecordPtr RecordStore::get(std::string_view id18) const {
  if (const Transaction* tx = enclosing_tx()) return tx->get(id18);
  return stored_get(id18);
}

RecordPtr RecordStore::get_by_guid(std::string_view guid) const {
  if (const Transaction* tx = enclosing_tx()) return tx->get_by_guid(guid);
  return stored_get_by_guid(guid);
}

std::vector<std::string> RecordStore::find(std::string_view index,
                                           const std::vector<std::string>& values) const {
  if (const Transaction* tx = enclosing_tx()) {
    std::vector<std::string> out = tx->find(index, values);
    std::sort(out.begin(), out.end());  // as stored_find orders them
    return out;
  }
  return stored_find(index, values);
}

RecordPtr RecordStore::current(const RecordPtr& r) const {
  const Transaction* tx = enclosing_tx();
  if (!tx || !r || tx->size() == 0) return r;
  auto it = tx->staged_.find(std::string(r->id.view()));
  return it == tx->staged_.end() ? r : it->second;
}

std::vector<RecordPtr> RecordStore::staged_new_of(std::string_view object) const {
  std::vector<RecordPtr> out;
  const Transaction* tx = enclosing_tx();
  if (!tx) return out;
  for (const auto& id : tx->order_) {
    const RecordPtr& r = tx->staged_.at(id);
    if (r->object == object && !stored_get(id)) out.push_back(r);
  }
  return out;
}

}  // namespace fake_org
