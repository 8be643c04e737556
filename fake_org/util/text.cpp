#include "util/text.h"

#include <algorithm>

#include "util/ascii.h"

namespace fake_org::text {

std::string_view trim(std::string_view s) {
  auto space = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
  };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

std::string join(const std::vector<std::string_view>& items, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  return join(std::vector<std::string_view>(items.begin(), items.end()), sep);
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      size_t cost = ascii_lower(a[i - 1]) == ascii_lower(b[j - 1]) ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + cost});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string closest(std::string_view word, const std::vector<std::string_view>& options) {
  std::string best;
  size_t best_d = std::max<size_t>(2, word.size() / 3) + 1;
  for (auto opt : options) {
    size_t d = edit_distance(word, opt);
    if (d < best_d) {
      best_d = d;
      best = std::string(opt);
    }
  }
  return best;
}

namespace {

// The length of the well-formed UTF-8 character `s` starts with, or 0.
size_t utf8_sequence_length(std::string_view s) {
  const auto c = static_cast<unsigned char>(s[0]);
  size_t n = 0;
  unsigned cp = 0, min = 0;
  if (c >= 0xC2 && c <= 0xDF)
    n = 2, cp = c & 0x1Fu, min = 0x80;
  else if (c >= 0xE0 && c <= 0xEF)
    n = 3, cp = c & 0x0Fu, min = 0x800;
  else if (c >= 0xF0 && c <= 0xF4)
    n = 4, cp = c & 0x07u, min = 0x10000;
  else
    return 0;
  if (s.size() < n) return 0;
  for (size_t k = 1; k < n; ++k) {
    const auto cc = static_cast<unsigned char>(s[k]);
    if ((cc & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (cc & 0x3Fu);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

}  // namespace

std::string escape_markup(std::string_view text, std::string_view apostrophe) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    // A page says charset=utf-8: a byte that starts no well-formed character
    // is shown as U+FFFD, as a browser would.
    if (static_cast<unsigned char>(c) >= 0x80) {
      const size_t n = utf8_sequence_length(text.substr(i));
      if (n == 0) {
        out += "\xEF\xBF\xBD";
      } else {
        out.append(text.substr(i, n));
        i += n - 1;
      }
      continue;
    }
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += apostrophe;
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string escape_control(std::string_view text, bool keep_newlines) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 0x20 && c != 0x7F) || (keep_newlines && c == '\n')) {
      out += ch;
    } else {
      out += "\\x";
      out += "0123456789abcdef"[c >> 4];
      out += "0123456789abcdef"[c & 0xF];
    }
  }
  return out;
}

}  // namespace fake_org::text
