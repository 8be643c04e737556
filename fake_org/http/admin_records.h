#pragma once
// Records as the admin API shows them, and records created through it
// (POST /__admin/records/{Type}). Stateless: the org's record store guards
// the records (one write transaction per creation).
#include <nlohmann/json.hpp>
#include <string_view>

#include "domain/config/org_config.h"
#include "domain/org/org.h"
#include "domain/store/record.h"

namespace fake_org::http {

// A record as the platform's sObject REST resource shows it.
nlohmann::json sobject_json(const Org& org, const Record& r);

// Creates a record of `type` from a JSON object of fields, checked as seed
// records are (fixture/record_fields.h), with a new id (and a GUID for the
// package's objects) and indexed like any other, so deduplication finds it.
// An unknown object or field, or a bad value: code 010 naming it.
Result<RecordPtr> create_admin_record(Org& org, std::string_view type,
                                      const nlohmann::json& fields);

}  // namespace fake_org::http
