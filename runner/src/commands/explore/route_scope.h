#pragma once
// Which rows of the route table the explorer must reach: every row of the
// org's areas (the payment API, OAuth and identity, the REST data API) has
// an operation, or a line here saying why not. The fake's own areas (the
// admin API, the simulated PSP's pages) are the fake's, not the org's.
#include <string>
#include <vector>

#include "commands/explore/coverage.h"

namespace runner::explore {

struct UnexploredRoute {
  std::string operation_id;
  std::string reason;
};

// The org's rows the explorer leaves out, each with its reason.
const std::vector<UnexploredRoute>& unexplored_routes();

// Rows of the org's areas with neither an operation nor a reason, and
// reasons naming a row the table does not have: one line each.
std::vector<std::string> route_scope_gaps();

}  // namespace runner::explore
