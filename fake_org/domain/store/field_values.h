#pragma once
// Short texts a field holds again and again (a status, a processor, a
// currency, a SuccessURL), kept once per field: a record stores the one-byte
// number of its value instead of the text. A field takes its first 255
// distinct texts; after that its new values are stored in the records as
// before, so a field of unique values (a name, an email) costs its table
// once and nothing per record (decision 126).
//
// Locking rule: process-wide and safe from any thread. A lookup takes no
// lock (a text's number is published after its text); adding a text holds
// the field's mutex. Texts never move or end once added.
#include <cstdint>
#include <optional>
#include <string_view>

namespace fake_org {

class FieldValues {
 public:
  // Numbers 0-254: a FieldMap marks a packed text with 255 (field_map.cpp).
  static constexpr size_t kPerField = 255;
  static constexpr size_t kLongest = 128;  // longer texts are never shared

  // The number of `text` among the values of field `name` (a FieldNames
  // number), adding it when the field has room; nullopt when it has none
  // or the text is too long.
  static std::optional<uint8_t> intern(uint32_t name, std::string_view text);
  // The text of a number intern() gave for `name`.
  static std::string_view text(uint32_t name, uint8_t number);
  // Heap bytes every table holds (memory figures).
  static size_t heap_bytes();
};

}  // namespace fake_org
