#pragma once
// Guided matching (spec 1, 2.7, 2.12): the rules of a processing type decide
// whether an inbound report is Matched or stops in Guided Review or Failed.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "org_config.h"

namespace fake_org {

struct RuleHit {
  std::string outcome;  // "Guided Review" | "Failed"
  std::string reason;   // the rule's reason, or one made from the rule
};

// The value at a dotted path of the request body ("OneTime.Amount"); null when absent.
nlohmann::json value_at_path(const nlohmann::json& body, std::string_view dotted);

// Every rule of `type` that holds for the request, in rule order.
std::vector<RuleHit> evaluate_rules(const ProcessingTypeDef& type, const nlohmann::json& request);

}  // namespace fake_org
