#pragma once
// Turning a request spec into a sent request, and checking the answer against
// the contract.
#include <optional>

#include "steps/step_context.h"

namespace runner {

// Interpolates and sends; throws HttpError, TargetError or InterpolationError.
SentRequest send_request(const RequestSpec& spec, StepContext& ctx);
Exchange to_exchange(const SentRequest& sent);

// A contract failure, if the response breaks the contract of its endpoint.
// Admin paths are outside the contract.
std::optional<Failure> check_contract(const contracts::Checker* checker, const HttpRequest& request,
                                      const HttpResponse& response);

}  // namespace runner
