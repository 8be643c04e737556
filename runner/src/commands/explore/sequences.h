#pragma once
// Stateful cases: a root operation, then operations reached through the
// links between them (a payment intent's id into GET /PaymentIntent, its
// installment's into GET /Installment, a created account's into read,
// update, query and delete), as OpenAPI links lead a state machine. The
// links are a table; a case follows a few of them at random.
#include <optional>
#include <string>
#include <vector>

#include "commands/explore/explore_case.h"
#include "commands/explore/facts.h"
#include "commands/explore/operations.h"

namespace runner::explore {

struct Link {
  std::string from;  // operation whose answer holds the value
  std::string to;    // operation that uses it
  std::string var;   // the variable `to` needs
  std::string path;  // where `from`'s answer has it (capture path)
  std::string root;  // only in cases started by this operation ("" : any)
  // Further values `to` needs from the same answer: var -> capture path.
  std::vector<std::pair<std::string, std::string>> also = {};
};

const std::vector<Link>& links();

// A valid case: the root and up to three linked operations, with the rules
// their answers must keep (the amount read back, an idempotent replay, an
// update read back). Deterministic from (seed, index).
Case valid_case(const TargetFacts& facts, uint64_t seed, size_t index);

// A valid case that reaches `op` along the shortest chain of links from a
// root (the sweep's way to every operation), its bodies' optional members
// per `fill`; nullopt when no chain leads there.
std::optional<Case> valid_case_to(const TargetFacts& facts, uint64_t seed, size_t index,
                                  const std::string& op, Fill fill = Fill::kDrawn);

// A query step counting an object's records, capturing the count as
// `count_<Object>`; with `expect_same`, expecting the captured count instead.
Step count_step(const std::string& object, bool expect_same);

}  // namespace runner::explore
