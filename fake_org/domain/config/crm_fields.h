#pragma once
// CrmFields (spec 2.1): a block of CRM field API names and values, checked
// against the fields the org (fixture) defines on the target object.
//
// Decisions (docs/decisions.md):
// - Values are normalised before they are stored: text trimmed, numbers as
//   JSON numbers (numeric strings accepted), dates YYYY-MM-DD, date-times
//   UTC ISO 8601 with milliseconds, booleans from true/false or "true"/"false",
//   references as 18-character ids.
// - An empty string (after trimming) means null, as on the platform.
// - null clears a field, except the platform's required name fields
//   (Contact.LastName, Account.Name), which are refused; a checkbox given null
//   becomes false, because platform checkboxes are never empty.
// - Field names are case-insensitive (the platform's rule); values are stored
//   under the org's spelling. The same field twice (Email and email) is refused.
// - Picklist values are case-sensitive, as restricted picklists are; a value
//   differing only in case gets a "did you mean" hint.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "domain/core/errors.h"
#include "org_config.h"

namespace fake_org {

struct CrmFieldsCheck {
  nlohmann::json values = nlohmann::json::object();  // org spelling -> normalised value
  ApiErrors errors;
  bool ok() const { return errors.empty(); }
};

// Validates CrmFields against the fields that exist on `object` in the org.
// Every problem is an error 200 whose message names object, field and reason
// and whose `field` is "<path>.<key as sent>". Never throws on nested objects
// or arrays where a scalar is expected. System fields (FieldDef::system) are
// refused. `config`, when given, lets reference fields check the referenced
// object's key prefix; without it any well-formed record id is accepted.
CrmFieldsCheck check_crm_fields(const nlohmann::json& crm, const ObjectDef& object,
                                std::string_view path, const OrgConfig* config = nullptr);

// One entry of a CrmFields block for callers that route keys themselves
// (person-account notation, the "GiftCommitment." prefix): `key` is what the
// client sent (used in the error's path), `field_name` the field on `object`
// it stands for. Adds the value to out.values or an error to out.errors.
void check_crm_field(std::string_view key, std::string_view field_name, const nlohmann::json& value,
                     const ObjectDef& object, std::string_view path, const OrgConfig* config,
                     CrmFieldsCheck& out);

// Person-account notation (spec 2.2 rule 3): the CrmFields of a person
// account's Account block split into the Account's own fields and its
// Contact's fields. Standard Account fields as is and custom "__c" fields stay
// on the Account; "Person"-prefixed standard Contact fields (PersonEmail ->
// Email, PersonMailingCity -> MailingCity) and FirstName, LastName, Salutation
// go to the Contact; custom "__pc" fields go to the Contact as "__c". Name is
// refused: a person account's name is its FirstName and LastName.
struct PersonAccountFields {
  nlohmann::json account = nlohmann::json::object();
  nlohmann::json contact = nlohmann::json::object();
  ApiErrors errors;
  bool ok() const { return errors.empty(); }
};
PersonAccountFields split_person_account_fields(const nlohmann::json& crm, const OrgConfig& config,
                                                std::string_view path);

// The text the deduplication indexes key a stored value by ("" for null),
// so lookups with incoming values agree with Record::text.
std::string crm_value_text(const nlohmann::json& value);

}  // namespace fake_org
