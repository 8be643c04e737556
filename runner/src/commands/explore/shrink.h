#pragma once
// Shrinking a failing case: drop the steps the failure does not need, then
// the members of the failing request's body it does not need, keeping each
// cut only while the same check still fails on the same step. The runs are
// the caller's (`still_fails`), so the shrinker is pure and testable.
#include <functional>
#include <string>

#include "commands/explore/explore_case.h"

namespace runner::explore {

struct ShrinkStats {
  size_t tries = 0;  // candidate cases run
  size_t cuts = 0;   // candidates kept
};

// `step_name`: the failing step's name (step names stay as cuts move indexes).
// Without `cut_members` (a valid case's failure) only the optional members
// the body builder added (StepMeta::optional) are cut.
Case shrink_case(Case c, const std::string& step_name,
                 const std::function<bool(const Case&)>& still_fails, size_t max_tries,
                 ShrinkStats& stats, bool cut_members = true);

// Every `${name}` a step uses is captured by an earlier step or built in
// (a cut that removes a capture still in use is no smaller case).
bool references_defined(const Case& c);

// The index of the step named so, or steps.size().
size_t step_named(const Case& c, const std::string& name);

}  // namespace runner::explore
