#pragma once
// A record created while the org runs (the admin API's POST
// /__admin/records/{Type}, the REST data API's POST sobjects/{Type}): a new
// id of the object's key prefix, a GUID for the package's objects, the org
// clock's instant, the object's default record type, and for an installment
// what the org itself always sets (decisions 49). Stored like any other
// record, so the payment API's deduplication finds it.
#include <nlohmann/json.hpp>

#include "domain/config/org_config.h"
#include "domain/org/org.h"
#include "domain/store/record.h"

namespace fake_org {

// `fields` are already checked against the catalogue. `record_type` may be
// null (the object's default, if it has one).
Record new_record(Org& org, const ObjectDef& def, nlohmann::json fields,
                  const RecordTypeDef* record_type);

}  // namespace fake_org
