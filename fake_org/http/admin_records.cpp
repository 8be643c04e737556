#include "admin_records.h"

#include "domain/core/fields.h"
#include "domain/data/record_create.h"
#include "domain/store/record_store.h"
#include "fixture/record_fields.h"
#include "util/json_text.h"

namespace fake_org::http {

nlohmann::json sobject_json(const Org& org, const Record& r) {
  nlohmann::json j = {{"attributes", {{"type", r.object}, {"url", org.record_url(r)}}},
                      {"Id", r.id}};
  if (!r.guid.empty()) j["GUID"] = r.guid;
  for (const auto& [k, v] : r.fields.items()) j[k] = v;
  // The GUID is kept once, as the record's; its field reads it (as SOQL does).
  const ObjectDef* def = org.config().object(r.object);
  if (!r.guid.empty() && def && def->field(fields::kGuid)) j[fields::kGuid] = r.guid;
  j["CreatedDate"] = format_iso8601(r.created);
  j["LastModifiedDate"] = format_iso8601(r.modified);
  return j;
}

Result<RecordPtr> create_admin_record(Org& org, std::string_view type,
                                      const nlohmann::json& fields) {
  const OrgConfig& config = org.config();
  const ObjectDef* def = config.object(type);
  if (!def) {
    std::string names;
    for (const auto& [name, d] : config.objects) names += (names.empty() ? "" : ", ") + name;
    return make_error(
        error_code::kMissingCoreParameter, "Type",
        "Object '" + std::string(type) + "' does not exist in this org; known objects: " + names);
  }
  // RecordTypeName is not a field of the object but the record's type: the
  // one named (one of the object's), else the object's default, as seeds get.
  nlohmann::json plain = fields;
  const RecordTypeDef* record_type = def->default_record_type();
  if (plain.is_object() && plain.contains(fields::kRecordTypeName)) {
    const nlohmann::json& named = plain[fields::kRecordTypeName];
    record_type = named.is_string() ? def->record_type(named.get<std::string>()) : nullptr;
    if (!record_type) {
      std::string names;
      for (const auto& rt : def->record_types) names += (names.empty() ? "" : ", ") + rt.name;
      return make_error(error_code::kMissingCoreParameter, fields::kRecordTypeName,
                        def->api_name + ": RecordTypeName " + text::json_text(named) + " is not " +
                            (names.empty() ? "allowed: the object has no record types"
                                           : "one of its record types: " + names));
    }
    plain.erase(fields::kRecordTypeName);
  }
  // Inside the transaction, so a reference is checked against the records
  // as they are when this one is stored.
  return org.records().write<RecordPtr>([&](Transaction& tx) -> Result<RecordPtr> {
    Record r;
    std::vector<std::string> problems;
    auto exists = [&tx](const std::string& id18) { return tx.get(id18) != nullptr; };
    nlohmann::json values;
    if (!fixture::record_fields_from_json(config, *def, plain, exists, values, problems)) {
      ApiErrors errors;
      for (auto& p : problems)
        errors.push_back(
            make_error(error_code::kMissingCoreParameter, def->api_name, def->api_name + ": " + p));
      return errors;
    }
    Record made = new_record(org, *def, std::move(values), record_type);
    r = std::move(made);
    std::string id = r.id;
    tx.put(std::move(r));
    return tx.get(id);
  });
}

}  // namespace fake_org::http
