#pragma once
// Writing a generalised recording: the YAML, checked by the scenario loader
// before it is written, and a summary of what the replay needs.
#include <ostream>
#include <string>

#include "commands/record/generaliser.h"

namespace runner::record {

// 0 written; 2 could not write, or the scenario does not load (a bug worth reporting).
int write_scenario(const Generalised& g, const std::string& path, std::ostream& out,
                   std::ostream& err);

}  // namespace runner::record
