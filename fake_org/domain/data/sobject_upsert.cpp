#include "sobject_upsert.h"

#include <optional>

#include "domain/core/ids.h"
#include "domain/store/record_store.h"
#include "record_relations.h"
#include "record_values.h"
#include "sobject_write.h"
#include "util/ascii.h"

namespace fake_org::data {

namespace {

// The body without the external id field, or INVALID_FIELD when it gives
// the field a value other than the path's.
DataResult<nlohmann::json> body_without(const nlohmann::json& body, const FieldDef& field,
                                        std::string_view value) {
  if (!body.is_object()) return body;  // check_record_body words it
  nlohmann::json out = body;
  for (auto it = out.begin(); it != out.end(); ++it) {
    if (!iequals(it.key(), field.name)) continue;
    if (!it->is_null() && !iequals(scalar_text(*it), value))
      return data_error(code::kInvalidField,
                        field.name + ": the body's value " + scalar_text(*it) +
                            " differs from the external id in the path, " + std::string(value),
                        {field.name});
    out.erase(it);
    break;
  }
  return out;
}

}  // namespace

DataResult<const FieldDef*> external_id_field(const ObjectDef& def, std::string_view name) {
  if (iequals(name, "Id")) return static_cast<const FieldDef*>(nullptr);
  const FieldDef* f = def.field(name);
  if (!f || !f->external_id)
    return data_error(
        code::kNotFound,
        "Provided external ID field does not exist or is not accessible: " + std::string(name));
  return f;
}

DataResult<std::vector<std::string>> records_by_external_id(Org& org, const Transaction& tx,
                                                            const ObjectDef& def,
                                                            const FieldDef& field,
                                                            std::string_view value,
                                                            nlohmann::json* stored) {
  // The value as the field keeps it (a number's normal form, a checked length).
  ValueCheck c = check_field_value(org.config(), field, std::string(value), false, nullptr);
  if (!c.ok())
    return data_error(c.code, field.name + ": must be " + c.must + ", found " + std::string(value),
                      {field.name});
  std::vector<std::string> ids = records_with(org, tx, def, field, scalar_text(c.value));
  if (stored) *stored = std::move(c.value);
  return ids;
}

DataResult<UpsertOutcome> stage_upsert(Org& org, Transaction& tx, const ObjectDef& def,
                                       const FieldDef* field, std::string_view value,
                                       const nlohmann::json& body) {
  if (def.read_only) return read_only_object(def, "upserted");
  if (value.empty()) return data_error(code::kNotFound, kNoResource);
  if (!field) {  // Id: the record it names is updated
    auto done = stage_update(org, tx, &def, value, body);
    if (!done.ok()) return done.errors();
    return UpsertOutcome{*to_id18(value), false, {}};
  }
  auto rest = body_without(body, *field, value);
  if (!rest.ok()) return rest.errors();
  nlohmann::json stored;
  auto found = records_by_external_id(org, tx, def, *field, value, &stored);
  if (!found.ok()) return found.errors();
  std::vector<std::string> matches = std::move(*found);
  if (matches.size() > 1) return UpsertOutcome{{}, false, std::move(matches)};
  if (matches.size() == 1) {
    auto done = stage_update(org, tx, &def, matches.front(), *rest);
    if (!done.ok()) return done.errors();
    return UpsertOutcome{matches.front(), false, {}};
  }
  nlohmann::json fields = *rest;
  if (fields.is_object()) fields[field->name] = std::move(stored);
  auto id = stage_create(org, tx, def, fields);
  if (!id.ok()) return id.errors();
  return UpsertOutcome{*id, true, {}};
}

DataResult<UpsertOutcome> upsert_sobject(Org& org, std::string_view type, std::string_view field,
                                         std::string_view value, const nlohmann::json& body) {
  const ObjectDef* def = org.config().object(type);
  if (!def) return data_error(code::kNotFound, kNoResource);
  auto f = external_id_field(*def, field);
  if (!f.ok()) return f.errors();
  std::optional<DataResult<UpsertOutcome>> out;
  auto written = org.records().write<Ok>([&](Transaction& tx) -> Result<Ok> {
    out.emplace(stage_upsert(org, tx, *def, *f, value, body));
    if (out->ok() && out->value().matches.empty()) return Ok{};
    return make_error(error_code::kUncategorised, "", "rolled back");
  });
  if (!written.ok() && out->ok() && out->value().matches.empty())
    return storage_limit_data_error(written.errors().front().message);
  return std::move(*out);
}

}  // namespace fake_org::data
