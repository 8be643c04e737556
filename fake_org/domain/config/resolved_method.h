#pragma once
// A payment method as a request resolved it against the org's configuration
// (spec 2.6): the fixture's method, processor and target, and the
// parameters given. Resolution is the payments room's
// (payments/payment_method_resolution.h); the bank-account checks
// (banking/) read the result, so it lives below both.
#include <nlohmann/json.hpp>

#include "org_config.h"

namespace fake_org {

struct ResolvedMethod {
  const PaymentMethodDef* method = nullptr;
  const ProcessorDef* processor = nullptr;
  const TargetDef* target = nullptr;  // null when the processor has no targets
  nlohmann::json parameters = nlohmann::json::object();
  bool parameters_given = false;

  // {"Name", "Processor", "Target", "Parameters"?}: the response echo (spec 2.6).
  nlohmann::json echo() const;
};

}  // namespace fake_org
