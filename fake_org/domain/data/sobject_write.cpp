#include "sobject_write.h"

#include <optional>

#include "domain/core/fields.h"
#include "domain/core/ids.h"
#include "domain/store/record_store.h"
#include "record_create.h"
#include "record_relations.h"
#include "record_values.h"

namespace fake_org::data {

namespace {

RecordExists live_in(const Transaction& tx) {
  return [&tx](const std::string& id18) {
    RecordPtr r = tx.get(id18);
    return r && !r->deleted;
  };
}

// Runs `stage` in one transaction that commits only when it succeeds.
template <typename T>
DataResult<T> in_transaction(Org& org, const std::function<DataResult<T>(Transaction&)>& stage) {
  std::optional<DataResult<T>> out;
  auto written = org.records().write<Ok>([&](Transaction& tx) -> Result<Ok> {
    out.emplace(stage(tx));
    if (out->ok()) return Ok{};
    return make_error(error_code::kUncategorised, "", "rolled back");
  });
  if (!written.ok() && out->ok()) return storage_limit_data_error(written.errors().front().message);
  return std::move(*out);
}

}  // namespace

DataResult<RecordPtr> live_record(const RecordReader& records, const ObjectDef* def,
                                  std::string_view id) {
  auto id18 = to_id18(id);
  if (!id18)
    return data_error(code::kMalformedId,
                      (def ? def->api_name : std::string("Record")) +
                          " ID: id value of incorrect type: " + std::string(id),
                      {"Id"});
  RecordPtr r = records.get(*id18);
  if (!r || (def && r->object != def->api_name)) return data_error(code::kNotFound, kNoResource);
  if (r->deleted) return data_error(code::kEntityIsDeleted, "entity is deleted");
  return r;
}

DataResult<std::string> stage_create(Org& org, Transaction& tx, const ObjectDef& def,
                                     const nlohmann::json& body) {
  if (def.read_only) return read_only_object(def, "inserted");
  nlohmann::json values;
  DataErrors errors =
      check_record_body(org.config(), def, body, WriteKind::kCreate, live_in(tx), values);
  if (errors.empty()) errors = unique_conflicts(org, tx, def, values, "");
  if (!errors.empty()) return errors;
  for (auto it = values.begin(); it != values.end();)
    it = it->is_null() ? values.erase(it) : std::next(it);
  // A RecordTypeId the body gave, kept by its developer name.
  const RecordTypeDef* type = nullptr;
  if (auto at = values.find(fields::kRecordTypeName); at != values.end()) {
    type = def.record_type(at->get<std::string>());
    values.erase(at);
  }
  Record r = new_record(org, def, std::move(values), type);
  std::string id = r.id;
  tx.put(std::move(r));
  return id;
}

DataResult<Done> stage_update(Org& org, Transaction& tx, const ObjectDef* def, std::string_view id,
                              const nlohmann::json& body) {
  auto found = live_record(tx, def, id);
  if (!found.ok()) return found.errors();
  const ObjectDef* object = def ? def : org.config().object((*found)->object);
  if (!object) return data_error(code::kNotFound, kNoResource);
  if (object->read_only) return read_only_object(*object, "updated");
  nlohmann::json values;
  DataErrors errors =
      check_record_body(org.config(), *object, body, WriteKind::kUpdate, live_in(tx), values);
  if (errors.empty()) errors = unique_conflicts(org, tx, *object, values, (*found)->id);
  if (!errors.empty()) return errors;
  Record r = **found;
  for (auto& [name, value] : values.items()) {
    if (value.is_null())
      r.fields.erase(name);
    else
      r.fields[name] = value;
  }
  r.modified = org.clock().now();
  tx.put(std::move(r));
  return Done{};
}

DataResult<Done> stage_delete(Org& org, Transaction& tx, const ObjectDef* def,
                              std::string_view id) {
  auto found = live_record(tx, def, id);
  if (!found.ok()) return found.errors();
  const ObjectDef* object = def ? def : org.config().object((*found)->object);
  if (object && object->read_only) return read_only_object(*object, "deleted");
  stage_cascade_delete(org, tx, *found);
  return Done{};
}

DataResult<std::string> create_sobject(Org& org, std::string_view type,
                                       const nlohmann::json& body) {
  const ObjectDef* def = org.config().object(type);
  if (!def) return data_error(code::kNotFound, kNoResource);
  return in_transaction<std::string>(
      org, [&](Transaction& tx) { return stage_create(org, tx, *def, body); });
}

DataResult<Done> update_sobject(Org& org, std::string_view type, std::string_view id,
                                const nlohmann::json& body) {
  const ObjectDef* def = org.config().object(type);
  if (!def) return data_error(code::kNotFound, kNoResource);
  return in_transaction<Done>(
      org, [&](Transaction& tx) { return stage_update(org, tx, def, id, body); });
}

DataResult<Done> delete_sobject(Org& org, std::string_view type, std::string_view id) {
  const ObjectDef* def = org.config().object(type);
  if (!def) return data_error(code::kNotFound, kNoResource);
  return in_transaction<Done>(org, [&](Transaction& tx) { return stage_delete(org, tx, def, id); });
}

}  // namespace fake_org::data
