#pragma once
// A step's request and response as `--verbose` prints them under its line:
// the request line, then each body with its secrets redacted by the rule
// fake-org's debug log and journal use (util/redaction.h), so a CI log of a
// verbose run holds no token, client secret or card number that the org's
// own log would have hidden.
#include <string>

#include "report/results.h"

namespace runner {

// "> POST https://.../PaymentIntent\n> {"Amount":10}\n< 201 in 12 ms\n< {...}\n";
// each body cut to a few thousand characters, saying how much is left out.
// Empty when the step made no HTTP exchange (a clock step).
std::string exchange_text(const StepResult& step);

}  // namespace runner
