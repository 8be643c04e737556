#include "packed_values.h"

#include <array>
#include <optional>

#include "domain/core/ids.h"
#include "length_prefix.h"
#include "util/calendar.h"

namespace fake_org::packed_text {

namespace {

// Values rather than words (decision 227): an instant as format_iso8601
// writes it ("2026-12-04T07:40:00.000Z") is 0xFE and its milliseconds since
// 1970 in 6 bytes; a record id as IdGenerator makes it (a key prefix, "5J0",
// 9 base-62 digits of its sequence, the case-safe suffix) is 0xFF, the
// prefix's 3 bytes and the sequence in 1-9 bytes (length_prefix.h); the 24
// random base-36 characters of a payment intent or session id, after its
// "pi_" or "cs_", are 0xFD and two 8-byte numbers of 12 characters each.
constexpr uint8_t kRandom36 = 0xFD;
constexpr uint8_t kInstant = 0xFE;
constexpr uint8_t kRecordId = 0xFF;
static_assert(kRandom36 == kFirstValueByte, "the value tokens are the last bytes");
constexpr size_t kRandomText = 24;
constexpr size_t kRandomHalf = 12;
constexpr size_t kInstantText = 24;  // "YYYY-MM-DDTHH:MM:SS.mmmZ"
constexpr size_t kInstantBytes = 6;
constexpr std::string_view kBase62 =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// The milliseconds of the instant text at p (kInstantText bytes), if
// format_iso8601 writes them so.
std::optional<uint64_t> instant_at(const char* p) {
  if (p[4] != '-' || p[10] != 'T' || p[23] != 'Z') return std::nullopt;
  const std::string_view text(p, kInstantText);
  const auto t = parse_iso8601(text);
  if (!t) return std::nullopt;
  const int64_t ms = t->time_since_epoch().count();
  if (ms < 0 || ms >= (int64_t{1} << 48) || format_iso8601(*t) != text) return std::nullopt;
  return static_cast<uint64_t>(ms);
}

// Byte -> its base-62 digit, or -1: a table, since this runs for every
// 18-byte window of every text a record stores.
const std::array<int8_t, 256> kBase62Digit = [] {
  std::array<int8_t, 256> t{};
  t.fill(-1);
  for (size_t i = 0; i < kBase62.size(); ++i) t[static_cast<uint8_t>(kBase62[i])] = int8_t(i);
  return t;
}();

int base62_digit(char c) {
  return kBase62Digit[static_cast<uint8_t>(c)];
}

// The sequence of the record id at p (18 bytes), if IdGenerator makes it so.
std::optional<uint64_t> record_id_at(const char* p) {
  if (p[3] != '5' || p[4] != 'J' || p[5] != '0') return std::nullopt;
  for (int i = 0; i < 3; ++i)
    if (base62_digit(p[i]) < 0) return std::nullopt;
  uint64_t n = 0;
  for (int i = 6; i < 15; ++i) {
    const int d = base62_digit(p[i]);
    if (d < 0) return std::nullopt;
    n = n * 62 + static_cast<uint64_t>(d);
  }
  if (record_id_suffix(std::string_view(p, 15)) != std::string_view(p + 15, 3)) return std::nullopt;
  return n;
}

int base36_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  return -1;
}

// The 24 characters at p as two numbers, if they follow "pi_" or "cs_"
// (`begin` is where the text starts) and are lower-case base 36.
bool random36_at(const char* begin, const char* p, const char* end, uint64_t (&halves)[2]) {
  if (p - begin < 3 || p[-1] != '_' || static_cast<size_t>(end - p) < kRandomText) return false;
  const std::string_view before(p - 3, 3);
  if (before != "pi_" && before != "cs_") return false;
  for (size_t h = 0; h < 2; ++h) {
    halves[h] = 0;
    for (size_t i = 0; i < kRandomHalf; ++i) {
      const int d = base36_digit(p[h * kRandomHalf + i]);
      if (d < 0) return false;
      halves[h] = halves[h] * 36 + static_cast<uint64_t>(d);
    }
  }
  return true;
}

}  // namespace

// Writes the value token at p, if one starts there, and moves both on.
bool pack_value(const char* begin, const char*& p, const char* end, char*& o) {
  const auto left = static_cast<size_t>(end - p);
  uint64_t halves[2];
  if (random36_at(begin, p, end, halves)) {
    *o++ = static_cast<char>(kRandom36);
    for (uint64_t h : halves)
      for (size_t i = 0; i < 8; ++i) *o++ = static_cast<char>(h >> (8 * i));
    p += kRandomText;
    return true;
  }
  if (left >= kInstantText && p[0] >= '0' && p[0] <= '9')
    if (auto ms = instant_at(p)) {
      *o++ = static_cast<char>(kInstant);
      for (size_t i = 0; i < kInstantBytes; ++i) *o++ = static_cast<char>(*ms >> (8 * i));
      p += kInstantText;
      return true;
    }
  if (left >= 18)
    if (auto n = record_id_at(p)) {
      *o++ = static_cast<char>(kRecordId);
      for (int i = 0; i < 3; ++i) *o++ = p[i];
      o = length_prefix::write(o, *n);
      p += 18;
      return true;
    }
  return false;
}

// Appends the value token at packed[i] (kRandom36, kInstant or kRecordId);
// returns the next position.
size_t expand_value(std::string_view packed, size_t i, std::string& out) {
  if (static_cast<uint8_t>(packed[i]) == kRandom36) {
    if (i + 17 > packed.size()) return packed.size();
    for (size_t h = 0; h < 2; ++h) {
      uint64_t n = 0;
      for (size_t k = 0; k < 8; ++k)
        n |= uint64_t{static_cast<uint8_t>(packed[i + 1 + 8 * h + k])} << (8 * k);
      char digits[kRandomHalf];
      for (size_t d = kRandomHalf; d-- > 0; n /= 36)
        digits[d] = "0123456789abcdefghijklmnopqrstuvwxyz"[n % 36];
      out.append(digits, kRandomHalf);
    }
    return i + 17;
  }
  if (static_cast<uint8_t>(packed[i]) == kInstant) {
    if (i + 1 + kInstantBytes > packed.size()) return packed.size();
    uint64_t ms = 0;
    for (size_t k = 0; k < kInstantBytes; ++k)
      ms |= uint64_t{static_cast<uint8_t>(packed[i + 1 + k])} << (8 * k);
    out += format_iso8601(TimePoint(Millis(static_cast<int64_t>(ms))));
    return i + 1 + kInstantBytes;
  }
  if (i + 5 > packed.size()) return packed.size();
  const size_t from = out.size();
  out.append(packed.substr(i + 1, 3));
  out += "5J0";
  // The sequence may pass 32 bits: read 7 bits a byte here, not by
  // length_prefix::read.
  uint64_t n = 0;
  size_t k = i + 4;
  for (int shift = 0; k < packed.size() && shift < 64; shift += 7) {
    const auto b = static_cast<uint8_t>(packed[k++]);
    n |= uint64_t{b & 0x7Fu} << shift;
    if (!(b & 0x80)) break;
  }
  char digits[9];
  for (int d = 8; d >= 0; --d, n /= 62) digits[d] = kBase62[n % 62];
  out.append(digits, 9);
  out += record_id_suffix(std::string_view(out).substr(from, 15));
  return k;
}

}  // namespace fake_org::packed_text
