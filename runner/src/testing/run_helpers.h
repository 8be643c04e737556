#pragma once
// Running scenario text in tests: load (failing the test on load errors),
// prepare the target, run, and find steps in the result.
#include <catch2/catch.hpp>

#include "run/suite_runner.h"
#include "scenario/loader.h"
#include "targets/target.h"

namespace runner::testing {

inline Scenario load_text(const std::string& text, const std::string& file = "test.yaml") {
  LoadResult r = load_scenario_text(text, file);
  std::string errors;
  for (const auto& e : r.errors) errors += e.str() + "\n";
  INFO(errors);
  REQUIRE(r.ok());
  return *r.scenario;
}

inline RunResult run_texts(Target& target, const std::vector<std::string>& texts,
                           SuiteOptions options = {}, const ProgressFn& progress = nullptr) {
  std::vector<Scenario> scenarios;
  for (size_t i = 0; i < texts.size(); ++i)
    scenarios.push_back(load_text(texts[i], "test" + std::to_string(i) + ".yaml"));
  std::vector<const Scenario*> ptrs;
  for (const auto& s : scenarios) ptrs.push_back(&s);
  auto errors = target.prepare(ptrs);
  REQUIRE(errors.empty());
  return run_suite(scenarios, target, options, progress);
}

inline ScenarioResult run_text(Target& target, const std::string& text) {
  RunResult r = run_texts(target, {text});
  REQUIRE(r.scenarios.size() == 1);
  return r.scenarios[0];
}

// The single failure of the scenario's failed step.
inline const Failure& only_failure(const ScenarioResult& r) {
  const StepResult* s = r.first_failed_step();
  REQUIRE(s != nullptr);
  REQUIRE(s->failures.size() == 1);
  return s->failures[0];
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace runner::testing
