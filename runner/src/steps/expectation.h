#pragma once
// Checking a response against an `expect` block.
#include <vector>

#include "eval/interpolate.h"
#include "net/http_types.h"
#include "report/results.h"
#include "scenario/model.h"

namespace runner {

// Without a `status` the response must be 2xx when `default_2xx` (an expect
// block), and may be anything otherwise (a poll's halt condition).
// Throws InterpolationError.
std::vector<Failure> check_expectation(const Expectation& expect, const Interpolator& in,
                                       const HttpResponse& response, bool default_2xx = true);

}  // namespace runner
