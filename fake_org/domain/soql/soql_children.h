#pragma once
// Parent-to-child relationships: the catalogue's (what describe lists as
// childRelationships and a subquery's FROM names) and the batches that nest
// child records in their parents as the platform's query results do
// (docs/soql.md, "Child subqueries"). Stateless functions; show_batch runs
// inside the record store's read lock and opens child cursors in the org's
// cursor store, whose lock is a leaf.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "domain/config/org_config.h"
#include "domain/core/clock.h"
#include "soql_eval.h"

namespace fake_org {
class Org;
}

namespace fake_org::soql {

struct QueryCursor;

// One reference field seen from the object it points at.
struct ChildRelationship {
  // The name a subquery's FROM takes: the child object's plural for a
  // standard lookup ("Contacts"; "ChildAccounts" for a parent of its own
  // kind), the namespace and plural label with "__r" for a custom one
  // ("cpm__Installments__r"); empty where the platform names none.
  std::string name;
  const ObjectDef* child = nullptr;
  const FieldDef* field = nullptr;
  bool cascade_delete = false;  // deleting the parent deletes the child
};

// Every reference field of the catalogue that points at `parent`, by child
// object name then catalogue field order.
std::vector<ChildRelationship> child_relationships(const OrgConfig& config,
                                                   const ObjectDef& parent);
// The named relationship (case-insensitive), if `parent` has it.
std::optional<ChildRelationship> find_child_relationship(const OrgConfig& config,
                                                         const ObjectDef& parent,
                                                         std::string_view name);

// English plural as the platform's labels form it: Opportunity ->
// Opportunities, Address -> Addresses, Contact -> Contacts.
std::string plural_of(std::string_view word);

// Child subqueries deeper than the request's API version allows (one level
// before 58.0, four from it), or nullopt.
std::optional<SoqlError> check_child_levels(const BoundQuery& query, std::string_view text,
                                            std::string_view api_version);

// Child records a batch shows per child result beyond the first parent's
// room: a nested result shows at most this many, the rest behind its own
// nextRecordsUrl.
inline constexpr size_t kMaxChildBatch = 2000;

struct ShownBatch {
  nlohmann::ordered_json records = nlohmann::ordered_json::array();
  size_t end = 0;  // the first row not shown
};

// The batch of `cursor.rows` from `start`: child records count toward the
// batch size, so the batch ends before a parent whose children would pass
// it; its first parent always goes in, and children past the room wait
// behind a child cursor. Call inside RecordStore::read.
ShownBatch show_batch(const Org& org, const QueryCursor& cursor, size_t start,
                      const RecordStore& store, const std::string& api_version, TimePoint now);

}  // namespace fake_org::soql
