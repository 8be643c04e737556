#pragma once
// Whether a step's request stands alone: a failure report's commands send
// that one request again, which is answered the same only when it needs
// nothing that earlier steps captured or made.
#include <string>

#include "scenario/model.h"

namespace runner {

// In words, what step `index` relies on from the steps before it: the
// captured values it uses ("${pi} from step 2 'create'") and the steps that
// changed the org (a write, a PSP outcome, a clock move). Empty when nothing.
std::string earlier_step_dependence(const Scenario& scenario, size_t index);

}  // namespace runner
