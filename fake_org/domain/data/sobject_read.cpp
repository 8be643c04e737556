#include "sobject_read.h"

#include <strings.h>

#include "domain/core/ids.h"
#include "domain/org/standard_records.h"
#include "domain/soql/soql_eval.h"
#include "domain/soql/soql_parser.h"
#include "domain/store/record_store.h"
#include "sobject_describe.h"
#include "util/text.h"

namespace fake_org::data {

namespace {

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

// The select list of a read: the names asked for (checked, in the
// catalogue's spelling, Id added) or every field.
DataResult<std::vector<std::string>> select_list(const ObjectDef& def,
                                                 const std::vector<std::string>& asked) {
  std::vector<std::string> out;
  auto add = [&out](const std::string& name) {
    for (const auto& have : out)
      if (same_name(have, name)) return;
    out.push_back(name);
  };
  if (asked.empty()) {
    add("Id");
    for (const FieldDef& f : def.fields) add(f.name);
    for (const char* s : {"IsDeleted", "CreatedDate", "LastModifiedDate", "SystemModstamp"}) add(s);
    for (const char* s : {system_field::kOwnerId, system_field::kCreatedById,
                          system_field::kLastModifiedById, system_field::kRecordTypeId})
      if (system_reference_field(def, s)) add(s);
    return out;
  }
  for (const std::string& name : asked) {
    if (const FieldDef* f = def.field(name)) {
      add(f->name);
    } else if (is_system_field(name)) {
      add(name);
    } else if (const char* system = system_reference_field(def, name)) {
      add(system);
    } else {
      return data_error(code::kInvalidField, no_such_column(name, def.api_name));
    }
  }
  add("Id");
  return out;
}

}  // namespace

std::string no_such_column(std::string_view field, std::string_view object) {
  return "No such column '" + std::string(field) + "' on entity '" + std::string(object) +
         "'. If you are attempting to use a custom field, be sure to append the '__c' after the "
         "custom field name. Please reference your WSDL or the describe call for the "
         "appropriate names.";
}

std::vector<std::string> split_field_list(std::string_view list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string_view::npos) comma = list.size();
    std::string_view part = text::trim(list.substr(start, comma - start));
    if (!part.empty()) out.emplace_back(part);
    start = comma + 1;
  }
  return out;
}

namespace {

// The query a read shows records through: the names asked for, or every field.
DataResult<soql::BoundQuery> read_query(const Org& org, const ObjectDef& def,
                                        const std::vector<std::string>& fields) {
  auto names = select_list(def, fields);
  if (!names.ok()) return names.errors();
  const std::string text = "SELECT " + text::join(*names, ", ") + " FROM " + def.api_name;
  auto parsed = soql::parse_soql(text);
  if (!parsed) return data_error(code::kInvalidField, parsed.error().message);
  auto bound = soql::bind_query(org.config_ptr(), text, *parsed, org.clock_ptr()->now());
  if (!bound) return data_error(bound.error().error_code, bound.error().message);
  return std::move(*bound);
}

DataError malformed_id(const ObjectDef& def, std::string_view id) {
  return data_error(code::kMalformedId,
                    def.api_name + " ID: id value of incorrect type: " + std::string(id), {"Id"});
}

}  // namespace

DataResult<nlohmann::ordered_json> read_sobject(const Org& org, std::string_view type,
                                                std::string_view id,
                                                const std::vector<std::string>& fields,
                                                std::string_view version) {
  const ObjectDef* def = org.config().object(type);
  if (!def) return data_error(code::kNotFound, kNoResource);
  auto id18 = to_id18(id);
  if (!id18) return malformed_id(*def, id);
  auto bound = read_query(org, *def, fields);
  if (!bound.ok()) return bound.errors();
  const std::string v(version);
  return org.records().read([&](const RecordStore& store) -> DataResult<nlohmann::ordered_json> {
    RecordPtr r = store.get(*id18);
    if (!r || r->object != def->api_name) return data_error(code::kNotFound, kNoResource);
    if (r->deleted) return data_error(code::kEntityIsDeleted, "entity is deleted");
    return soql::show_record(*bound, *r, store, v);
  });
}

DataResult<nlohmann::ordered_json> retrieve_collection(const Org& org, std::string_view type,
                                                       const std::vector<std::string>& ids,
                                                       const std::vector<std::string>& fields,
                                                       std::string_view version) {
  const ObjectDef* def = org.config().object(type);
  if (!def) return data_error(code::kNotFound, kNoResource);
  if (ids.empty()) return data_error(code::kMissingArgument, "ids must name at least one record");
  if (fields.empty())
    return data_error(code::kMissingArgument, "fields must name at least one field");
  if (ids.size() > kMaxRetrieveIds)
    return data_error(code::kExceededIdLimit,
                      "too many ids: at most " + std::to_string(kMaxRetrieveIds) + " at a time");
  std::vector<std::string> ids18;
  for (const std::string& id : ids) {
    auto id18 = to_id18(id);
    if (!id18) return malformed_id(*def, id);
    ids18.push_back(*id18);
  }
  auto bound = read_query(org, *def, fields);
  if (!bound.ok()) return bound.errors();
  const std::string v(version);
  return org.records().read([&](const RecordStore& store) -> DataResult<nlohmann::ordered_json> {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const std::string& id : ids18) {
      RecordPtr r = store.get(id);
      if (!r || r->deleted || r->object != def->api_name)
        out.push_back(nullptr);
      else
        out.push_back(soql::show_record(*bound, *r, store, v));
    }
    return out;
  });
}

}  // namespace fake_org::data
