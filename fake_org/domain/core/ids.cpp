#include "ids.h"

#include <sys/random.h>

#include "util/ascii.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace fake_org {

void OsRandom::fill(uint8_t* out, size_t n) {
  // Each thread draws from its own pool, refilled 512 bytes at a time: one
  // system call for dozens of ids, not one per id. The kernel's generator
  // rather than OpenSSL's: setting up OpenSSL's cost ~1 ms of each start.
  thread_local std::array<uint8_t, 512> pool;
  thread_local size_t left = 0;
  auto draw = [](uint8_t* to, size_t count) {
    while (count > 0) {
      const ssize_t got = getrandom(to, count, 0);
      if (got < 0) {
        if (errno == EINTR) continue;
        throw std::runtime_error(std::string("getrandom failed: ") + std::strerror(errno));
      }
      to += got;
      count -= static_cast<size_t>(got);
    }
  };
  if (n >= pool.size()) return draw(out, n);
  while (n > 0) {
    if (left == 0) {
      draw(pool.data(), pool.size());
      left = pool.size();
    }
    const size_t take = std::min(n, left);
    std::memcpy(out, pool.data() + (pool.size() - left), take);
    // Used bytes are wiped, so the pool holds only what is still to be drawn.
    std::memset(pool.data() + (pool.size() - left), 0, take);
    left -= take;
    out += take;
    n -= take;
  }
}

void SeededRandom::fill(uint8_t* out, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    uint64_t x = state_.load();
    uint64_t next;
    do {
      next = x;
      next ^= next << 13;
      next ^= next >> 7;
      next ^= next << 17;
    } while (!state_.compare_exchange_weak(x, next));
    out[i] = static_cast<uint8_t>(next >> 24);
  }
}

namespace {
constexpr std::string_view kBase62 =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
constexpr std::string_view kSuffixAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345";

bool all_alnum(std::string_view s) {
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  return true;
}
}  // namespace

std::string record_id_suffix(std::string_view id15) {
  std::string suffix;
  for (int chunk = 0; chunk < 3; ++chunk) {
    int bits = 0;
    for (int i = 0; i < 5; ++i) {
      char c = id15[chunk * 5 + i];
      if (c >= 'A' && c <= 'Z') bits |= 1 << i;
    }
    suffix += kSuffixAlphabet[bits];
  }
  return suffix;
}

std::optional<std::string> to_id18(std::string_view id) {
  if ((id.size() != 15 && id.size() != 18) || !all_alnum(id)) return std::nullopt;
  std::string id15(id.substr(0, 15));
  std::string suffix = record_id_suffix(id15);
  if (id.size() == 18) {
    // The suffix is case-insensitive on the platform.
    for (int i = 0; i < 3; ++i)
      if (std::toupper(static_cast<unsigned char>(id[15 + i])) != suffix[i]) return std::nullopt;
  }
  return id15 + suffix;
}

bool is_record_id(std::string_view id) {
  return to_id18(id).has_value();
}

std::string guid_key(std::string_view guid) {
  return ascii_lower(guid);
}

bool is_guid(std::string_view s) {
  if (s.size() != 36) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (s[i] != '-') return false;
    } else if (!std::isxdigit(static_cast<unsigned char>(s[i]))) {
      return false;
    }
  }
  return true;
}

IdGenerator::IdGenerator(std::shared_ptr<RandomSource> random) : random_(std::move(random)) {}

std::string IdGenerator::record_id(std::string_view key_prefix) {
  // prefix(3) + pod "5J" + reserved "0" + 9 base-62 digits of the sequence.
  uint64_t n = ++sequence_;
  std::string digits(9, '0');
  for (int i = 8; i >= 0; --i) {
    digits[i] = kBase62[n % 62];
    n /= 62;
  }
  std::string id15 = std::string(key_prefix.substr(0, 3)) + "5J0" + digits;
  return id15 + record_id_suffix(id15);
}

std::string IdGenerator::guid() {
  uint8_t b[16];
  random_->fill(b, sizeof b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += hex[b[i] >> 4];
    out += hex[b[i] & 15];
  }
  return out;
}

std::string IdGenerator::random_base36(size_t n) {
  static constexpr std::string_view alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::string out;
  out.reserve(n);
  while (out.size() < n) {
    uint8_t b[32];
    random_->fill(b, sizeof b);
    for (uint8_t v : b) {
      if (v >= 252) continue;  // 252 = 7 * 36: reject to stay uniform
      out += alphabet[v % 36];
      if (out.size() == n) break;
    }
  }
  return out;
}

std::string IdGenerator::payment_intent_id() {
  return "pi_" + random_base36(24);
}

std::string IdGenerator::token(size_t bytes) {
  static constexpr std::string_view alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string raw(bytes, '\0');
  random_->fill(reinterpret_cast<uint8_t*>(raw.data()), bytes);
  std::string out;
  for (unsigned char c : raw) out += alphabet[c & 63];
  return out;
}

}  // namespace fake_org
