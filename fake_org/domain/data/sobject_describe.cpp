#include "sobject_describe.h"

#include <strings.h>

#include <algorithm>

#include "domain/config/org_config.h"
#include "domain/core/fields.h"
#include "domain/core/ids.h"
#include "domain/org/standard_records.h"
#include "domain/soql/soql_children.h"
#include "domain/store/record_store.h"

namespace fake_org::data {

namespace {

using ojson = nlohmann::ordered_json;

bool ends_with_ci(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() &&
         strncasecmp(s.data() + s.size() - tail.size(), tail.data(), tail.size()) == 0;
}

bool is_custom(std::string_view api_name) {
  return ends_with_ci(api_name, "__c");
}

std::string relationship_name(const FieldDef& f) {
  if (ends_with_ci(f.name, "__c")) return f.name.substr(0, f.name.size() - 3) + "__r";
  if (ends_with_ci(f.name, "Id")) return f.name.substr(0, f.name.size() - 2);
  return "";
}

std::string object_url(std::string_view version, std::string_view object) {
  return "/services/data/v" + std::string(version) + "/sobjects/" + std::string(object);
}

ojson global_entry(const ObjectDef& o, std::string_view version) {
  const std::string url = object_url(version, o.api_name);
  const bool custom = is_custom(o.api_name);
  return {{"name", o.api_name},
          {"label", o.label},
          {"labelPlural", o.label + "s"},
          {"keyPrefix", o.key_prefix},
          {"custom", custom},
          {"createable", !o.read_only},
          {"updateable", !o.read_only},
          {"deletable", !o.read_only},
          {"queryable", true},
          {"retrieveable", true},
          {"searchable", true},
          {"urls",
           {{"sobject", url}, {"describe", url + "/describe"}, {"rowTemplate", url + "/{ID}"}}}};
}

ojson picklist_values(const FieldDef& f) {
  ojson out = ojson::array();
  for (const auto& v : f.picklist_values)
    out.push_back({{"active", true}, {"defaultValue", false}, {"label", v}, {"value", v}});
  return out;
}

struct FieldShape {
  int length = 0;
  int precision = 0;
  int scale = 0;
  int digits = 0;
};

FieldShape shape_of(const FieldDef& f) {
  FieldShape s;
  switch (f.type) {
    case FieldType::kNumber:
    case FieldType::kCurrency:
    case FieldType::kPercent:
      if (f.type == FieldType::kNumber && f.scale == 0) {
        s.digits = f.precision;
      } else {
        s.precision = f.precision;
        s.scale = f.scale;
      }
      return s;
    case FieldType::kReference:
      s.length = 18;
      return s;
    case FieldType::kDate:
    case FieldType::kDateTime:
    case FieldType::kBoolean:
      return s;
    default:
      s.length = f.length;
      return s;
  }
}

ojson field_entry(const ObjectDef& o, const FieldDef& f) {
  const FieldShape shape = shape_of(f);
  const bool boolean = f.type == FieldType::kBoolean;
  const bool picklist = f.type == FieldType::kPicklist || f.type == FieldType::kMultiPicklist;
  const std::string relationship =
      f.type == FieldType::kReference ? relationship_name(f) : std::string();
  return {{"name", f.name},
          {"label", field_label(f)},
          {"type", platform_type(f)},
          {"length", shape.length},
          {"precision", shape.precision},
          {"scale", shape.scale},
          {"digits", shape.digits},
          {"nillable", !boolean && !required_on_create(o, f)},
          {"createable", !f.system},
          {"updateable", !f.system},
          {"defaultedOnCreate", boolean},
          {"custom", is_custom(f.name)},
          {"calculated", false},
          {"unique", f.unique},
          {"externalId", f.external_id},
          {"idLookup", f.external_id},
          {"filterable", !(f.type == FieldType::kTextArea && f.length > 255)},
          {"sortable", !(f.type == FieldType::kTextArea && f.length > 255) &&
                           f.type != FieldType::kMultiPicklist},
          {"picklistValues", picklist_values(f)},
          {"restrictedPicklist", picklist},
          {"referenceTo",
           f.type == FieldType::kReference ? ojson::array({f.reference_to}) : ojson::array()},
          {"relationshipName", relationship.empty() ? ojson(nullptr) : ojson(relationship)}};
}

// Id, IsDeleted, CreatedDate, LastModifiedDate, SystemModstamp as fields.
void add_system_fields(ojson& fields) {
  auto plain = [](const char* name, const char* label, const char* type, int length) {
    FieldDef f;
    f.name = name;
    f.system = true;
    ObjectDef none;
    ojson e = field_entry(none, f);
    e["label"] = label;
    e["type"] = type;
    e["length"] = length;
    e["nillable"] = false;
    e["defaultedOnCreate"] = true;
    return e;
  };
  fields.push_back(plain("Id", "Record ID", "id", 18));
  fields.push_back(plain("IsDeleted", "Deleted", "boolean", 0));
  fields.push_back(plain("CreatedDate", "Created Date", "datetime", 0));
  fields.push_back(plain("LastModifiedDate", "Last Modified Date", "datetime", 0));
  fields.push_back(plain("SystemModstamp", "System Modstamp", "datetime", 0));
}

// Every lookup pointing at the object, as describe lists them; the names
// are those a parent-to-child subquery takes (soql_children.h).
ojson child_relationships_out(const OrgConfig& config, const ObjectDef& parent) {
  ojson out = ojson::array();
  for (const auto& r : soql::child_relationships(config, parent))
    out.push_back({{"cascadeDelete", r.cascade_delete},
                   {"childSObject", r.child->api_name},
                   {"deprecatedAndHidden", false},
                   {"field", r.field->name},
                   {"junctionIdListNames", ojson::array()},
                   {"junctionReferenceTo", ojson::array()},
                   {"relationshipName", r.name.empty() ? ojson(nullptr) : ojson(r.name)},
                   {"restrictedDelete", false}});
  return out;
}

// OwnerId, CreatedById, LastModifiedById and RecordTypeId, where the object
// has them (standard_records.h).
void add_system_references(const ObjectDef& o, ojson& fields) {
  struct Reference {
    const char* name;
    const char* label;
    const char* target;
  };
  static const Reference kReferences[] = {
      {system_field::kOwnerId, "Owner ID", "User"},
      {system_field::kCreatedById, "Created By ID", "User"},
      {system_field::kLastModifiedById, "Last Modified By ID", "User"},
      {system_field::kRecordTypeId, "Record Type ID", "RecordType"},
  };
  for (const Reference& ref : kReferences) {
    if (!system_reference_field(o, ref.name)) continue;
    FieldDef f;
    f.name = ref.name;
    f.type = FieldType::kReference;
    f.reference_to = ref.target;
    const bool writable = f.name == system_field::kOwnerId || f.name == system_field::kRecordTypeId;
    f.system = !writable || o.read_only;
    ojson e = field_entry(o, f);
    e["label"] = ref.label;
    e["nillable"] = f.name == system_field::kRecordTypeId;
    e["defaultedOnCreate"] = true;
    fields.push_back(std::move(e));
  }
}

}  // namespace

const char* platform_type(const FieldDef& f) {
  switch (f.type) {
    case FieldType::kText:
      return "string";
    case FieldType::kTextArea:
      return "textarea";
    case FieldType::kEmail:
      return "email";
    case FieldType::kPhone:
      return "phone";
    case FieldType::kUrl:
      return "url";
    case FieldType::kNumber:
      return f.scale == 0 ? "int" : "double";
    case FieldType::kCurrency:
      return "currency";
    case FieldType::kPercent:
      return "percent";
    case FieldType::kDate:
      return "date";
    case FieldType::kDateTime:
      return "datetime";
    case FieldType::kBoolean:
      return "boolean";
    case FieldType::kPicklist:
      return "picklist";
    case FieldType::kMultiPicklist:
      return "multipicklist";
    case FieldType::kReference:
      return "reference";
  }
  return "string";
}

std::string field_label(const FieldDef& f) {
  std::string name = f.name;
  if (ends_with_ci(name, "__c")) name.resize(name.size() - 3);
  if (size_t ns = name.find("__"); ns != std::string::npos) name.erase(0, ns + 2);
  std::replace(name.begin(), name.end(), '_', ' ');
  return name;
}

bool required_on_create(const ObjectDef& object, const FieldDef& f) {
  if (f.system) return false;
  if (object.api_name == objects::kContact) return f.name == "LastName";
  if (object.api_name == objects::kAccount || object.api_name == objects::kCampaign)
    return f.name == fields::kName;
  return false;
}

bool is_system_field(std::string_view name) {
  for (const char* s : {"Id", "IsDeleted", "CreatedDate", "LastModifiedDate", "SystemModstamp"})
    if (name.size() == std::char_traits<char>::length(s) &&
        strncasecmp(name.data(), s, name.size()) == 0)
      return true;
  return false;
}

nlohmann::ordered_json describe_global(const OrgConfig& config, std::string_view version) {
  ojson objects_out = ojson::array();
  for (const auto& [name, def] : config.objects) objects_out.push_back(global_entry(def, version));
  return {{"encoding", "UTF-8"}, {"maxBatchSize", 200}, {"sobjects", std::move(objects_out)}};
}

DataResult<nlohmann::ordered_json> sobject_basic_info(const Org& org, std::string_view type,
                                                      std::string_view version) {
  const ObjectDef* def = org.config().object(type);
  if (!def) return data_error(code::kNotFound, kNoResource);
  constexpr size_t kRecent = 25;
  ojson recent = ojson::array();
  org.records().read([&](const RecordStore& store) {
    const auto& ids = store.ids_of(def->api_name);
    for (auto it = ids.rbegin(); it != ids.rend() && recent.size() < kRecent; ++it) {
      RecordPtr r = store.get(*it);
      if (!r || r->deleted) continue;
      ojson item = {{"attributes",
                     {{"type", r->object}, {"url", object_url(version, r->object) + "/" + r->id}}},
                    {"Id", r->id}};
      if (def->field(fields::kName)) item["Name"] = r->text(fields::kName);
      recent.push_back(std::move(item));
    }
  });
  return ojson{{"objectDescribe", global_entry(*def, version)}, {"recentItems", std::move(recent)}};
}

DataResult<nlohmann::ordered_json> describe_sobject(const OrgConfig& config, std::string_view type,
                                                    std::string_view version) {
  const ObjectDef* def = config.object(type);
  if (!def) return data_error(code::kNotFound, kNoResource);
  ojson fields_out = ojson::array();
  add_system_fields(fields_out);
  for (const FieldDef& f : def->fields) fields_out.push_back(field_entry(*def, f));
  add_system_references(*def, fields_out);
  ojson out = global_entry(*def, version);
  out["fields"] = std::move(fields_out);
  out["childRelationships"] = child_relationships_out(config, *def);
  return out;
}

}  // namespace fake_org::data
