#include "record_text.h"

#include "field_map.h"

namespace fake_org {

namespace {
const std::string& no_name() {
  static const std::string* empty = new std::string;  // never destroyed: records outlive statics
  return *empty;
}
}  // namespace

ObjectName::ObjectName() : text_(&no_name()) {}

ObjectName& ObjectName::assign(std::string_view name) {
  // Object and field API names share one table: both are few and kept for good.
  text_ = name.empty() ? &no_name() : &FieldNames::text(FieldNames::intern(name));
  return *this;
}

CompactString& CompactString::assign(std::string_view text) {
  if (text.size() > UINT32_MAX) throw std::length_error("a text exceeds 4 GB");
  char* block = nullptr;
  if (!text.empty()) {
    block = new char[sizeof(uint32_t) + text.size() + 1];
    const auto n = static_cast<uint32_t>(text.size());
    std::memcpy(block, &n, sizeof n);
    std::memcpy(block + sizeof n, text.data(), text.size());
    block[sizeof n + text.size()] = '\0';
  }
  delete[] block_;
  block_ = block;
  return *this;
}

}  // namespace fake_org
