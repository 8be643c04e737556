#pragma once
// PackageActions (spec 2.8, 4.6): extra actions of a package that a request
// carries as package -> action -> parameters (the same map in /PaymentIntent
// and the older /Payment, docs/decisions.md), checked against GET
// /PackageActions, and the records they create (a Gift Aid declaration).
//
// Decisions (docs/decisions.md):
// - A processor's RequiredPackageActions ("Package.Action") missing from the
//   request: 010 naming the action, method and processor.
// - An unknown package, action or parameter: 200 listing what the org has.
//   A required parameter missing: 010 naming it; a wrong type: 200; a value
//   the record's field cannot hold (too long for it): 200.
// - An action with creates_object creates one record per request, linked to
//   the payer's contact and account, filled through each parameter's field.
//   It is staged in the request's transaction, so a later failure leaves none.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "domain/config/org_config.h"
#include "domain/core/clock.h"
#include "domain/core/errors.h"
#include "domain/core/ids.h"
#include "domain/store/record.h"

namespace fake_org {

// One action of the request, checked against the org.
struct PackageActionUse {
  const PackageDef* package = nullptr;
  const PackageActionDef* action = nullptr;
  nlohmann::json parameters = nlohmann::json::object();  // as given
};

// Checks the request's PackageActions block against the org's packages and
// `processor`'s required actions (`method` names the method in messages).
// Every problem at once; the uses in the order of the block.
Result<std::vector<PackageActionUse>> check_package_actions(const OrgConfig& config,
                                                            const nlohmann::json& given,
                                                            const std::string& method,
                                                            const ProcessorDef& processor);

// Who the records of an action belong to.
struct PackageActionOwner {
  std::string contact, account, payment_intent_id;
};

// The record `use` creates (its action's creates_object), or nothing when the
// action creates none. Not staged: the caller puts it in its transaction.
std::optional<Record> package_action_record(const OrgConfig& config, IdGenerator& ids,
                                            TimePoint now, const PackageActionUse& use,
                                            const PackageActionOwner& owner);

// A declaration record's field as the parameter's DataType wants it: dates
// YYYY-MM-DD, booleans true/false, numbers as numbers.
nlohmann::json package_parameter_value(const ParameterDef& def, const nlohmann::json& value);

}  // namespace fake_org
