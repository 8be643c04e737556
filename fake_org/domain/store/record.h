#pragma once
// One record of the org, and the handle the store shares it by.
//
// Locking rule: a Record is a value until make_record() publishes it; from
// then on it is immutable and shared by RecordPtr, whose count is atomic, so
// any thread may hold, copy or drop one.
//
// A published record is one heap block: the Record, then its fields' entries
// and values, then its GUID's text (decision 226); a copy of it is a value
// with blocks of its own again.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "domain/core/clock.h"
#include "field_map.h"
#include "record_text.h"

namespace fake_org {

class RecordPtr;

struct Record {
  ObjectName object;  // API name: "Contact", "cpm__Installment__c"

 private:
  friend class RecordPtr;
  // RecordPtr's count, in the record's own block (a copy starts unshared);
  // beside `object`, so the two take 8 bytes.
  struct Count {
    Count() = default;
    Count(const Count&) {}
    Count& operator=(const Count&) { return *this; }
    mutable std::atomic<uint32_t> n{0};
  } refs_;
  // The block came from the slabs (util/slabs.h), not operator new: set by
  // make_record_from, read by RecordPtr when the last handle goes.
  bool in_slab_ = false;
  friend RecordPtr make_record_from(Record& record);

 public:
  RecordId id;  // 18 characters
  // Not a field (never shown or written by clients): the record waits on the
  // payer (a recurring record whose mandate a hosted page must activate), so
  // partial indexes of work to do can leave it out until then.
  bool awaiting_payer = false;
  // Deleted through the data API (a soft delete, as the platform's recycle
  // bin): kept by id for queryAll and ENTITY_IS_DELETED answers, but out of
  // every secondary index, so deduplication and index lookups never see it.
  bool deleted = false;
  CompactString guid;  // may be empty for objects without one
  FieldMap fields;     // field API name -> value
  TimePoint created{};
  TimePoint modified{};

  // A field's value as text ("" when absent or null).
  std::string text(std::string_view field) const;
  // A field's value; nullopt when absent or null.
  std::optional<FieldValue> get(std::string_view field) const;
  bool has(std::string_view field) const;
  // Whether make_record took the record's block from the slabs (memory figures).
  bool in_slab() const { return in_slab_; }
  // Bytes of the record's block as make_record lays it out (memory figures).
  size_t block_bytes() const { return sizeof(Record) + fields.heap_bytes() + guid.room_bytes(); }
};

// A shared, immutable record: as std::shared_ptr<const Record>, with the
// count inside the record (one block per record, 8 bytes a handle).
class RecordPtr {
 public:
  RecordPtr() = default;
  RecordPtr(std::nullptr_t) {}  // NOLINT: as shared_ptr
  RecordPtr(const RecordPtr& o) : p_(o.p_) { hold(); }
  RecordPtr(RecordPtr&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  RecordPtr& operator=(RecordPtr o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~RecordPtr() { release(); }

  const Record* get() const { return p_; }
  const Record& operator*() const { return *p_; }
  const Record* operator->() const { return p_; }
  explicit operator bool() const { return p_ != nullptr; }
  void reset() { RecordPtr().swap(*this); }
  void swap(RecordPtr& o) noexcept { std::swap(p_, o.p_); }
  friend bool operator==(const RecordPtr& a, const RecordPtr& b) { return a.p_ == b.p_; }
  friend bool operator!=(const RecordPtr& a, const RecordPtr& b) { return a.p_ != b.p_; }
  friend bool operator==(const RecordPtr& a, std::nullptr_t) { return !a.p_; }
  friend bool operator!=(const RecordPtr& a, std::nullptr_t) { return a.p_ != nullptr; }

 private:
  friend RecordPtr make_record_from(Record& record);
  explicit RecordPtr(const Record* p) : p_(p) { hold(); }
  void hold() const {
    if (p_) p_->refs_.n.fetch_add(1, std::memory_order_relaxed);
  }
  void release() {
    if (p_ && p_->refs_.n.fetch_sub(1, std::memory_order_acq_rel) == 1) destroy(p_);
    p_ = nullptr;
  }
  // Ends a record make_record made, and frees its one block.
  static void destroy(const Record* p) noexcept;
  const Record* p_ = nullptr;
};

// Publishes a record: from here on it is shared and never changes. Its
// fields and GUID move into the record's own block, laid out without gaps.
RecordPtr make_record(Record record);
// As make_record, but `record`'s fields are copied and it keeps its fields'
// block, emptied, for the next record (a restore builds a million in one);
// its other members are unspecified after.
RecordPtr make_record_from(Record& record);

}  // namespace fake_org
