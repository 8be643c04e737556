// query?q=...&columns=true: the columns of a query's result as the
// platform's query plan describes them (decision 140). Clients lay out
// their tables from it: the platform CLI reads columnName, displayName,
// aggregate and joinColumns.
#include <strings.h>

#include <cctype>

#include "domain/config/org_config.h"
#include "soql.h"
#include "soql_parser.h"

namespace fake_org::soql {

namespace {

using ojson = nlohmann::ordered_json;

bool ends_with_custom(std::string_view name, std::string_view suffix) {
  return name.size() > suffix.size() &&
         strncasecmp(name.data() + name.size() - suffix.size(), suffix.data(), suffix.size()) == 0;
}

// The Apex type of a catalogue field, by the platform's type words.
const char* apex_type_of(const FieldDef& f) {
  switch (f.type) {
    case FieldType::kNumber:
      return f.scale == 0 ? "Integer" : "Double";
    case FieldType::kCurrency:
    case FieldType::kPercent:
      return "Double";
    case FieldType::kDate:
      return "Date";
    case FieldType::kDateTime:
      return "Datetime";
    case FieldType::kBoolean:
      return "Boolean";
    case FieldType::kReference:
      return "Id";
    default:
      return "String";
  }
}

// One entry of columnMetadata, every key the platform sends, in its order.
ojson column_entry(std::string_view name, const char* apex_type, bool custom, bool writable) {
  const std::string_view apex = apex_type ? apex_type : "";
  return {{"aggregate", false},
          {"apexType", apex_type ? ojson(apex_type) : ojson(nullptr)},
          {"booleanType", apex == "Boolean"},
          {"columnName", name},
          {"custom", custom},
          {"displayName", name},
          {"foreignKeyName", nullptr},
          {"insertable", writable},
          {"joinColumns", ojson::array()},
          {"numberType", apex == "Integer" || apex == "Double"},
          {"textType", apex == "String"},
          {"updatable", writable}};
}

// The entry of a path's last column: a catalogue field or one the platform
// gives every object (Id, IsDeleted, CreatedDate, ...; never writable).
ojson leaf_entry(const ObjectDef& object, const Column& column) {
  if (const FieldDef* f = object.field(column.name))
    return column_entry(f->name, apex_type_of(*f), ends_with_custom(f->name, "__c"), !f->system);
  const char* apex = column.source == Column::Source::kId          ? "Id"
                     : column.source == Column::Source::kIsDeleted ? "Boolean"
                                                                   : "Datetime";
  return column_entry(column.name, apex, false, false);
}

// Adds a path under `into`: "Account.Owner.Name" is the column Account,
// whose joinColumns hold Owner, whose joinColumns hold Name. Paths through
// one relationship share its entry.
void add_path(ojson& into, const ObjectDef& object, const Path& path, size_t hop = 0) {
  if (hop == path.hops.size()) {
    into.push_back(leaf_entry(object, path.column));
    return;
  }
  const Hop& h = path.hops[hop];
  ojson* entry = nullptr;
  for (auto& e : into)
    if (e["columnName"] == h.relationship && !e["foreignKeyName"].is_null()) entry = &e;
  if (!entry) {
    ojson e = column_entry(h.relationship, nullptr, ends_with_custom(h.relationship, "__r"), false);
    e["foreignKeyName"] = h.field;
    into.push_back(std::move(e));
    entry = &into.back();
  }
  add_path((*entry)["joinColumns"], *h.target, path, hop + 1);
}

std::string lower_function_name(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// An AggregateResult's keys, flat as its records show them: grouped fields
// under their names, aggregates as exprN (or their aliases), displayed as
// written ("avg(Amount)").
ojson aggregate_columns(const BoundQuery& query) {
  const AggregateQuery& agg = *query.aggregate;
  ojson out = ojson::array();
  for (const BoundItem& item : agg.items) {
    const auto slot = static_cast<size_t>(item.slot);
    if (slot < agg.group_by.size()) {
      const Path& path = agg.group_by[slot];
      const ObjectDef& owner = path.hops.empty() ? *query.object : *path.hops.back().target;
      ojson e = leaf_entry(owner, path.column);
      e["columnName"] = item.name;
      out.push_back(std::move(e));
      continue;
    }
    const BoundAggregate& a = agg.aggregates[slot - agg.group_by.size()];
    const bool number = a.result == ValueType::kNumber;
    ojson e = column_entry(item.name, nullptr, false, false);
    e["aggregate"] = true;
    e["displayName"] = lower_function_name(a.function) + "(" + a.path.text() + ")";
    e["numberType"] = number;
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

SoqlResult<nlohmann::ordered_json> query_columns(const Org& org, std::string_view soql,
                                                 const QueryOptions& options) {
  auto parsed = parse_soql(soql);
  if (!parsed) return parsed.error();
  const TimePoint now = options.now ? *options.now : org.clock_ptr()->now();
  auto bound = bind_query(org.config_ptr(), soql, *parsed, now);
  if (!bound) return bound.error();
  const BoundQuery& query = *bound;
  ojson columns = ojson::array();
  bool id_selected = false;
  if (query.aggregate) {
    columns = aggregate_columns(query);
  } else if (!query.count) {
    for (const Path& path : query.select) {
      add_path(columns, *query.object, path);
      id_selected = id_selected || (path.hops.empty() && path.column.source == Column::Source::kId);
    }
  }
  return ojson{{"columnMetadata", std::move(columns)},
               {"entityName", query.object->api_name},
               {"groupBy", query.aggregate && !query.aggregate->group_by.empty()},
               {"idSelected", id_selected},
               {"keyPrefix", query.object->key_prefix}};
}

}  // namespace fake_org::soql
