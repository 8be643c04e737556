#include "record_relations.h"

#include <deque>
#include <set>

#include "domain/core/clock.h"
#include "domain/store/record_store.h"
#include "record_values.h"
#include "util/ascii.h"

namespace fake_org::data {

namespace {

// Every reference field of the catalogue that names `object`.
std::vector<std::pair<const ObjectDef*, const FieldDef*>> referrers(const OrgConfig& config,
                                                                    std::string_view object) {
  std::vector<std::pair<const ObjectDef*, const FieldDef*>> out;
  for (const auto& [name, def] : config.objects)
    for (const FieldDef& f : def.fields)
      if (f.type == FieldType::kReference && iequals(f.reference_to, object))
        out.emplace_back(&def, &f);
  return out;
}

}  // namespace

const IndexSpec* field_index(const RecordStore& store, std::string_view object,
                             std::string_view field) {
  const std::string suffix = std::string(object) + "." + std::string(field);
  for (const char* prefix : {"ext:", "soql:"})
    if (const IndexSpec* spec = store.index_spec(prefix + suffix)) return spec;
  for (const IndexSpec& spec : store.indexes())
    if (spec.object == object && !spec.when && spec.fields.size() == 1 &&
        iequals(spec.fields[0], field))
      return &spec;
  return nullptr;
}

std::vector<std::string> records_with(Org& org, const Transaction& tx, const ObjectDef& object,
                                      const FieldDef& field, const std::string& value) {
  const IndexSpec* spec = field_index(org.records(), object.api_name, field.name);
  if (!spec) return {};
  std::vector<std::string> out;
  for (std::string& id : tx.find(spec->name, {value})) {
    RecordPtr r = tx.get(id);
    if (r && !r->deleted) out.push_back(std::move(id));
  }
  return out;
}

DataError read_only_object(const ObjectDef& object, const char* verb) {
  return data_error(code::kInvalidTypeForOperation,
                    "entity type cannot be " + std::string(verb) + ": " + object.api_name);
}

DataErrors unique_conflicts(Org& org, const Transaction& tx, const ObjectDef& object,
                            const nlohmann::json& values, const std::string& self) {
  DataErrors errors;
  for (const auto& [name, value] : values.items()) {
    const FieldDef* f = object.field(name);
    if (!f || !f->unique || value.is_null()) continue;
    for (const std::string& id : records_with(org, tx, object, *f, scalar_text(value))) {
      if (id == self) continue;
      errors.push_back(data_error(
          code::kDuplicateValue,
          "duplicate value found: " + f->name + " duplicates value on record with id: " + id,
          {f->name}));
      break;
    }
  }
  return errors;
}

void stage_cascade_delete(Org& org, Transaction& tx, const RecordPtr& record) {
  const OrgConfig& config = org.config();
  const TimePoint now = org.clock().now();
  // Ids, not records: a record queued here may be changed (a lookup of it
  // cleared) before its turn, and its delete must keep that change.
  std::deque<std::string> work{std::string(record->id)};
  while (!work.empty()) {
    RecordPtr gone = tx.get(work.front());
    work.pop_front();
    if (!gone || gone->deleted) continue;  // reached twice
    Record r = *gone;
    r.deleted = true;
    r.modified = now;
    tx.put(std::move(r));
    for (const auto& [object, field] : referrers(config, gone->object)) {
      const IndexSpec* spec = field_index(org.records(), object->api_name, field->name);
      if (!spec) continue;
      for (const std::string& id : tx.find(spec->name, {gone->id})) {
        RecordPtr child = tx.get(id);
        if (!child || child->deleted) continue;
        if (field->cascade_delete) {
          work.push_back(id);
          continue;
        }
        Record cleared = *child;
        cleared.fields.erase(field->name);
        cleared.modified = now;
        tx.put(std::move(cleared));
      }
    }
  }
}

void add_relation_indexes(const OrgConfig& config, std::vector<IndexSpec>& out) {
  for (const auto& [name, object] : config.objects)
    for (const FieldDef& f : object.fields)
      if (f.external_id || f.unique)
        out.push_back({"ext:" + name + "." + f.name, name, {f.name}, true});
}

}  // namespace fake_org::data
