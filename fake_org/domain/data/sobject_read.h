#pragma once
// GET sobjects/{Type}/{Id}[?fields=A,B]: one record as the platform's sObject
// resource shows it, rendered by the SOQL engine's own record view so a read
// and a query show a record alike. Thread-safe: reads under the store's
// shared lock.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "data_errors.h"
#include "domain/org/org.h"

namespace fake_org::data {

// The platform's message for a name no field of the object has.
std::string no_such_column(std::string_view field, std::string_view object);

// `fields` empty: every catalogue field and the system fields. NOT_FOUND for
// an unknown type or record (or one of another type), MALFORMED_ID for an id
// that is no 15/18-character id, INVALID_FIELD for an unknown field,
// ENTITY_IS_DELETED for a deleted record.
DataResult<nlohmann::ordered_json> read_sobject(const Org& org, std::string_view type,
                                                std::string_view id,
                                                const std::vector<std::string>& fields,
                                                std::string_view version);

// GET composite/sobjects/{Type}?ids=&fields= (and POST with {ids, fields}):
// the records in the order asked, null for an id that names none of them
// (or a deleted one). NOT_FOUND for an unknown type, INVALID_FIELD for an
// unknown field, MALFORMED_ID for a malformed id, EXCEEDED_ID_LIMIT past
// 2,000 ids. One read lock for them all.
inline constexpr size_t kMaxRetrieveIds = 2000;
DataResult<nlohmann::ordered_json> retrieve_collection(const Org& org, std::string_view type,
                                                       const std::vector<std::string>& ids,
                                                       const std::vector<std::string>& fields,
                                                       std::string_view version);

// "A,B , C" -> {"A", "B", "C"} (empty parts dropped).
std::vector<std::string> split_field_list(std::string_view list);

}  // namespace fake_org::data
