#pragma once
// Running the same scenarios against two targets and collecting, step by
// step, where their answers differ. The scenarios' expectations and contract
// checks are set aside (parity compares the two orgs, not each against the
// scenario), so both sides run every step their captures allow.
#include <optional>
#include <string>
#include <vector>

#include "commands/parity/difference.h"
#include "targets/target.h"

namespace runner::parity {

struct ParityOptions {
  std::string a;  // target specs as for `run`, plus embedded:FIXTURE
  std::string b;
  std::vector<std::string> paths;
  std::string ca_file;
  int jobs = 1;
};

// What one side compares, for the report's header.
struct SideFacts {
  std::string target;       // as described by the target
  std::string fixture;      // the fixture every scenario runs on, or "each scenario's own"
  std::string api_version;  // the REST data API's
};

struct ParityResult {
  std::string a, b;  // as described by the targets
  SideFacts side_a, side_b;
  size_t scenarios = 0;
  // "file: reason", scenarios one side cannot run; left out on both.
  std::vector<std::string> skipped;
  size_t compared = 0;                  // scenarios run and compared on both sides
  size_t skipped_a = 0, skipped_b = 0;  // scenarios each side cannot run
  std::vector<Difference> differences;
  size_t unallowed() const;
};

// Load errors and target problems come back as messages in `errors`, and
// nothing is run then.
ParityResult run_parity(const ParityOptions& options, std::vector<std::string>& errors);

// Differences between two runs of the same scenarios (same order).
std::vector<Difference> compare_runs(const RunResult& a, const RunResult& b);

}  // namespace runner::parity
