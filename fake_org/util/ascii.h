#pragma once
// ASCII case folding for names the platform compares case-insensitively
// (header names, URL schemes and hosts, parameter keys). Locale-independent
// on purpose: std::tolower on a signed char is undefined, and a locale must
// not change how "IBAN" compares.
#include <string>
#include <string_view>

namespace fake_org {

inline char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

inline bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}

}  // namespace fake_org
