#include "soql_collation.h"

namespace fake_org::soql {

namespace {

// The code point at `i`, advancing `i` past it.
char32_t next_code_point(std::string_view s, size_t& i) {
  const auto lead = static_cast<unsigned char>(s[i]);
  size_t n = lead < 0x80             ? 0
             : (lead & 0xE0) == 0xC0 ? 1
             : (lead & 0xF0) == 0xE0 ? 2
             : (lead & 0xF8) == 0xF0 ? 3
                                     : 0;
  if (n > 0 && i + n >= s.size()) n = 0;  // cut short: the lead byte alone
  char32_t c = n == 0 ? lead : lead & (0x3F >> n);
  for (size_t k = 1; k <= n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) {
      ++i;
      return lead;
    }
    c = (c << 6) | (b & 0x3F);
  }
  i += n + 1;
  return c;
}

}  // namespace

char32_t collation_upper(char32_t c) {
  if (c >= 'a' && c <= 'z') return c - 0x20;
  if (c < 0xB5) return c;
  if (c == 0xB5) return 0x39C;  // micro sign, as Greek mu
  if ((c >= 0xE0 && c <= 0xFE && c != 0xF7)) return c - 0x20;
  if (c == 0xFF) return 0x178;
  // Latin Extended-A pairs: upper case even, lower odd, but for the runs
  // that start a pair on an odd code point. The dotless i and the long s
  // are left alone: they would upper-case into ASCII.
  if ((c >= 0x100 && c <= 0x12F) || (c >= 0x132 && c <= 0x137) || (c >= 0x14A && c <= 0x177))
    return c & ~char32_t{1};
  if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return (c & 1) ? c : c - 1;
  if (c >= 0x3B1 && c <= 0x3CB && c != 0x3C2) return c - 0x20;
  if (c == 0x3C2) return 0x3A3;  // final sigma
  if (c >= 0x3AC && c <= 0x3AF) {
    static constexpr char32_t kTonos[] = {0x386, 0x388, 0x389, 0x38A};
    return kTonos[c - 0x3AC];
  }
  if (c == 0x3CC) return 0x38C;
  if (c == 0x3CD || c == 0x3CE) return c - 0x3F;
  if (c >= 0x430 && c <= 0x44F) return c - 0x20;
  if (c >= 0x450 && c <= 0x45F) return c - 0x50;
  return c;
}

int collate(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const char32_t x = collation_upper(next_code_point(a, i));
    const char32_t y = collation_upper(next_code_point(b, j));
    if (x != y) return x < y ? -1 : 1;
  }
  if (i < a.size()) return 1;
  return j < b.size() ? -1 : 0;
}

std::u32string collation_key(std::string_view text) {
  std::u32string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) out.push_back(collation_upper(next_code_point(text, i)));
  return out;
}

bool ascii_only(std::string_view text) {
  for (char c : text)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

}  // namespace fake_org::soql
