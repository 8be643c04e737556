#include "record_text.h"

#include "field_map.h"
#include "record.h"
#include "util/slabs.h"

#include <new>

namespace fake_org {

namespace {
const std::string& no_name() {
  static const std::string* empty = new std::string;  // never destroyed: records outlive statics
  return *empty;
}
}  // namespace

ObjectName::ObjectName() : name_(kNone) {}

const std::string& ObjectName::text() const {
  return name_ == kNone ? no_name() : FieldNames::text(name_);
}

ObjectName& ObjectName::assign(std::string_view name) {
  // Object and field API names share one table: both are few and kept for good.
  name_ = name.empty() ? kNone : FieldNames::intern(name);
  return *this;
}

CompactString& CompactString::assign(std::string_view text) {
  if (text.size() > UINT32_MAX) throw std::length_error("a text exceeds 4 GB");
  char* block = nullptr;
  if (!text.empty()) {
    block = new char[length_prefix::size(text.size()) + text.size() + 1];
    char* at = length_prefix::write(block, text.size());
    std::memcpy(at, text.data(), text.size());
    at[text.size()] = '\0';
  }
  delete[] block_;
  block_ = block;
  return *this;
}

}  // namespace fake_org

namespace fake_org {

RecordPtr make_record_from(Record& record) {
  const FieldMap::Layout layout = record.fields.layout();  // walked once, not twice
  const size_t fields = layout.bytes;
  const size_t guid = record.guid.room_bytes();
  // From the slabs (decision 229), unless a record's block is too large for them.
  const size_t bytes = sizeof(Record) + fields + guid;
  char* block = static_cast<char*>(util::slab_allocate(bytes));
  const bool in_slab = block != nullptr;
  if (!in_slab) block = static_cast<char*>(::operator new(bytes));
  FieldMap own = std::move(record.fields);  // the caller's, kept for its next record
  Record* r = new (block) Record(std::move(record));
  r->in_slab_ = in_slab;
  r->fields.copy_into(block + sizeof(Record), own, layout);
  record.fields = std::move(own);
  record.fields.clear();
  r->guid.move_to(block + sizeof(Record) + fields);
  return RecordPtr(r);
}

RecordPtr make_record(Record record) {
  return make_record_from(record);
}

void RecordPtr::destroy(const Record* p) noexcept {
  auto* r = const_cast<Record*>(p);
  r->fields.forget_room();
  r->guid.forget_room();
  const bool in_slab = r->in_slab_;
  r->~Record();
  if (in_slab)
    util::slab_release(r);
  else
    ::operator delete(r);
}

}  // namespace fake_org
