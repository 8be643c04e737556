#pragma once
// The explorer's run: make cases from a seed, run them on the target with
// the suite's runner (its workers, its sessions), judge each with the
// checks, shrink the first case of each distinct failure and write it as a
// scenario.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checker/checker.h"
#include "commands/explore/checks.h"
#include "commands/explore/facts.h"
#include "commands/explore/shrink.h"
#include "report/results.h"
#include "targets/target.h"

namespace runner::explore {

struct ExploreOptions {
  uint64_t seed = 1;
  size_t cases = 200;  // the budget in cases...
  double seconds = 0;  // ...or in seconds, when not 0
  int jobs = 1;
  std::optional<contracts::Profile> profile;  // default: the target's
  unsigned near_miss_percent = 70;
  size_t shrink_tries = 60;  // runs per finding
  std::string out_dir;       // written scenarios; empty: none written
  std::string command;       // the command line, for the written files
  std::string fixture;       // every case's fixture; empty: the target's default
  // Steps run before every case (--prelude: faults to plant, records to
  // seed); part of each case and of each written scenario.
  std::vector<Step> prelude;
};

// The first case of one kind of failure: a check on an operation, with the
// mutation's family.
struct Finding {
  std::string signature;  // "no_5xx postPaymentIntent wrong_type"
  CheckFailure failure;   // on the original case
  Case original, shrunk;
  size_t hits = 0;  // cases that failed so
  int status = 0;   // the failing step's answer; a cut must keep it
  ShrinkStats shrink;
  std::string file;         // written scenario, "" when not written
  std::string write_error;  // why not
  std::string yaml;
};

struct Counts {
  size_t cases = 0, failed = 0;
};

struct ExploreRun {
  TargetFacts facts;
  std::vector<Case> cases;
  RunResult run;  // the cases as the suite's reports show them: failures are check failures
  RunResult raw;  // the same as the suite ran them (for --against)
  std::vector<Judgement> judgements;
  std::vector<Finding> findings;
  std::map<std::string, Counts> by_operation;  // per route-table operationId
  std::map<std::string, Counts> by_check;      // applied, failed
  double seconds = 0;
};

// Case `index` of a run seeded `seed`: valid or a near-miss of one.
Case make_case(const TargetFacts& facts, uint64_t seed, size_t index, unsigned near_miss_percent);

ExploreRun explore(Target& target, const TargetFacts& facts, const ExploreOptions& options);

}  // namespace runner::explore
