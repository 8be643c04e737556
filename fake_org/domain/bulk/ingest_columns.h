#pragma once
// The header of an ingest job's CSV read against the object's catalogue:
// each column a field, the record Id, or a parent named by one of its
// external id fields (Account.External_Id__c, a relationship column).
// Built by the worker for one job; not shared.
#include <optional>
#include <string>
#include <vector>

#include "domain/config/org_config.h"
#include "domain/org/org.h"

namespace fake_org::bulk {

struct IngestColumn {
  enum class Kind { kField, kId, kRelationship };
  Kind kind = Kind::kField;
  std::string name;                      // as the header spells it
  const FieldDef* field = nullptr;       // kField; kRelationship: the reference field
  const ObjectDef* parent = nullptr;     // kRelationship: the parent's object
  std::string parent_field;              // kRelationship: "Id" or a parent field
  const FieldDef* parent_key = nullptr;  // kRelationship: that field (null for Id)
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
