#pragma once
// The parity report: a table for people, JSON for tools.
#include <ostream>

#include <nlohmann/json.hpp>

#include "commands/parity/parity_runner.h"

namespace runner::parity {

// Differences alike in kind, path and both values (and whether allowed), in
// the order first seen; `all` points into the vector given.
struct DifferenceGroup {
  Difference first;
  std::vector<const Difference*> all;
};
std::vector<DifferenceGroup> group_differences(const std::vector<Difference>& differences);

void print_table(const ParityResult& r, std::ostream& out);
nlohmann::json json_report(const ParityResult& r);

}  // namespace runner::parity
