#pragma once
// A text's length written before its bytes, 7 bits a byte, low bits first:
// most texts are shorter than 128 bytes and pay one byte. Record fields
// (field_map.cpp) and hosted-page sessions (psp_sessions.cpp) keep texts so.
#include <cstddef>
#include <cstdint>

namespace fake_org::length_prefix {

// Bytes the length `n` takes.
inline size_t size(size_t n) {
  size_t k = 1;
  for (; n >= 0x80; n >>= 7) ++k;
  return k;
}

// Writes `n` at `p`; the byte after it.
inline char* write(char* p, size_t n) {
  for (; n >= 0x80; n >>= 7) *p++ = static_cast<char>((n & 0x7F) | 0x80);
  *p++ = static_cast<char>(n);
  return p;
}

// The bytes after the length at `p`, and the length in `n`.
inline const char* read(const char* p, uint32_t& n) {
  n = 0;
  for (int shift = 0;; shift += 7) {
    const auto b = static_cast<unsigned char>(*p++);
    n |= static_cast<uint32_t>(b & 0x7F) << shift;
    if (!(b & 0x80)) return p;
  }
}

}  // namespace fake_org::length_prefix
