#pragma once
// Cutting text without cutting a character: a message that quotes the first
// N bytes of some input must stay valid UTF-8, or the JSON answer carrying it
// cannot be written. And counting characters.
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

// Characters, not bytes: the platform's field lengths count characters, so
// 41 'é' (82 bytes) fit an 80-character field.
inline size_t utf8_length(std::string_view s) {
  size_t n = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  return n;
}

}  // namespace fake_org::text
