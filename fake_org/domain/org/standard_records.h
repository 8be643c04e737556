#pragma once
// The records every org has besides its data: one Organization (from
// org.*), a User per auth.users entry, a Profile per profile those users
// name, and a RecordType per record type of any object. They come from the
// fixture, never from `seed`: an org's seed, reset and restart all put them
// back as the fixture says. Their ids are fixed by the fixture (users, the
// org) or derived from names (profiles, record types), so they never take
// from the id sequence and a scenario sees the same ids every run.
//
// And the system fields every record has (OwnerId, CreatedById,
// LastModifiedById, RecordTypeId where the object has record types): the
// org does not store who made a record, so they read as the integration
// user unless a write set OwnerId; RecordTypeId reads the record's
// RecordTypeName. Stateless; safe from any thread.
#include <optional>
#include <string>
#include <string_view>

#include "domain/config/org_config.h"
#include "domain/core/clock.h"

namespace fake_org {

class Transaction;
struct Record;

namespace system_field {
inline constexpr const char* kOwnerId = "OwnerId";
inline constexpr const char* kCreatedById = "CreatedById";
inline constexpr const char* kLastModifiedById = "LastModifiedById";
inline constexpr const char* kRecordTypeId = "RecordTypeId";
}  // namespace system_field

// The id of a profile by its name ("00e...").
std::string profile_id(std::string_view profile_name);
// The id of one of an object's record types ("012...").
std::string record_type_id(const ObjectDef& object, const RecordTypeDef& type);
// The record type an id names among `object`'s, or null.
const RecordTypeDef* record_type_by_id(const ObjectDef& object, std::string_view id18);

// Stages the org's own records that `tx` lacks (all of them into an empty
// store); objects the catalogue lacks are skipped.
void stage_standard_records(const OrgConfig& config, const std::string& org_id, TimePoint now,
                            Transaction& tx);

// Whether an object has the field: OwnerId, CreatedById and LastModifiedById
// every object but the org's own (which have the latter two), RecordTypeId
// those with record types. nullptr when `name` is none of them; else the
// spelling.
const char* system_reference_field(const ObjectDef& object, std::string_view name);

// The id a record's system reference field reads ("" for none).
std::string system_reference_value(const OrgConfig& config, const ObjectDef& object,
                                   const Record& r, std::string_view field);

}  // namespace fake_org
