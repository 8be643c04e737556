#pragma once
// The parity report: a table for people, JSON for tools.
#include <ostream>

#include <nlohmann/json.hpp>

#include "commands/parity/parity_runner.h"

namespace runner::parity {

void print_table(const ParityResult& r, std::ostream& out);
nlohmann::json json_report(const ParityResult& r);

}  // namespace runner::parity
