#pragma once
// Upsert by external id, as the REST data API does it: PATCH
// sobjects/{Type}/{Field}/{value} and PATCH composite/sobjects/{Type}/{Field}.
// The field must be an external id of the object (or Id); its value is
// looked up through the field's index (record_relations.h), never a scan:
// no record creates one (with the value set), one is updated, more than one
// is refused with their ids. One transaction per record.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "data_errors.h"
#include "domain/config/org_config.h"
#include "domain/org/org.h"
#include "domain/store/transaction.h"

namespace fake_org::data {

struct UpsertOutcome {
  std::string id;  // the record created or updated
  bool created = false;
  // More than one record holds the value: their ids (nothing was written).
  std::vector<std::string> matches;
};

// NOT_FOUND for an unknown type or a field that is no external id;
// INVALID_FIELD when the body gives the field another value.
DataResult<UpsertOutcome> upsert_sobject(Org& org, std::string_view type, std::string_view field,
                                         std::string_view value, const nlohmann::json& body);

// The same inside a caller's transaction (collections).
DataResult<UpsertOutcome> stage_upsert(Org& org, Transaction& tx, const ObjectDef& def,
                                       const FieldDef* field, std::string_view value,
                                       const nlohmann::json& body);

// The live records (staged ones included) whose external id `field` holds
// `value`, read through the field's index; the value as the field stores it
// goes to `stored` when given. An error when the value does not fit the field.
DataResult<std::vector<std::string>> records_by_external_id(Org& org, const Transaction& tx,
                                                            const ObjectDef& def,
                                                            const FieldDef& field,
                                                            std::string_view value,
                                                            nlohmann::json* stored = nullptr);

// The external id field `name` of `def` (Id is returned as null with ok);
// NOT_FOUND when it is none.
DataResult<const FieldDef*> external_id_field(const ObjectDef& def, std::string_view name);

}  // namespace fake_org::data
