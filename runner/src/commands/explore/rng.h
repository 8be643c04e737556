#pragma once
// The explorer's random numbers: splitmix64, so one seed gives the same
// cases on every platform and standard library (std::uniform_int_distribution
// does not promise that).
#include <cstdint>
#include <vector>

namespace runner::explore {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  // A generator of its own for case `index` of a run seeded `seed`: a case
  // is the same whichever worker makes it and whatever came before.
  static Rng for_case(uint64_t seed, uint64_t index) {
    Rng r(seed * 0x9E3779B97F4A7C15ULL + index);
    r.next();
    return r;
  }
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // 0 .. n-1; 0 when n is 0.
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(next() % n); }
  bool chance(unsigned percent) { return below(100) < percent; }
  template <typename T>
  const T& pick(const std::vector<T>& v) {
    return v[below(v.size())];
  }

 private:
  uint64_t state_;
};

}  // namespace runner::explore
