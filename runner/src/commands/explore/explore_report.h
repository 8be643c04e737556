#pragma once
// What explore prints and writes besides the suite's own reports: the counts
// by operation and by check, each finding with its shrunk scenario, and the
// JSON of both.
#include <ostream>

#include <nlohmann/json.hpp>

#include "commands/explore/explorer.h"

namespace runner::explore {

void print_counts(const ExploreRun& r, std::ostream& out);
void print_findings(const ExploreRun& r, std::ostream& out);
// The suite's JSON report of the cases with an "explore" member: seed,
// facts, counts, findings.
nlohmann::json explore_json(const ExploreRun& r, const ExploreOptions& o);

}  // namespace runner::explore
