#pragma once
// Cutting text without cutting a character: a message that quotes the first
// N bytes of some input must stay valid UTF-8, or the JSON answer carrying it
// cannot be written.
#include <string>
#include <string_view>

namespace fake_org::text {

// The largest length <= max that does not end inside a UTF-8 sequence.
inline size_t utf8_boundary(std::string_view s, size_t max) {
  if (max >= s.size()) return s.size();
  size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return cut;
}

inline std::string utf8_prefix(std::string_view s, size_t max) {
  return std::string(s.substr(0, utf8_boundary(s, max)));
}

}  // namespace fake_org::text
