#pragma once
// A Pact interaction as a scenario file: its provider states' setup (fixture,
// params as vars, clock, records made through the data API, steps) first,
// then the request with the response's expectation (pact_rules.h).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands/pact/pact_file.h"
#include "fixture/provider_states.h"

namespace runner::pact {

struct PactScenario {
  std::string file_name;  // "01_a_one_time_card_payment.yaml"
  nlohmann::ordered_json scenario;
};

struct PactImportOptions {
  std::string source;                // the Pact file's name, for descriptions
  std::string api_version = "59.0";  // the data API version records are made with
};

// One scenario per interaction. `states` may be null when no interaction
// names a provider state. Throws PactError naming every provider state the
// states file lacks, and any rule that cannot be translated.
std::vector<PactScenario> pact_scenarios(const Pact& pact, const fake_org::ProviderStates* states,
                                         const PactImportOptions& options);

}  // namespace runner::pact
