#pragma once
// One generated case: a scenario (the runner's own model, so the suite runs
// it and the writer writes it) and, per step, what the explorer knows of it:
// the operation, the rule its expectation states, whether it is the step a
// near-miss changed.
#include <string>
#include <vector>

#include "scenario/model.h"

namespace runner::explore {

struct StepMeta {
  std::string op;    // the explorer's operation name; "" for a count query
  std::string rule;  // the check its expectation states ("" : none)
  bool focus = false;
  bool prelude = false;  // one of --prelude's steps: kept by the shrinker
  // The optional members the body builder added (pointers, parents first):
  // a valid request stays valid without them, so a shrinker may cut them.
  std::vector<std::string> optional = {};
};

struct Case {
  size_t index = 0;
  std::string mutation;  // "" for a valid case; else "missing /Payer", ...
  std::string family;    // the mutation's family: missing, wrong_type, ...
  Scenario scenario;
  std::vector<StepMeta> meta;  // beside scenario.steps
  // The near-miss cannot be written to a YAML file as sent (bytes that are
  // not UTF-8).
  bool unwritable = false;

  // The operation that started the case (count queries and the prelude aside).
  std::string root() const;
  // The operation the case is about: the mutated step's, else the last one's.
  std::string operation() const;
};

}  // namespace runner::explore
