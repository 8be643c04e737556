#pragma once
// The REST data API's writes: create (POST sobjects/{Type}), update (PATCH
// .../{Id}) and delete (DELETE .../{Id}) of one record, checked by the
// catalogue's rules (record_values.h) with the platform's error codes. A
// delete is soft (Record::deleted): the record then answers
// ENTITY_IS_DELETED and only queryAll sees it.
//
// The stage_* functions work inside a caller's transaction (composite
// requests stage many); the others run one transaction each, so a failed
// request changes nothing.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "data_errors.h"
#include "domain/config/org_config.h"
#include "domain/org/org.h"
#include "domain/store/record.h"
#include "domain/store/transaction.h"

namespace fake_org::data {

struct Done {};

// The record `id` names, of `def` (any object when null): MALFORMED_ID,
// NOT_FOUND, ENTITY_IS_DELETED.
DataResult<RecordPtr> live_record(const RecordReader& records, const ObjectDef* def,
                                  std::string_view id);

DataResult<std::string> stage_create(Org& org, Transaction& tx, const ObjectDef& def,
                                     const nlohmann::json& body);
DataResult<Done> stage_update(Org& org, Transaction& tx, const ObjectDef* def, std::string_view id,
                              const nlohmann::json& body);
DataResult<Done> stage_delete(Org& org, Transaction& tx, const ObjectDef* def, std::string_view id);

// NOT_FOUND for an unknown type; the new record's id.
DataResult<std::string> create_sobject(Org& org, std::string_view type, const nlohmann::json& body);
DataResult<Done> update_sobject(Org& org, std::string_view type, std::string_view id,
                                const nlohmann::json& body);
DataResult<Done> delete_sobject(Org& org, std::string_view type, std::string_view id);

}  // namespace fake_org::data
