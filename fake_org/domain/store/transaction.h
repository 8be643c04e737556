#pragma once
// What a request reads and changes the org's records through: a
// Transaction (staged changes over the committed state) and the
// RecordReader it shares with the committed store, with the indexes they
// look records up by. The store that keeps them, its locks and its tables
// are record_store.h's; code that only reads and stages records needs this
// header alone.
//
// Locking rule: a Transaction belongs to the one request that runs it; its
// reads of committed state lock the store as record_store.h says.
#include <cstdint>
#include <functional>
#include <iterator>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "record.h"
#include "slot_table.h"
#include "util/shared_mutex.h"

namespace fake_org {

// A secondary index: records of `object` keyed by the normalised values of
// `fields`. Records missing any of the fields are not indexed (an empty value
// never matches, as in the platform's matching rules).
struct IndexSpec {
  std::string name;  // unique, e.g. "dedup:Contact:0", "Installment.PaymentIntentId"
  std::string object;
  std::vector<std::string> fields;
  bool case_insensitive = true;  // lower-case and trim text before keying
  // Partial index: only records this accepts are indexed (empty: all), so a
  // scheduler's "what is due" never walks records that can no longer be due.
  std::function<bool(const Record&)> when = nullptr;
  // Also kept in key order for range reads (up_to); keys compare as text, so
  // YYYY-MM-DD dates sort by day.
  bool ordered = false;
  // `fields` as FieldNames numbers, filled by the store that keeps the index.
  std::vector<uint32_t> field_ids = {};
};

// Normalised key of values for an index (exposed for tests and lookups).
std::string index_key(const IndexSpec& spec, const std::vector<std::string>& values);

class RecordStore;

// The ids of one object's records in creation order, read through the
// store's own slots, so no id is copied (4 bytes a record). Valid while the
// store is unchanged (inside read() or write()).
class IdList {
 public:
  using Slots = std::vector<SlotTable::Slot>;
  using Records = std::vector<RecordPtr>;
  class const_iterator {
   public:
    using iterator_category = std::bidirectional_iterator_tag;
    using value_type = RecordId;
    using difference_type = std::ptrdiff_t;
    using pointer = const RecordId*;
    using reference = const RecordId&;
    const_iterator(Slots::const_iterator at, const Records* records) : at_(at), records_(records) {}
    reference operator*() const { return (*records_)[*at_]->id; }
    const_iterator& operator++() {
      ++at_;
      return *this;
    }
    const_iterator& operator--() {
      --at_;
      return *this;
    }
    bool operator==(const const_iterator& o) const { return at_ == o.at_; }
    bool operator!=(const const_iterator& o) const { return at_ != o.at_; }

   private:
    Slots::const_iterator at_;
    const Records* records_;
  };
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  IdList(const Slots& slots, const Records& records) : slots_(&slots), records_(&records) {}
  size_t size() const { return slots_->size(); }
  bool empty() const { return slots_->empty(); }
  const RecordId& operator[](size_t i) const { return record(i)->id; }
  // The record itself, without a lookup by id.
  const RecordPtr& record(size_t i) const { return (*records_)[(*slots_)[i]]; }
  const_iterator begin() const { return const_iterator(slots_->begin(), records_); }
  const_iterator end() const { return const_iterator(slots_->end(), records_); }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }
  std::vector<std::string> to_vector() const;

 private:
  const Slots* slots_;
  const Records* records_;
};

// Read access shared by the committed store and a transaction, so views and
// rules work the same on both.
class RecordReader {
 public:
  virtual ~RecordReader() = default;
  virtual RecordPtr get(std::string_view id18) const = 0;
  virtual RecordPtr get_by_guid(std::string_view guid) const = 0;
  virtual std::vector<std::string> find(std::string_view index,
                                        const std::vector<std::string>& values) const = 0;
};

// What one request changes. Reads see the committed state plus this
// transaction's own staged changes.
class Transaction final : public RecordReader {
 public:
  RecordPtr get(std::string_view id18) const override;
  RecordPtr get_by_guid(std::string_view guid) const override;
  // Ids of records matching an index, staged changes included.
  std::vector<std::string> find(std::string_view index,
                                const std::vector<std::string>& values) const override;
  // Stages a new or changed record (must have object and 18-char id) and
  // gives it back as staged.
  RecordPtr put(Record record);
  // The committed record, whatever this transaction staged for the id (a
  // request asking whether a record existed before it).
  RecordPtr get_committed(std::string_view id18) const;
  // Convenience: copy of a record for modification; throws if unknown.
  Record edit(std::string_view id18) const;
  size_t size() const { return staged_.size(); }
  // A savepoint: the records staged so far, in staging order; and the way
  // back to it (a joined write that failed, record_store.h write_enclosing).
  std::vector<RecordPtr> staged_records() const;
  void roll_back_to(const std::vector<RecordPtr>& staged);

 private:
  friend class RecordStore;
  explicit Transaction(const RecordStore& store, bool track_reads = false)
      : store_(store), track_reads_(track_reads) {}
  void note_read(uint64_t key) const {
    if (track_reads_) reads_.push_back(key);
  }
  // What a read of committed state holds: the store's lock shared for an
  // optimistic transaction, nothing for one inside write() (which holds it).
  std::shared_lock<util::WriterFirstSharedMutex> reading() const;
  const RecordStore& store_;
  // An optimistic transaction: it holds no lock between its reads, so each
  // read takes the store's lock, and its reads of committed state (ids, GUID
  // keys, index keys, hashed as in RecordStore::write_key) are checked at
  // commit.
  const bool track_reads_;
  mutable std::vector<uint64_t> reads_;
  std::unordered_map<std::string, RecordPtr> staged_;
  std::unordered_map<std::string, std::string> staged_guids_;  // guid_key -> id
  std::vector<std::string> order_;
  // The staged records' index keys, so find() never walks every staged record
  // (a collection run stages thousands in one transaction): by the index's
  // position in the store, key -> positions in order_ (ascending: staging
  // order, as callers see it); and per position, the index positions and
  // keys (in staged_keys_' own nodes, which do not move) it is filed under,
  // to move it on re-put.
  using StagedKeys = std::unordered_map<std::string, std::vector<uint32_t>>;
  std::vector<StagedKeys> staged_keys_;
  std::unordered_map<std::string, size_t> position_;
  std::vector<std::vector<std::pair<uint32_t, const std::string*>>> filed_;
};

}  // namespace fake_org
