#pragma once
// One way two orgs answered the same step differently, and how to find those
// ways: status, the set of fields, their types, and enum values, with the
// values orgs generate (ids, timestamps, tokens, URLs, free text) normalised
// away first.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/results.h"

namespace runner::parity {

struct Difference {
  std::string file;  // scenario file
  std::string scenario;
  size_t step = 0;  // 1-based; 0 for the scenario as a whole
  std::string step_name;
  std::string kind;  // status | field | type | enum | step
  std::string path;  // JSON pointer, `*` for array items; empty for status and step
  std::string a, b;  // what each side had ("absent" for a missing field)
  bool allowed = false;
  std::string reason;  // the allow-list entry's reason when allowed
};

void to_json(nlohmann::json& j, const Difference& d);

// Differences between two runs of one step (same scenario, same index).
std::vector<Difference> compare_steps(const StepResult& a, const StepResult& b);
// Differences between two response bodies (JSON), by pointer.
std::vector<Difference> compare_bodies(const nlohmann::json& a, const nlohmann::json& b);

}  // namespace runner::parity
