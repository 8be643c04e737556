#include "query_text.h"

#include <iterator>
#include <optional>
#include <string>
#include <unordered_set>

namespace fake_org::net {

namespace {

bool space_or_tab(char c) {
  return c == ' ' || c == '\t';
}

std::string_view trimmed(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && space_or_tab(s[b])) ++b;
  while (e > b && space_or_tab(s[e - 1])) --e;
  return s.substr(b, e - b);
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The value of `count` hex digits at `at`, or -1 when any is missing.
int hex_at(std::string_view s, size_t at, size_t count) {
  if (at + count > s.size()) return -1;
  int value = 0;
  for (size_t i = at; i < at + count; ++i) {
    const int d = hex_digit(s[i]);
    if (d < 0) return -1;
    value = value * 16 + d;
  }
  return value;
}

// httplib's to_utf8 for a code point of at most four hex digits: a
// surrogate has no UTF-8 and adds nothing.
void append_utf8(int code, std::string& out) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | ((code >> 6) & 0x1F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0xD800 || code >= 0xE000) {
    out += static_cast<char>(0xE0 | ((code >> 12) & 0xF));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

std::string decoded(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '%' && i + 1 < s.size()) {
      const bool wide = s[i + 1] == 'u';
      const int code = wide ? hex_at(s, i + 2, 4) : hex_at(s, i + 1, 2);
      if (code < 0) {
        out += c;
      } else if (wide) {
        append_utf8(code, out);
        i += 5;
      } else {
        out += static_cast<char>(code);
        i += 2;
      }
    } else {
      out += c == '+' ? ' ' : c;
    }
  }
  return out;
}

// Calls `each` with every part of `s` between `delimiter`s, trimmed, that is
// not empty.
template <class Each>
void for_each_part(std::string_view s, char delimiter, Each each) {
  size_t begin = 0;
  while (begin <= s.size()) {
    size_t end = s.find(delimiter, begin);
    if (end == std::string_view::npos) end = s.size();
    const std::string_view part = trimmed(s.substr(begin, end - begin));
    if (!part.empty()) each(part);
    begin = end + 1;
  }
}

// The pairs met so far, verbatim: a query string holds a handful, so the
// first few are scanned and only a long one pays for a hash set.
class SeenPairs {
 public:
  // Whether `pair` was met before; notes it when not.
  bool seen_before(std::string_view pair) {
    if (spilled_) return !spilled_->insert(pair).second;
    for (size_t i = 0; i < count_; ++i)
      if (first_[i] == pair) return true;
    if (count_ < std::size(first_)) {
      first_[count_++] = pair;
      return false;
    }
    spilled_.emplace(first_, first_ + count_);
    return !spilled_->insert(pair).second;
  }

 private:
  std::string_view first_[16];
  size_t count_ = 0;
  std::optional<std::unordered_set<std::string_view>> spilled_;
};

}  // namespace

void parse_query_text(std::string_view query, httplib::Params& params) {
  SeenPairs seen;
  for_each_part(query, '&', [&](std::string_view pair) {
    if (seen.seen_before(pair)) return;
    std::string_view key, value;
    for_each_part(pair, '=', [&](std::string_view part) {
      if (key.empty())
        key = part;
      else
        value = part;
    });
    if (!key.empty()) params.emplace(decoded(key), decoded(value));
  });
}

}  // namespace fake_org::net
