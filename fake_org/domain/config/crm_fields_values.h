#pragma once
// The per-type value checks behind CrmFields (crm_fields.h).
#include <string>

#include <nlohmann/json.hpp>

#include "org_config.h"

namespace fake_org::crm_detail {

// A normalised value, or why it is refused; `reason` reads after "<Object>.<Field> ".
struct Checked {
  nlohmann::json value;
  std::string reason;
};

// Checks one value against a field's type; nested objects and arrays are refused.
Checked check_value(const ObjectDef& object, const FieldDef& field, const nlohmann::json& value,
                    const OrgConfig* config);

}  // namespace fake_org::crm_detail
