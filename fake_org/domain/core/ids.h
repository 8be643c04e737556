#pragma once
// Identifiers the org hands out: CRM record ids (15/18 characters), GUIDs,
// payment intent ids (pi_...), OAuth tokens. Randomness sits behind
// RandomSource so tests can make ids reproducible.
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace fake_org {

class RandomSource {
 public:
  virtual ~RandomSource() = default;
  virtual void fill(uint8_t* out, size_t n) = 0;
};

// The kernel's random generator (getrandom), drawn through a pool per
// thread. Thread-safe.
class OsRandom final : public RandomSource {
 public:
  void fill(uint8_t* out, size_t n) override;
};

// xorshift from a seed; for tests only. Thread-safe (atomic state).
class SeededRandom final : public RandomSource {
 public:
  explicit SeededRandom(uint64_t seed) : state_(seed ? seed : 0x9E3779B97F4A7C15ull) {}
  void fill(uint8_t* out, size_t n) override;

 private:
  std::atomic<uint64_t> state_;
};

// The platform's 3-character case-safe suffix of a 15-character id.
std::string record_id_suffix(std::string_view id15);
// 15 or 18 characters of [0-9A-Za-z] with a correct suffix when 18 long.
bool is_record_id(std::string_view id);
// The 18-character form of a 15- or 18-character record id; nullopt if malformed.
// An 18-character id whose suffix does not match its first 15 is malformed.
std::optional<std::string> to_id18(std::string_view id);
// 8-4-4-4-12 hexadecimal, in either case.
bool is_guid(std::string_view s);
// The form a GUID is indexed and looked up by: lower case. GUIDs compare
// without regard to case (RFC 4122 section 3); the org hands them out lower
// case, a client or a fixture may send them upper case.
std::string guid_key(std::string_view guid);

// Locking rule: thread-safe without a lock: the sequence is one atomic and
// the random source is thread-safe on its own. reset_sequence() runs inside
// the record store's exclusive replace_all, so no record id is being made.
class IdGenerator {
 public:
  explicit IdGenerator(std::shared_ptr<RandomSource> random);
  // An 18-character record id with the given 3-character key prefix.
  // Sequential within one org, like the platform's, so ids sort by creation.
  std::string record_id(std::string_view key_prefix);
  std::string guid();                    // random v4 UUID, lower case
  std::string payment_intent_id();       // "pi_" + 24 random base-36 characters
  std::string token(size_t bytes = 32);  // URL-safe random text
  std::string random_base36(size_t n);
  void reset_sequence() { sequence_ = 0; }
  // The last sequence number a record id used; a data directory keeps it so
  // a restarted org never hands out an id it already gave.
  uint64_t sequence() const { return sequence_.load(); }
  void restore_sequence(uint64_t last) { sequence_ = last; }

 private:
  std::shared_ptr<RandomSource> random_;
  std::atomic<uint64_t> sequence_{0};
};

}  // namespace fake_org
