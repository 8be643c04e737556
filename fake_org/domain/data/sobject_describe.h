#pragma once
// The catalogue as the REST data API describes it: describe global
// (GET sobjects), an object's basic info and its full describe, with the
// platform's words for field types. Reads only the org's configuration
// (and, for recent items, the records); stateless.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "data_errors.h"
#include "domain/config/org_config.h"
#include "domain/org/org.h"
#include "domain/store/field_map.h"

namespace fake_org::data {

// The platform's type word of a catalogue field: "string", "picklist",
// "double", "reference"... ("int" for a number without decimals).
const char* platform_type(const FieldDef& f);

// A field's label: its API name without the namespace and "__c", with spaces.
std::string field_label(const FieldDef& f);

// Fields the platform requires on create (nillable false): the standard ones
// (Contact.LastName, Account.Name, Campaign.Name).
bool required_on_create(const ObjectDef& object, const FieldDef& f);

// The fields every object has besides its catalogue's (Id, IsDeleted,
// CreatedDate, LastModifiedDate, SystemModstamp); compared without case.
bool is_system_field(std::string_view name);

// GET sobjects: {encoding, maxBatchSize, sobjects: [...]}.
nlohmann::ordered_json describe_global(const OrgConfig& config, std::string_view version);

// GET sobjects/{Type}: {objectDescribe, recentItems}; NOT_FOUND for an unknown type.
DataResult<nlohmann::ordered_json> sobject_basic_info(const Org& org, std::string_view type,
                                                      std::string_view version);

// GET sobjects/{Type}/describe: every field; NOT_FOUND for an unknown type.
DataResult<nlohmann::ordered_json> describe_sobject(const OrgConfig& config, std::string_view type,
                                                    std::string_view version);

}  // namespace fake_org::data
