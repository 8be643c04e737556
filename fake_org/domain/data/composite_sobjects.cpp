#include "composite_sobjects.h"

#include <functional>

#include "domain/config/org_config.h"
#include "domain/core/ids.h"
#include "domain/store/record_store.h"
#include "record_values.h"
#include "sobject_upsert.h"
#include "sobject_write.h"
#include "util/ascii.h"
#include "util/text.h"

namespace fake_org::data {

namespace {

using Stage = std::function<SaveResult(Transaction&)>;

// A failed record's result: its id when it is one (null otherwise).
SaveResult result_of(const DataErrors& errors, const std::string& id = {}) {
  return SaveResult{to_id18(id) ? id : std::string(), false, errors};
}

// One record of a POST or PATCH, staged into `tx`.
SaveResult stage_record(Org& org, Transaction& tx, CollectionOp op, const nlohmann::json& record) {
  if (!record.is_object())
    return result_of({data_error(code::kJsonParserError, "Each record must be a JSON object")});
  const nlohmann::json* attributes =
      record.contains("attributes") ? &record["attributes"] : nullptr;
  const ObjectDef* def = nullptr;
  if (attributes && attributes->is_object() && attributes->contains("type") &&
      (*attributes)["type"].is_string())
    def = org.config().object((*attributes)["type"].get<std::string>());
  if (!def && op == CollectionOp::kCreate)
    return result_of({data_error(code::kInvalidType, "Must send a concrete entity type.")});
  if (op == CollectionOp::kCreate) {
    auto id = stage_create(org, tx, *def, record);
    return id.ok() ? SaveResult{*id, true, {}} : result_of(id.errors());
  }
  nlohmann::json fields = record;
  std::string id;
  for (const char* key : {"id", "Id", "ID"})
    if (fields.contains(key)) {
      if (fields[key].is_string()) id = fields[key].get<std::string>();
      fields.erase(key);
    }
  if (id.empty())
    return result_of({data_error(code::kMissingArgument, "Id not specified in an update call")});
  auto done = stage_update(org, tx, def, id, fields);
  if (!done.ok()) return result_of(done.errors(), id);
  return SaveResult{*to_id18(id), true, {}};
}

// One record of an upsert collection, staged into `tx`.
SaveResult stage_upsert_record(Org& org, Transaction& tx, const ObjectDef& def,
                               const FieldDef* field, const nlohmann::json& record) {
  if (!record.is_object())
    return result_of({data_error(code::kJsonParserError, "Each record must be a JSON object")});
  const std::string name = field ? field->name : std::string("Id");
  std::string value;
  for (auto it = record.begin(); it != record.end(); ++it)
    if (iequals(it.key(), name) && (it->is_string() || it->is_number())) value = scalar_text(*it);
  if (value.empty())
    return result_of({data_error(code::kMissingArgument, name + " not specified", {name})});
  nlohmann::json fields = record;
  fields.erase("attributes");
  if (!field)
    for (const char* key : {"id", "Id", "ID"}) fields.erase(key);
  auto outcome = stage_upsert(org, tx, def, field, value, fields);
  if (!outcome.ok()) return result_of(outcome.errors());
  if (!outcome->matches.empty())
    return result_of({data_error(code::kDuplicateExternalId,
                                 name + ": more than one record found for external id field: [" +
                                     text::join(outcome->matches, ", ") + "]",
                                 {name})});
  return SaveResult{outcome->id, true, {}, outcome->created};
}

SaveResult stage_removal(Org& org, Transaction& tx, const std::string& id) {
  auto done = stage_delete(org, tx, nullptr, id);
  return done.ok() ? SaveResult{*to_id18(id), true, {}} : result_of(done.errors(), id);
}

// Each stage in one transaction (allOrNone) or its own.
std::vector<SaveResult> run_stages(Org& org, const std::vector<Stage>& stages, bool all_or_none) {
  std::vector<SaveResult> results;
  auto attempt = [&](size_t from, size_t to) {
    bool failed = false;
    auto written = org.records().write<Ok>([&](Transaction& tx) -> Result<Ok> {
      failed = false;
      for (size_t i = from; i < to; ++i) {
        results.push_back(stages[i](tx));
        failed = failed || !results.back().success;
      }
      if (!failed) return Ok{};
      return make_error(error_code::kUncategorised, "", "rolled back");
    });
    if (written.ok() || failed) return;
    // Every stage succeeded and the record cap refused the commit.
    for (size_t i = from; i < to; ++i) {
      SaveResult& r = results[results.size() - (to - i)];
      r.success = false;
      r.id.clear();
      r.created.reset();
      r.errors = {storage_limit_data_error(written.errors().front().message)};
    }
  };
  if (!all_or_none) {
    for (size_t i = 0; i < stages.size(); ++i) attempt(i, i + 1);
    return results;
  }
  attempt(0, stages.size());
  bool failed = false;
  for (const auto& r : results) failed = failed || !r.success;
  if (!failed) return results;
  for (auto& r : results) {
    if (!r.success) continue;
    r.success = false;
    r.id.clear();
    r.errors = {data_error(code::kAllOrNoneRolledBack,
                           "Record rolled back because not all records were valid and the "
                           "request was using AllOrNone header")};
  }
  return results;
}

}  // namespace

nlohmann::ordered_json save_results_json(const std::vector<SaveResult>& results) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& r : results) {
    nlohmann::ordered_json errors = nlohmann::ordered_json::array();
    for (const auto& e : r.errors)
      errors.push_back({{"statusCode", e.code}, {"message", e.message}, {"fields", e.fields}});
    nlohmann::ordered_json item = {
        {"id", r.id.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.id)},
        {"success", r.success},
        {"errors", std::move(errors)}};
    if (r.created) item["created"] = *r.created;
    out.push_back(std::move(item));
  }
  return out;
}

