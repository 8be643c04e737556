#pragma once
// Near-misses: one valid request changed in one way a client gets wrong (a
// field missing, a wrong type, a value just outside an enum or a length, a
// duplicate key, an unknown field, a malformed id, bytes that are not UTF-8,
// a wrong content type). Each family is a row; a request gets the families
// that apply to it.
#include <string>
#include <vector>

#include "commands/explore/explore_case.h"
#include "commands/explore/rng.h"

namespace runner::explore {

struct Family {
  std::string name;
  bool (*applies)(const RequestSpec&);
  // Changes the request; returns the near-miss in words ("missing /Payer").
  std::string (*apply)(RequestSpec&, Rng&);
  bool writable = true;  // the result can be written to a YAML scenario
};

const std::vector<Family>& families();

// The near-miss case `index` of a run: a valid case, one of its requests
// changed by one family, the steps after it dropped, and around it the
// counts a refused write must leave alone. Deterministic from (seed, index).
Case near_miss_case(const Case& valid, uint64_t seed, size_t index);

// The near-miss of `valid` that changes step `focus` (even one whose answer
// states a rule) by the family named `family` or, with none named, the one
// `index` picks among those that apply; the valid case again when none
// does. For the coverage sweep.
Case near_miss_on(const Case& valid, size_t focus, uint64_t seed, size_t index,
                  const std::string& family = "");

// The near-miss of `valid` that changes the value at `pointer` of step
// `focus`'s body: just outside its request schema where the schema bounds
// it, else a value of another type. For the coverage sweep.
Case near_miss_at(const Case& valid, size_t focus, const std::string& pointer);

// The JSON pointers of every value under the root (objects' members and
// arrays' items), parents before children. Pure, for tests.
std::vector<std::string> value_pointers(const nlohmann::json& body);

}  // namespace runner::explore
