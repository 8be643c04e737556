#pragma once
// Errors as values: every domain operation returns Result<T>; the HTTP layer
// alone turns an ApiError into a status code (http/responses.cpp).
#include <string>
#include <utility>
#include <vector>

#include "util/expected.h"

namespace fake_org {

// The spec's error codes (section 7) plus the fake's own HTTP-only kinds.
namespace error_code {
inline constexpr const char* kMissingCoreParameter = "010";
inline constexpr const char* kMissingProcessorParameter = "011";
inline constexpr const char* kMissingSourceConnectorParameter = "012";
inline constexpr const char* kInvalidData = "200";
inline constexpr const char* kBacsInvalid = "201";
inline constexpr const char* kIbanInvalid = "202";
inline constexpr const char* kIbanNotSepa = "203";
inline constexpr const char* kBicRequired = "204";
inline constexpr const char* kAddressRequired = "205";
inline constexpr const char* kSwedishAccountInvalid = "206";
inline constexpr const char* kNoDefault = "998";
inline constexpr const char* kUncategorised = "999";
}  // namespace error_code

// Why a request failed beyond its code: the HTTP layer maps code+kind to a status.
enum class ErrorKind {
  kSpec,      // status from the code (fixture-configurable mapping)
  kNotFound,  // an id that names no record: 404
  kConflict,  // idempotency key reused with another body: 409
  kBadJson,   // body is not JSON: 400
};

struct ApiError {
  std::string code;     // "010" .. "999"
  std::string message;  // names the offending field and says what to do
  std::string field;    // dotted path of the offending field, may be empty
  ErrorKind kind = ErrorKind::kSpec;
};

using ApiErrors = std::vector<ApiError>;

inline ApiError make_error(std::string code, std::string field, std::string message,
                           ErrorKind kind = ErrorKind::kSpec) {
  return ApiError{std::move(code), std::move(message), std::move(field), kind};
}

// Either a value or one or more errors.
template <typename T>
using Result = util::ValueOrErrors<T, ApiError>;

struct Ok {};
using Status = Result<Ok>;
inline Status ok_status() {
  return Ok{};
}

}  // namespace fake_org
