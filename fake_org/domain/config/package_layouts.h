#pragma once
// The layouts of the real package's public samples, for the answers the spec
// leaves "not shown" (fixture `org.response_style: package`; decisions 68).
// The spec-style layouts are org_config_json.h's and views.h's.
#include <nlohmann/json.hpp>

#include "org_config.h"

namespace fake_org::package_layout {

nlohmann::json payment_methods_body(const OrgConfig& config);    // GET /PaymentMethods
nlohmann::json source_connectors_body(const OrgConfig& config);  // GET /SourceConnector
nlohmann::json package_actions_body(const OrgConfig& config);    // GET /PackageActions

// POST /PaymentIntent 200 as the org answers it: the spec's body, or in the
// package's layout only `Id` and, when the payer must act, `RedirectURL`.
nlohmann::json payment_intent_created(const OrgConfig& config, nlohmann::json spec_body);

// An amount as the package writes it: always with a decimal point (`10.0`).
nlohmann::json decimal_amount(const nlohmann::json& amount);

// `PayLinkPage` of an installment: the org's pay link page with `?id=<GUID>`;
// empty when the org has none or the installment no GUID.
std::string pay_link_page(const OrgConfig& config, const std::string& guid);

}  // namespace fake_org::package_layout
