#pragma once
// The catalogue's rules for a value a client (or a seed) gives a field, in
// one place: seeds and /__admin/records (fixture/record_fields.h) word them
// as fixture messages, the REST data API as the platform's error codes.
// Stateless; safe from any thread.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "data_errors.h"
#include "domain/config/org_config.h"

namespace fake_org {

// Whether a record id (18 characters) names a record that may be referenced.
using RecordExists = std::function<bool(const std::string&)>;

// One value judged: the value as the store keeps it, or the platform's code
// (data::code::*) and what the value must be ("at most 80 characters").
struct ValueCheck {
  nlohmann::json value;
  std::string code;
  std::string must;
  bool ok() const { return code.empty(); }
};

// A scalar as text, `plain` when it was no string (a JSON number or
// boolean, a plain YAML scalar): booleans must be plain. A reference must
// name a record `exists` knows; `missing_reference` says what it must be
// when it does not.
ValueCheck check_field_value(const OrgConfig& config, const FieldDef& f, const std::string& text,
                             bool plain, const RecordExists& exists,
                             std::string_view missing_reference = "the id of an existing record");

// A JSON scalar as check_field_value takes it ("" and false for null).
std::string scalar_text(const nlohmann::json& v);

// What a data API write may do with a body's fields.
enum class WriteKind { kCreate, kUpdate };

// The fields of a POST or PATCH body checked against the object's catalogue:
// unknown fields (INVALID_FIELD), system fields
// (INVALID_FIELD_FOR_INSERT_UPDATE), values (STRING_TOO_LONG,
// INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST, INVALID_TYPE_ON_FIELD_IN_RECORD,
// INVALID_EMAIL_ADDRESS, MALFORMED_ID, INVALID_CROSS_REFERENCE_KEY,
// JSON_PARSER_ERROR for an object or array), required fields
// (REQUIRED_FIELD_MISSING). "attributes" is ignored. On success `out` holds
// the values to store (null clears a field).
data::DataErrors check_record_body(const OrgConfig& config, const ObjectDef& object,
                                   const nlohmann::json& body, WriteKind kind,
                                   const RecordExists& exists, nlohmann::json& out);

}  // namespace fake_org
