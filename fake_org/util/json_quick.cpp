#include "json_quick.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace fake_org::http {

namespace {

using json = nlohmann::json;

constexpr int kMaxDepth = kPlainJsonMaxDepth;

class PlainReader {
 public:
  explicit PlainReader(std::string_view text) : p_(text.data()), end_(p_ + text.size()) {}

  bool read(json& out) {
    skip_space();
    if (!value(out, 0)) return false;
    skip_space();
    return p_ == end_;
  }

 private:
  bool value(json& out, int depth) {
    if (p_ == end_) return false;
    switch (*p_) {
      case '{':
        return depth < kMaxDepth && object(out, depth + 1);
      case '[':
        return depth < kMaxDepth && array(out, depth + 1);
      case '"': {
        std::string s;
        if (!string(s)) return false;
        out = std::move(s);
        return true;
      }
      case 't':
        return word("true") && (out = true, true);
      case 'f':
        return word("false") && (out = false, true);
      case 'n':
        return word("null") && (out = nullptr, true);
      default:
        return number(out);
    }
  }

  bool object(json& out, int depth) {
    out = json::object();
    auto& members = out.get_ref<json::object_t&>();
    if (opens_empty('}')) return true;
    for (;;) {
      std::string key;
      if (p_ == end_ || *p_ != '"' || !string(key)) return false;
      skip_space();
      if (p_ == end_ || *p_ != ':') return false;
      ++p_;
      skip_space();
      // A repeated key is for nlohmann's pass to name (json_keys.h).
      auto [at, fresh] = members.emplace(std::move(key), nullptr);
      if (!fresh || !value(at->second, depth)) return false;
      bool closed = false;
      if (!after_element('}', closed)) return false;
      if (closed) return true;
    }
  }

  bool array(json& out, int depth) {
    out = json::array();
    auto& items = out.get_ref<json::array_t&>();
    if (opens_empty(']')) return true;
    for (;;) {
      items.emplace_back();
      if (!value(items.back(), depth)) return false;
      bool closed = false;
      if (!after_element(']', closed)) return false;
      if (closed) return true;
    }
  }

  // Past an opening bracket; true, past `close` too, when nothing is inside.
  bool opens_empty(char close) {
    ++p_;
    skip_space();
    if (p_ == end_ || *p_ != close) return false;
    ++p_;
    return true;
  }

  // After a member or an item: past its container's `close` (closed) or
  // past a comma to the next one; false on anything else.
  bool after_element(char close, bool& closed) {
    skip_space();
    if (p_ == end_) return false;
    closed = *p_ == close;
    if (!closed && *p_ != ',') return false;
    ++p_;
    if (!closed) skip_space();
    return true;
  }

  // Text without escapes or control characters, its UTF-8 well formed as
  // nlohmann checks it (RFC 3629: no overlong forms, surrogates or values
  // past U+10FFFF).
  bool string(std::string& out) {
    const char* start = ++p_;
    while (p_ != end_) {
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        out.assign(start, p_);
        ++p_;
        return true;
      }
      if (c == '\\' || c < 0x20) return false;
      if (c < 0x80) {
        ++p_;
      } else if (!utf8_sequence()) {
        return false;
      }
    }
    return false;
  }

  bool utf8_sequence() {
    const auto c = static_cast<unsigned char>(*p_);
    int more = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
    if (c >= 0xC2 && c <= 0xDF) {
      more = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      more = 2;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      more = 3;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return false;
    }
    if (end_ - p_ <= more) return false;
    for (int i = 1; i <= more; ++i) {
      const auto b = static_cast<unsigned char>(p_[i]);
      if (b < (i == 1 ? lo : 0x80) || b > (i == 1 ? hi : 0xBF)) return false;
    }
    p_ += more + 1;
    return true;
  }

  bool number(json& out) {
    const char* start = p_;
    const bool negative = *p_ == '-';
    if (negative) ++p_;
    if (p_ == end_ || !digit(*p_)) return false;
    if (*p_ == '0') {
      ++p_;
    } else {
      skip_digits();
    }
    bool decimal = false;
    if (p_ != end_ && *p_ == '.') {
      decimal = true;
      ++p_;
      if (p_ == end_ || !digit(*p_)) return false;
      skip_digits();
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      decimal = true;
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == end_ || !digit(*p_)) return false;
      skip_digits();
    }
    if (decimal) {
      double d = 0;
      auto [end, ec] = std::from_chars(start, p_, d);
      if (ec != std::errc() || end != p_ || !std::isfinite(d)) return false;
      out = d;
      return true;
    }
    uint64_t magnitude = 0;
    auto [end, ec] = std::from_chars(start + (negative ? 1 : 0), p_, magnitude);
    // Past uint64 nlohmann makes a double: left to it.
    if (ec != std::errc() || end != p_) return false;
    if (!negative) {
      out = magnitude;
      return true;
    }
    constexpr uint64_t kMin = uint64_t{1} << 63;  // the magnitude of INT64_MIN
    if (magnitude > kMin) return false;
    out =
        magnitude == kMin ? std::numeric_limits<int64_t>::min() : -static_cast<int64_t>(magnitude);
    return true;
  }

  bool word(std::string_view w) {
    if (static_cast<size_t>(end_ - p_) < w.size() || std::string_view(p_, w.size()) != w)
      return false;
    p_ += w.size();
    return true;
  }

  static bool digit(char c) { return c >= '0' && c <= '9'; }
  void skip_digits() {
    while (p_ != end_ && digit(*p_)) ++p_;
  }
  void skip_space() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  const char* p_;
  const char* end_;
};

}  // namespace

bool read_plain_json(std::string_view text, nlohmann::json& out) {
  return PlainReader(text).read(out);
}

}  // namespace fake_org::http
