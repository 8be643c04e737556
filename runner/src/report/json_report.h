#pragma once
// The machine-readable report: the run, each scenario, each step with its
// failures (structured mismatches included), request, response and curl.
#include <nlohmann/json.hpp>

#include "report/results.h"

namespace runner {

nlohmann::json json_report(const RunResult& run);

}  // namespace runner
