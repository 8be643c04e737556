#pragma once
// Storing values of a response (or a webhook) in variables for later steps.
#include <optional>
#include <vector>

#include "eval/interpolate.h"
#include "net/http_types.h"
#include "report/results.h"
#include "scenario/model.h"

namespace runner {

struct CaptureSource {
  const nlohmann::json* body = nullptr;  // null when the body is not JSON
  const Headers* headers = nullptr;
  int status = 0;
};

// A failure per capture that finds nothing; the others are stored.
std::vector<Failure> apply_captures(const std::vector<Capture>& captures, const CaptureSource& from,
                                    Variables& vars);

}  // namespace runner
