#pragma once
// The REST data API's sObject collections (composite/sobjects): up to 200
// records created (POST), updated (PATCH) or deleted (DELETE ?ids=) in one
// request, with a save result per record. allOrNone: one transaction, and
// when any record fails nothing is stored and the others report
// ALL_OR_NONE_OPERATION_ROLLED_BACK; else one transaction per record.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "data_errors.h"
#include "domain/org/org.h"

namespace fake_org::data {

inline constexpr size_t kMaxCollectionRecords = 200;

enum class CollectionOp { kCreate, kUpdate, kDelete };

struct SaveResult {
  std::string id;  // empty: null (a create that failed)
  bool success = false;
  DataErrors errors;
  // Upserts only: whether the record was created (shown as "created").
  std::optional<bool> created = std::nullopt;
};

// The platform's body: [{id, success, errors: [{statusCode, message, fields}]}].
nlohmann::ordered_json save_results_json(const std::vector<SaveResult>& results);

// POST and PATCH: `body` is {"allOrNone": bool, "records": [...]}, each
// record with attributes.type (and "id" for PATCH). Request-level errors
// (no records list, more than 200) come back as errors, per-record ones in
// the results.
DataResult<std::vector<SaveResult>> save_collection(Org& org, CollectionOp op,
                                                    const nlohmann::json& body);

// PATCH composite/sobjects/{Type}/{ExternalIdField}: each record holds the
// field's value (upsert, sobject_upsert.h); NOT_FOUND for an unknown type or
// a field that is no external id.
DataResult<std::vector<SaveResult>> upsert_collection(Org& org, std::string_view type,
                                                      std::string_view field,
                                                      const nlohmann::json& body);

// DELETE ?ids=a,b&allOrNone=true.
DataResult<std::vector<SaveResult>> delete_collection(Org& org, const std::vector<std::string>& ids,
                                                      bool all_or_none);

}  // namespace fake_org::data
