#pragma once
// Errors of the platform's REST data API (/services/data) as values: the
// platform's errorCode, its message and the fields it names. The HTTP layer
// alone picks the status (404 for NOT_FOUND and ENTITY_IS_DELETED, else 400)
// and renders [{"message", "errorCode", "fields"}].
#include <string>
#include <utility>
#include <vector>

#include "util/expected.h"

namespace fake_org::data {

namespace code {
inline constexpr const char* kNotFound = "NOT_FOUND";
inline constexpr const char* kEntityIsDeleted = "ENTITY_IS_DELETED";
inline constexpr const char* kMalformedId = "MALFORMED_ID";
inline constexpr const char* kMalformedQuery = "MALFORMED_QUERY";
inline constexpr const char* kInvalidField = "INVALID_FIELD";
inline constexpr const char* kInvalidType = "INVALID_TYPE";
inline constexpr const char* kRequiredFieldMissing = "REQUIRED_FIELD_MISSING";
inline constexpr const char* kStringTooLong = "STRING_TOO_LONG";
inline constexpr const char* kRestrictedPicklist = "INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST";
inline constexpr const char* kInvalidTypeOnField = "INVALID_TYPE_ON_FIELD_IN_RECORD";
inline constexpr const char* kJsonParserError = "JSON_PARSER_ERROR";
inline constexpr const char* kInvalidCrossReference = "INVALID_CROSS_REFERENCE_KEY";
inline constexpr const char* kInvalidFieldForInsertUpdate = "INVALID_FIELD_FOR_INSERT_UPDATE";
inline constexpr const char* kInvalidEmail = "INVALID_EMAIL_ADDRESS";
inline constexpr const char* kNumberOutsideValidRange = "NUMBER_OUTSIDE_VALID_RANGE";
inline constexpr const char* kFieldIntegrity = "FIELD_INTEGRITY_EXCEPTION";
inline constexpr const char* kAllOrNoneRolledBack = "ALL_OR_NONE_OPERATION_ROLLED_BACK";
inline constexpr const char* kExceededIdLimit = "EXCEEDED_ID_LIMIT";
inline constexpr const char* kMissingArgument = "MISSING_ARGUMENT";
inline constexpr const char* kInvalidTypeForOperation = "INVALID_TYPE_FOR_OPERATION";
inline constexpr const char* kDuplicateValue = "DUPLICATE_VALUE";
inline constexpr const char* kDuplicateExternalId = "DUPLICATE_EXTERNAL_ID";
inline constexpr const char* kInvalidReplicationDate = "INVALID_REPLICATION_DATE";
inline constexpr const char* kInvalidDateFormat = "INVALID_DATE_FORMAT";
inline constexpr const char* kInvalidInput = "INVALID_INPUT";
inline constexpr const char* kLimitExceeded = "LIMIT_EXCEEDED";
inline constexpr const char* kProcessingHalted = "PROCESSING_HALTED";
inline constexpr const char* kBatchProcessingHalted = "BATCH_PROCESSING_HALTED";
inline constexpr const char* kStorageLimitExceeded = "STORAGE_LIMIT_EXCEEDED";
}  // namespace code

// The platform's message for an unknown resource (type, path or version).
inline constexpr const char* kNoResource = "The requested resource does not exist";

struct DataError {
  std::string code;  // code::*
  std::string message;
  std::vector<std::string> fields;  // the fields it names (writes); may be empty
};

using DataErrors = std::vector<DataError>;

inline DataError data_error(std::string code, std::string message,
                            std::vector<std::string> fields = {}) {
  return DataError{std::move(code), std::move(message), std::move(fields)};
}

// The platform's refusal of a write past the org's record cap, with what
// the store says (RecordStore::storage_limit_error).
inline DataError storage_limit_data_error(std::string store_message) {
  // The store words it as a DML exception; the REST API leads with the code.
  const std::string lead = std::string(code::kStorageLimitExceeded) + ", ";
  if (store_message.rfind(lead, 0) == 0) store_message.erase(0, lead.size());
  return data_error(code::kStorageLimitExceeded, std::move(store_message));
}

// Either a value or the errors the platform would list.
template <typename T>
using DataResult = util::ValueOrErrors<T, DataError>;

}  // namespace fake_org::data
