#pragma once
// The values packed_text writes as numbers rather than words (decision 227):
// an instant as format_iso8601 writes it, a record id as IdGenerator makes
// it, the random part of a payment intent's or session's id. Each is one
// byte of 0xFD-0xFF and its number.
//
// Thread-safe: constant tables only.
#include <cstdint>
#include <string>
#include <string_view>

namespace fake_org::packed_text {

// The first byte a value token starts with; the bytes from it to 0xFF.
constexpr uint8_t kFirstValueByte = 0xFD;

// Writes the value token a value at p starts (in the text from `begin`), if
// one does, at o, and moves both past it; false, with neither moved, if none.
bool pack_value(const char* begin, const char*& p, const char* end, char*& o);

// Appends the text of the value token at packed[i] (a byte from
// kFirstValueByte on); returns the position after it.
size_t expand_value(std::string_view packed, size_t i, std::string& out);

}  // namespace fake_org::packed_text
