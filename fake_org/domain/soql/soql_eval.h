#pragma once
// The SOQL engine behind soql.h: binds a parsed query to the org's
// catalogue (names, types, relationships), plans how to find candidate
// records (an index when a top-level conjunct allows one, else a scan of the
// object), evaluates the WHERE clause, orders, and shows records as the
// platform's query result does. Stateless; callers hold the store's read
// lock around plan, evaluate and show.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "domain/config/org_config.h"
#include "domain/store/transaction.h"
#include "soql_ast.h"

namespace fake_org::soql {

// How values of a column compare.
enum class ValueType { kText, kMultiPicklist, kId, kNumber, kBoolean, kDate, kDateTime };

// A column of an object: a catalogue field, or one the platform gives every
// object (Id, IsDeleted, CreatedDate, LastModifiedDate, SystemModstamp).
struct Column {
  enum class Source {
    kField,
    kId,
    kIsDeleted,
    kCreated,
    kModified,
    kGuid,
    kContactName,
    kSystemReference  // OwnerId, CreatedById, LastModifiedById, RecordTypeId
  };
  Source source = Source::kField;
  std::string name;  // the catalogue's spelling
  ValueType type = ValueType::kText;
  bool filterable = true;  // long text areas are neither filtered nor sorted
  bool sortable = true;
  // A picklist's or multi-select's defined values (the catalogue's, which
  // the bound query's config keeps alive): ORDER BY follows their order,
  // and a multi-select reads back in it.
  const std::vector<std::string>* picklist = nullptr;
  // kSystemReference: the object and catalogue it reads through (the bound
  // query's config keeps them alive).
  const ObjectDef* object = nullptr;
  const OrgConfig* config = nullptr;
};

// One relationship crossed by a field path: the reference field and the
// name the path and the result use for it ("cpm__Contact__r", "Account").
struct Hop {
  std::string field;
  std::string relationship;
  const ObjectDef* target = nullptr;
  // A system reference (Owner, CreatedBy, LastModifiedBy, RecordType): the
  // column its id is read through; empty `field` source kField otherwise.
  Column via{};
};

struct Path {
  std::vector<Hop> hops;
  Column column;
  // toLabel(field) AS alias: shown at the record's top level under this
  // name rather than nested under its relationships.
  std::string shown_as;
  std::string text() const;  // as the catalogue spells it: "cpm__Contact__r.LastName"
};

// A value read from a record for comparing or ordering.
struct Value {
  enum class Kind { kNull, kText, kNumber, kInteger };  // integer: booleans, days, milliseconds
  Kind kind = Kind::kNull;
  std::string text;
  double number = 0;
  int64_t integer = 0;
  bool null() const { return kind == Kind::kNull; }
};

// A literal made into the column's type: a point value, a range (a date
// literal; inclusive bounds in days or milliseconds), or a set of
// multi-select picklist items (lower case, sorted).
struct Operand {
  bool null = false;
  Value value;
  bool range = false;
  int64_t low = 0;
  int64_t high = 0;
  std::vector<std::string> items;
  // LIKE: the pattern as collation code points, and which of them are
  // not wildcards.
  std::u32string pattern;
  std::vector<bool> escaped;
};

struct BoundQuery;

struct BoundComparison {
  Path path;
  CompareOp op = CompareOp::kEq;
  std::vector<Operand> operands;
  // A semi- or anti-join: the ids its one column answers stand for the list.
  std::shared_ptr<const BoundQuery> subquery;
  // HAVING: the group row's value it compares (AggregateQuery::slot), not `path`.
  int slot = -1;
};

struct BoundCondition {
  Condition::Kind kind = Condition::Kind::kComparison;
  BoundComparison comparison;
  std::vector<BoundCondition> children;
};

struct BoundOrder {
  int slot = -1;  // an aggregate query orders its group rows: the value at this slot
  Path path;
  bool descending = false;
  bool nulls_last = false;
};

// COUNT(x), COUNT_DISTINCT(x), SUM(x), AVG(x), MIN(x), MAX(x).
struct BoundAggregate {
  std::string function;
  Path path;
  ValueType result = ValueType::kNumber;  // MIN and MAX: the field's type
};

// One key of an AggregateResult record: a grouped field or an aggregate.
struct BoundItem {
  int slot = 0;
  std::string name;  // the alias, else the field's name or expr0, expr1, ...
};

// GROUP BY and aggregate functions: each group is a row of slots, the
// grouped fields' values then the aggregates'.
struct AggregateQuery {
  std::vector<Path> group_by;
  std::vector<BoundAggregate> aggregates;
  std::vector<BoundItem> items;
  std::optional<BoundCondition> having;
  ValueType slot_type(int slot) const;
};

// A parent-to-child subquery: the child records whose reference `field`
// holds the parent's id, nested in the parent as `relationship`.
struct ChildQuery {
  std::string relationship;  // as the catalogue names it: "Contacts", "cpm__Installments__r"
  std::string field;         // the child's reference field: "AccountId"
  std::shared_ptr<BoundQuery> query;
  size_t before = 0;    // shown before select[before] (select.size(): after every field)
  size_t position = 0;  // its "(" in the query text
};

struct BoundQuery {
  std::shared_ptr<const OrgConfig> config;  // keeps `object` and the hops' targets alive
  const ObjectDef* object = nullptr;
  bool count = false;
  std::vector<Path> select;
  std::optional<BoundCondition> where;
  std::vector<BoundOrder> order_by;
  std::optional<int64_t> limit;
  std::optional<int64_t> offset;
  bool include_deleted = false;                     // queryAll: deleted records answer too
  std::shared_ptr<const AggregateQuery> aggregate;  // set: AggregateResult rows
  std::vector<ChildQuery> children;                 // parent-to-child subqueries, in SELECT order
};

// Checks the query against the catalogue: INVALID_TYPE for an unknown
// object, INVALID_FIELD for an unknown field or relationship,
// INVALID_QUERY_FILTER_OPERATOR for a value or operator the field's type
// does not take, MALFORMED_QUERY for a field selected twice. `now` is the
// org's "today" for date literals.
SoqlResult<BoundQuery> bind_query(std::shared_ptr<const OrgConfig> config, std::string_view text,
                                  const Query& query, TimePoint now);

// How the candidate records were found.
struct QueryPlan {
  enum class Kind { kScan, kId, kGuid, kIndex };
  Kind kind = Kind::kScan;
  std::string index;      // the store index used (kIndex)
  size_t candidates = 0;  // records read before filtering
};
const char* to_string(QueryPlan::Kind kind);  // "scan" | "id" | "guid" | "index"

// Every record of the query's object that matches, in result order, after
// OFFSET and LIMIT. Call inside RecordStore::read.
std::vector<RecordPtr> evaluate(const BoundQuery& query, const RecordStore& store, QueryPlan& plan);

// The platform answers at most this many AggregateResult rows, in one
// batch: an aggregate query has no query locator.
inline constexpr size_t kMaxAggregateRows = 2000;

// An aggregate query's AggregateResult records, grouped, filtered by
// HAVING, ordered, after OFFSET and LIMIT; EXCEEDED_ID_LIMIT past 2,000.
// Call inside RecordStore::read.
SoqlResult<std::vector<nlohmann::ordered_json>> evaluate_aggregate(const BoundQuery& query,
                                                                   const RecordStore& store,
                                                                   QueryPlan& plan);

// Per semi- or anti-join of a WHERE clause, the ids its sub-select answers
// (sorted), found once before the outer query reads a record.
using JoinIds = std::map<const BoundComparison*, std::vector<std::string>>;
JoinIds find_join_ids(const BoundQuery& query, const RecordStore& store);

// Of `candidates`, the records of the query's object its WHERE keeps, in
// its ORDER BY, at most its LIMIT: a child subquery over the children one
// index lookup found. Call inside RecordStore::read.
std::vector<RecordPtr> select_from(const BoundQuery& query, std::vector<RecordPtr> candidates,
                                   const RecordStore& store, const JoinIds& joins);

// What a record's child subqueries answer, nested in it (soql_children.h).
class ChildResults {
 public:
  virtual ~ChildResults() = default;
  // {totalSize, done, [nextRecordsUrl,] records}, or null without children.
  virtual nlohmann::ordered_json show(const ChildQuery& child, const Record& parent) = 0;
};

// A record as the query result shows it: attributes, the selected fields,
// parents as nested objects, child subqueries from `children` (null when
// none is given). `api_version` goes into the record URLs.
nlohmann::ordered_json show_record(const BoundQuery& query, const Record& record,
                                   const RecordReader& records, const std::string& api_version,
                                   ChildResults* children = nullptr);

// The platform's spelling of an instant: 2027-03-01T09:00:00.000+0000.
std::string format_soql_datetime(TimePoint t);

// Indexes the planner can use beyond the domain's own: every reference
// field, and every email field no one-field deduplication rule covers.
// Every org keeps them (org_modules.cpp).
void add_query_indexes(const OrgConfig& config, std::vector<IndexSpec>& out);

}  // namespace fake_org::soql
