#include "ingest_columns.h"

#include <set>

#include "domain/data/sobject_describe.h"
#include "domain/store/field_map.h"
#include "domain/store/record_store.h"
#include "util/ascii.h"
#include "util/text.h"

namespace fake_org::bulk {

namespace {

// The name a relationship column uses for a reference field: AccountId is
// Account, cpm__Contact__c is cpm__Contact__r (as SOQL paths).
std::string bulk_relationship_name(const FieldDef& f) {
  const std::string& n = f.name;
  if (n.size() > 3 && iequals(std::string_view(n).substr(n.size() - 3), "__c"))
    return n.substr(0, n.size() - 3) + "__r";
  if (n.size() > 2 && iequals(std::string_view(n).substr(n.size() - 2), "Id"))
    return n.substr(0, n.size() - 2);
  return "";
}

std::optional<IngestColumn> bulk_relationship_column(const OrgConfig& config,
                                                     const ObjectDef& object,
                                                     const std::string& name, std::string& why) {
  const size_t dot = name.find('.');
  const std::string rel = name.substr(0, dot);
  const std::string parent_field = name.substr(dot + 1);
  for (const FieldDef& f : object.fields) {
    if (f.type != FieldType::kReference || !iequals(bulk_relationship_name(f), rel)) continue;
    const ObjectDef* parent = config.object(f.reference_to);
    if (!parent) return std::nullopt;
    IngestColumn c{IngestColumn::Kind::kRelationship, name, &f, parent, "Id"};
    if (iequals(parent_field, "Id")) return c;
    // The platform finds a parent by its Id or an external id field only.
    const FieldDef* pf = parent->field(parent_field);
    if (!pf) return std::nullopt;
    if (!pf->external_id) {
      why =
          "InvalidBatch : Invalid field for upsert, must be an External Id custom or standard "
          "indexed field: " +
          pf->name + " (" + name + ")";
      return std::nullopt;
    }
    c.parent_field = pf->name;
    c.parent_key = pf;
    return c;
  }
  return std::nullopt;
}

}  // namespace

IngestHeader read_ingest_header(const OrgConfig& config, const ObjectDef& object,
                                const std::vector<std::string>& names) {
  IngestHeader h;
  std::set<std::string> seen;
  for (const std::string& raw : names) {
    const std::string name(text::trim(raw));
    if (name.empty()) {
      h.error = "InvalidBatch : Field name not found : (an empty column name in the header)";
      return h;
    }
    if (!seen.insert(ascii_lower(name)).second) {
      h.error = "InvalidBatch : Duplicate field name: " + name;
      return h;
    }
    if (iequals(name, "Id")) {
      h.columns.push_back({IngestColumn::Kind::kId, name, nullptr, nullptr, ""});
      continue;
    }
    if (name.find('.') != std::string::npos) {
      std::string why;
      auto c = bulk_relationship_column(config, object, name, why);
      if (!c) {
        h.error = why.empty() ? "InvalidBatch : Field name not found : " + name : why;
        return h;
      }
      h.columns.push_back(*c);
      continue;
    }
    const FieldDef* f = object.field(name);
    h.columns.push_back({IngestColumn::Kind::kField, name, f, nullptr, ""});
    // A system field (CreatedDate) is known but not writable: its rows fail
    // one by one, as the REST API refuses it.
    if (!f && !data::is_system_field(name)) {
      h.error = "InvalidBatch : Field name not found : " + name;
      return h;
    }
  }
  return h;
}

}  // namespace fake_org::bulk
