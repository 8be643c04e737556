#pragma once
// The org configuration as the informational endpoints show it (spec 4.5,
// 4.6; shapes recorded in docs/decisions.md). Never emits the deprecated
// RecurringRequiresInitialPayment (spec 2.6).
#include <nlohmann/json.hpp>

#include "org_config.h"

namespace fake_org {

void to_json(nlohmann::json& j, const ParameterDef& p);
void to_json(nlohmann::json& j, const TargetDef& t);
void to_json(nlohmann::json& j, const ProcessorDef& p);
void to_json(nlohmann::json& j, const PaymentMethodDef& m);
void to_json(nlohmann::json& j, const SourceConnectorDef& s);
void to_json(nlohmann::json& j, const PackageActionDef& a);
void to_json(nlohmann::json& j, const PackageDef& p);

nlohmann::json payment_methods_body(const OrgConfig& config);    // GET /PaymentMethods
nlohmann::json source_connectors_body(const OrgConfig& config);  // GET /SourceConnector
nlohmann::json package_actions_body(const OrgConfig& config);    // GET /PackageActions

}  // namespace fake_org
