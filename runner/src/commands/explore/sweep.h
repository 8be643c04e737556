#pragma once
// The first cases of every run: valid cases reaching every operation, their
// bodies with every optional member the target's facts allow (so every
// request-schema property the explorer can send is sent), a near-miss of
// each operation, each route with a JSON body sent as text/plain, and a
// near-miss for each property no earlier near-miss
// changed; so even a small budget exercises every route explore knows and
// every property (coverage_gaps() finds none). Past the sweep, the cases are
// drawn at random.
#include <optional>
#include <string>
#include <vector>

#include "commands/explore/explore_case.h"
#include "commands/explore/facts.h"

namespace runner::explore {

struct SweepTarget {
  std::string op;       // the explorer's operation name
  bool near = false;    // a near-miss of it, else a valid case reaching it
  std::string pointer;  // the body value the near-miss changes; "" any
};

// The sweep of a run seeded `seed`, in case order.
std::vector<SweepTarget> sweep_targets(const TargetFacts& facts, uint64_t seed);

// Case `index` when it is one of the sweep's; nullopt past it (or when no
// case reaches the target, which a test would show as a gap).
std::optional<Case> sweep_case(const TargetFacts& facts, uint64_t seed, size_t index);

}  // namespace runner::explore
