#pragma once
// Failure and step descriptions shared by the console and JUnit reports.
#include <string>

#include "report/results.h"

namespace runner {

// "ok    3 POST /PaymentIntent  200 in 12 ms" / "FAIL ..." / "skip ..."
std::string step_line(const StepResult& step);
// Everything needed to act on a failed step: where it is, each failure with
// its diff, the request and response (long bodies capped, with a count of the
// lines left out), and the commands reproducing it: for the embedded target,
// starting a fake-org with the scenario's fixture and taking a token first.
// `file` is the scenario's, for the hint to replay it whole.
std::string failure_text(const StepResult& step, const std::string& file = "");
// The failure of a scenario: its setup error, or its failed step's text.
std::string scenario_failure_text(const ScenarioResult& scenario);
// One line for a CI view's failure message: the first mismatch, with where
// it is ("step 3 'create': expected status 201, got 200"; "step 4 'get':
// /Status: expected "Paid", got "Pending""), or the setup error's first line.
std::string failure_headline(const ScenarioResult& scenario);
std::string step_failure_headline(const StepResult& step);
std::string indent(const std::string& text, const std::string& prefix);
// Milliseconds as seconds with `decimals` places: "1.50" for (1500, 2).
std::string seconds(double ms, int decimals);

}  // namespace runner
