#pragma once
// Turns recorded exchanges into one scenario that replays against another
// org: values the org generated become captures where they first appear and
// `${var}` later; secrets never reach the file; expectations keep what a
// client relies on (status, fields, enums) and match volatile values by shape
// or drop them. Shared by `record` (the proxy) and `import-har`.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands/record/exchange.h"

namespace runner::record {

using OJson = nlohmann::ordered_json;

// What becomes of card and bank account numbers sent in requests.
enum class SecretMode {
  kEnv,   // ${env:CARD_NUMBER}, ${env:IBAN}: replays where the variable is set
  kMask,  // 4242XXXXXXXX4242: readable, but the org will refuse it on replay
  kKeep,  // written as sent (test card numbers, sandbox IBANs)
};

struct GeneraliseOptions {
  std::string name = "recorded scenario";
  std::string description;  // default: says where it was recorded
  std::string fixture;      // written as `fixture:` when set
  std::string api_path = "/services/apexrest/cpm/v2";
  bool strict = false;  // keep every field and header, volatile ones as matchers; exact objects
  SecretMode cards = SecretMode::kEnv;
  SecretMode accounts = SecretMode::kEnv;
};

struct Generalised {
  OJson scenario;                          // the scenario document, keys in file order
  std::vector<std::string> env;            // environment variables the replay needs
  std::vector<std::string> notes;          // exchanges left out, and why
  std::vector<std::string> secret_values;  // literal secrets seen: the file must hold none
  bool card_numbers_kept = false;          // --card-numbers keep: steps may hold card numbers
};

Generalised generalise(const std::vector<RecordedExchange>& exchanges,
                       const GeneraliseOptions& options);

// The scenario as YAML text; throws std::runtime_error if a secret value
// would be written, or a card number (card_numbers_in) is left in a step's
// text unless they are kept (a bug, never a silent leak).
std::string scenario_yaml(const Generalised& g);

SecretMode secret_mode_from_string(const std::string& s);  // env | mask | keep; throws

}  // namespace runner::record
