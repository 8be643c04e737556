#pragma once
// What one record's write means for other records, as the platform keeps
// it: a unique field's value no two live records share (DUPLICATE_VALUE),
// and a delete that takes the records it owns along (a reference marked
// cascade_delete: an Account's Contacts) and clears the optional lookups
// that named it. Every lookup goes through an index (add_relation_indexes);
// everything is staged in the caller's transaction, so a delete applies
// whole or not at all. Stateless.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "data_errors.h"
#include "domain/config/org_config.h"
#include "domain/org/org.h"
#include "domain/store/transaction.h"

namespace fake_org::data {

// The index the org keeps over one field of an object alone (every record
// that has a value), or null.
const IndexSpec* field_index(const RecordStore& store, std::string_view object,
                             std::string_view field);

// The live records whose `field` holds `value` (as the field's index keys
// it: without case for text), staged changes included; empty when the field
// has no index.
std::vector<std::string> records_with(Org& org, const Transaction& tx, const ObjectDef& object,
                                      const FieldDef& field, const std::string& value);

// INVALID_TYPE_FOR_OPERATION: the org's own objects are read only.
DataError read_only_object(const ObjectDef& object, const char* verb);

// DUPLICATE_VALUE for each unique field of `values` another live record
// (not `self`) already holds.
DataErrors unique_conflicts(Org& org, const Transaction& tx, const ObjectDef& object,
                            const nlohmann::json& values, const std::string& self);

// Deletes `record` (soft, as the recycle bin keeps it), the records that
// cascade from it, and clears the other references to any of them.
void stage_cascade_delete(Org& org, Transaction& tx, const RecordPtr& record);

// The indexes external ids and unique fields are looked up by
// ("ext:<Object>.<Field>", without case); every org keeps them (org_modules.cpp).
void add_relation_indexes(const OrgConfig& config, std::vector<IndexSpec>& out);

}  // namespace fake_org::data
