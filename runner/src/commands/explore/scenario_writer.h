#pragma once
// Writing a (shrunk) failing case as a scenario file the runner replays: the
// failed check becomes the failing step's expectation, every other step
// accepts any status and skips the contract, so the file fails exactly where
// and how the explorer saw it fail.
#include <string>

#include "commands/explore/checks.h"
#include "commands/explore/explore_case.h"

namespace runner::explore {

struct WriteContext {
  std::string command;   // the explore command line that found it, for the description
  int focus_status = 0;  // the near-miss's answer (refused_write_unchanged states it)
};

// The YAML text; empty with `error` set when the case cannot be written
// (bytes that are not UTF-8) or does not load back (a bug worth reporting).
std::string scenario_yaml(const Case& c, const CheckFailure& failure, const WriteContext& w,
                          std::string& error);

}  // namespace runner::explore
