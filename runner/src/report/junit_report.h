#pragma once
// JUnit XML for CI systems: one test case per scenario with each step's
// outcome in its system-out, or (`per_step`) one test suite per scenario with
// a test case per step.
#include <string>

#include "report/results.h"

namespace runner {

std::string junit_xml(const RunResult& run, bool per_step);
std::string xml_escape(const std::string& text);

}  // namespace runner
