#pragma once
// Resolves what a request names against the org's configuration: payment
// method, processor and target with their defaults (spec 2.6), the source
// connector and processing type (spec 2.7), and the processor's and
// connector's required parameters (errors 011, 012).
#include <nlohmann/json.hpp>
#include <string>

#include "domain/config/org_config.h"
#include "domain/config/resolved_method.h"
#include "domain/core/errors.h"
#include "payment_intent_request.h"

namespace fake_org {

// 200 for names the org does not have (listing what it has), 998 when a
// processor or target is omitted and the org has no default, 011 for each
// required processor parameter missing, 200 for a parameter of the wrong type.
Result<ResolvedMethod> resolve_payment_method(const OrgConfig& config,
                                              const PaymentMethodInput& in);

struct ResolvedSettings {
  const SourceConnectorDef* connector = nullptr;
  const ProcessingTypeDef* processing_type = nullptr;

  nlohmann::json echo() const;  // {"SourceConnector", "ProcessingType"}
};

// 200 for an unknown connector or processing type, 998 when the connector is
// omitted and the org has no default, 012 for each required connector
// parameter missing from Settings.SourceConnectorParameters.
Result<ResolvedSettings> resolve_settings(const OrgConfig& config, const PaymentIntentRequest& req);

// Checks a value against a parameter's declared DataType; empty when fine.
std::string parameter_type_problem(const ParameterDef& def, const nlohmann::json& value);

}  // namespace fake_org