namespace {

// A collection's body: {"records": [at most 200], "allOrNone": bool}; the
// allOrNone flag (false when absent).
DataResult<bool> collection_body(const nlohmann::json& body) {
  if (!body.is_object() || !body.contains("records") || !body["records"].is_array())
    return data_error(code::kJsonParserError,
                      "The body must be a JSON object with a \"records\" array");
  if (body["records"].size() > kMaxCollectionRecords)
    return data_error(code::kExceededIdLimit,
                      "record limit reached. cannot submit more than 200 records into this call");
  const nlohmann::json* flag = body.contains("allOrNone") ? &body["allOrNone"] : nullptr;
  if (flag && !flag->is_boolean())
    return data_error(code::kJsonParserError, "allOrNone must be true or false");
  return flag && flag->get<bool>();
}

}  // namespace

DataResult<std::vector<SaveResult>> save_collection(Org& org, CollectionOp op,
                                                    const nlohmann::json& body) {
  auto checked = collection_body(body);
  if (!checked.ok()) return checked.errors();
  const nlohmann::json& records = body["records"];
  const bool all_or_none = *checked;
  std::vector<Stage> stages;
  for (const auto& record : records)
    stages.push_back(
        [&org, op, &record](Transaction& tx) { return stage_record(org, tx, op, record); });
  return run_stages(org, stages, all_or_none);
}

DataResult<std::vector<SaveResult>> upsert_collection(Org& org, std::string_view type,
                                                      std::string_view field,
                                                      const nlohmann::json& body) {
  const ObjectDef* def = org.config().object(type);
  if (!def) return data_error(code::kNotFound, kNoResource);
  auto f = external_id_field(*def, field);
  if (!f.ok()) return f.errors();
  auto checked = collection_body(body);
  if (!checked.ok()) return checked.errors();
  const nlohmann::json& records = body["records"];
  const bool all_or_none = *checked;
  std::vector<Stage> stages;
  for (const auto& record : records)
    stages.push_back([&org, def, field = *f, &record](Transaction& tx) {
      return stage_upsert_record(org, tx, *def, field, record);
    });
  auto results = run_stages(org, stages, all_or_none);
  for (auto& r : results)
    if (!r.success) r.created.reset();
  return results;
}

DataResult<std::vector<SaveResult>> delete_collection(Org& org, const std::vector<std::string>& ids,
                                                      bool all_or_none) {
  if (ids.empty()) return data_error(code::kMissingArgument, "ids must name at least one record");
  if (ids.size() > kMaxCollectionRecords)
    return data_error(code::kExceededIdLimit,
                      "record limit reached. cannot submit more than 200 records into this call");
  std::vector<Stage> stages;
  for (const auto& id : ids)
    stages.push_back([&org, &id](Transaction& tx) { return stage_removal(org, tx, id); });
  return run_stages(org, stages, all_or_none);
}

}  // namespace fake_org::data
