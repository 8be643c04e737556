#pragma once
// The header of an ingest job's CSV read against the object's catalogue:
// each column a field, the record Id, or a parent named by one of its
// fields (Account.External_Id__c, a relationship column), and the lookups
// by value those need (an upsert's external id, a relationship column's).
// Built by the worker for one job; not shared.
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "domain/config/org_config.h"
#include "domain/org/org.h"

namespace fake_org::bulk {

struct IngestColumn {
  enum class Kind { kField, kId, kRelationship };
  Kind kind = Kind::kField;
  std::string name;                   // as the header spells it
  const FieldDef* field = nullptr;    // kField; kRelationship: the reference field
  const ObjectDef* parent = nullptr;  // kRelationship: the parent's object
  std::string parent_field;           // kRelationship: "Id" or a parent field
};

// Ids of one object's live records by the text of one field ("Id": the id).
// Built once from the store and kept up to date with the rows a job writes.
class ValueLookup {
 public:
  ValueLookup(const Org& org, const std::string& object, const std::string& field);
  std::optional<std::string> find(const std::string& value) const;
  void add(const std::string& value, const std::string& id18) { ids_[value] = id18; }

 private:
  std::unordered_map<std::string, std::string> ids_;
};

// The header's columns, or the platform's job error ("InvalidBatch : Field
// name not found : X").
struct IngestHeader {
  std::vector<IngestColumn> columns;
  std::string error;  // set: the job fails with it
};
IngestHeader read_ingest_header(const OrgConfig& config, const ObjectDef& object,
                                const std::vector<std::string>& names);

}  // namespace fake_org::bulk
