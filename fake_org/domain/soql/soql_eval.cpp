#include "soql_eval.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "domain/core/fields.h"
#include "domain/core/ids.h"
#include "domain/org/standard_records.h"
#include "domain/store/record_store.h"
#include "soql_children.h"
#include "soql_collation.h"
#include "soql_parser.h"
#include "util/ascii.h"

namespace fake_org::soql {

namespace {

bool ends_with_ci(std::string_view s, std::string_view suffix) {
  return s.size() > suffix.size() && iequals(s.substr(s.size() - suffix.size()), suffix);
}

// The name a path uses for a reference field: cpm__Contact__c is reached as
// cpm__Contact__r, a standard lookup AccountId as Account.
std::string relationship_name(const FieldDef& f) {
  if (ends_with_ci(f.name, "__c")) return f.name.substr(0, f.name.size() - 3) + "__r";
  if (ends_with_ci(f.name, "Id")) return f.name.substr(0, f.name.size() - 2);
  return "";
}

ValueType value_type(FieldType t) {
  switch (t) {
    case FieldType::kMultiPicklist:
      return ValueType::kMultiPicklist;
    case FieldType::kReference:
      return ValueType::kId;
    case FieldType::kNumber:
    case FieldType::kCurrency:
    case FieldType::kPercent:
      return ValueType::kNumber;
    case FieldType::kBoolean:
      return ValueType::kBoolean;
    case FieldType::kDate:
      return ValueType::kDate;
    case FieldType::kDateTime:
      return ValueType::kDateTime;
    default:
      return ValueType::kText;
  }
}

// The type as the platform's filter messages name it.
const char* type_word(ValueType t) {
  switch (t) {
    case ValueType::kId:
      return "id";
    case ValueType::kNumber:
      return "double";
    case ValueType::kBoolean:
      return "boolean";
    case ValueType::kDate:
      return "date";
    case ValueType::kDateTime:
      return "dateTime";
    default:
      return "string";
  }
}

bool quoted_type(ValueType t) {
  return t == ValueType::kText || t == ValueType::kMultiPicklist || t == ValueType::kId;
}

std::optional<Column> column_of(const ObjectDef& object, std::string_view name) {
  Column c;
  if (const FieldDef* f = object.field(name)) {
    c.name = f->name;
    c.type = value_type(f->type);
    // The platform's long text areas (more than 255 characters).
    if (f->type == FieldType::kTextArea && f->length > 255) c.filterable = c.sortable = false;
    if (f->type == FieldType::kMultiPicklist) c.sortable = false;
    if (f->type == FieldType::kPicklist || f->type == FieldType::kMultiPicklist)
      c.picklist = &f->picklist_values;
    if (iequals(f->name, fields::kGuid)) c.source = Column::Source::kGuid;
    if (object.api_name == objects::kContact && f->name == fields::kName)
      c.source = Column::Source::kContactName;
    return c;
  }
  struct Standard {
    const char* name;
    Column::Source source;
    ValueType type;
  };
  static const Standard kStandard[] = {
      {"Id", Column::Source::kId, ValueType::kId},
      {"IsDeleted", Column::Source::kIsDeleted, ValueType::kBoolean},
      {"CreatedDate", Column::Source::kCreated, ValueType::kDateTime},
      {"LastModifiedDate", Column::Source::kModified, ValueType::kDateTime},
      {"SystemModstamp", Column::Source::kModified, ValueType::kDateTime},
  };
  for (const auto& s : kStandard)
    if (iequals(name, s.name)) {
      c.name = s.name;
      c.source = s.source;
      c.type = s.type;
      return c;
    }
  return std::nullopt;
}

// OwnerId, CreatedById, LastModifiedById and RecordTypeId (standard_records.h).
std::optional<Column> system_column(const OrgConfig& config, const ObjectDef& object,
                                    std::string_view name) {
  const char* spelling = system_reference_field(object, name);
  if (!spelling) return std::nullopt;
  Column c;
  c.source = Column::Source::kSystemReference;
  c.name = spelling;
  c.type = ValueType::kId;
  c.object = &object;
  c.config = &config;
  return c;
}

// ---- dates -----------------------------------------------------------------

int64_t floor_div(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

// Months counted from year 0 (year * 12 + month - 1), so ranges of months
// are plain integer arithmetic.
int64_t month_index(const Date& d) {
  return int64_t{d.year} * 12 + (d.month - 1);
}
int64_t first_of_month(int64_t m) {
  Date d;
  d.year = static_cast<int>(floor_div(m, 12));
  d.month = static_cast<int>(m - floor_div(m, 12) * 12) + 1;
  d.day = 1;
  return days_from_civil(d);
}
int64_t last_of_month(int64_t m) {
  return first_of_month(m + 1) - 1;
}

// Inclusive range of days a date literal names, weeks starting on Sunday as
// in the platform's default (en_US) locale; the org has no fiscal year.
std::pair<int64_t, int64_t> date_range(const DateLiteral& lit, const Date& today) {
  const int64_t t = days_from_civil(today);
  const int64_t week = t - (((t + 4) % 7) + 7) % 7;  // 1970-01-01 was a Thursday
  const int64_t m = month_index(today);
  const int64_t q = floor_div(m, 3);
  const int64_t y = today.year;
  const int64_t n = lit.n.value_or(0);
  const std::string& s = lit.name;
  auto months = [](int64_t from, int64_t to) {
    return std::make_pair(first_of_month(from), last_of_month(to));
  };
  if (s == "TODAY") return {t, t};
  if (s == "YESTERDAY") return {t - 1, t - 1};
  if (s == "TOMORROW") return {t + 1, t + 1};
  if (s == "THIS_WEEK") return {week, week + 6};
  if (s == "LAST_WEEK") return {week - 7, week - 1};
  if (s == "NEXT_WEEK") return {week + 7, week + 13};
  if (s == "THIS_MONTH") return months(m, m);
  if (s == "LAST_MONTH") return months(m - 1, m - 1);
  if (s == "NEXT_MONTH") return months(m + 1, m + 1);
  if (s == "LAST_90_DAYS") return {t - 90, t};
  if (s == "NEXT_90_DAYS") return {t + 1, t + 90};
  if (s == "THIS_QUARTER") return months(q * 3, q * 3 + 2);
  if (s == "LAST_QUARTER") return months((q - 1) * 3, (q - 1) * 3 + 2);
  if (s == "NEXT_QUARTER") return months((q + 1) * 3, (q + 1) * 3 + 2);
  if (s == "THIS_YEAR") return months(y * 12, y * 12 + 11);
  if (s == "LAST_YEAR") return months((y - 1) * 12, (y - 1) * 12 + 11);
  if (s == "NEXT_YEAR") return months((y + 1) * 12, (y + 1) * 12 + 11);
  if (s == "LAST_N_DAYS") return {t - n, t};
  if (s == "NEXT_N_DAYS") return {t + 1, t + n};
  if (s == "N_DAYS_AGO") return {t - n, t - n};
  if (s == "LAST_N_WEEKS") return {week - 7 * n, week - 1};
  if (s == "NEXT_N_WEEKS") return {week + 7, week + 7 * n + 6};
  if (s == "N_WEEKS_AGO") return {week - 7 * n, week - 7 * n + 6};
  if (s == "LAST_N_MONTHS") return months(m - n, m - 1);
  if (s == "NEXT_N_MONTHS") return months(m + 1, m + n);
  if (s == "N_MONTHS_AGO") return months(m - n, m - n);
  if (s == "LAST_N_QUARTERS") return months((q - n) * 3, q * 3 - 1);
  if (s == "NEXT_N_QUARTERS") return months((q + 1) * 3, (q + n) * 3 + 2);
  if (s == "N_QUARTERS_AGO") return months((q - n) * 3, (q - n) * 3 + 2);
  if (s == "LAST_N_YEARS") return months((y - n) * 12, y * 12 - 1);
  if (s == "NEXT_N_YEARS") return months((y + 1) * 12, (y + n) * 12 + 11);
  if (s == "N_YEARS_AGO") return months((y - n) * 12, (y - n) * 12 + 11);
  return {1, 0};  // the parser admits no other name; an empty range if it ever did
}

constexpr int64_t kMsPerDay = 86400000;

int64_t millis(TimePoint t) {
  return t.time_since_epoch().count();
}

// Multi-select picklist items as a set: lower case, trimmed, sorted.
std::vector<std::string> picklist_items(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(';', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view item = text.substr(start, end - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty()) out.push_back(ascii_lower(item));
    start = end + 1;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// ---- binding ---------------------------------------------------------------

// FIELDS(ALL) and FIELDS(CUSTOM) need a LIMIT of at most this.
constexpr int64_t kMaxFieldsLimit = 200;

// A LIKE pattern in collation code points; the escapes the parser marked
// per byte are marked per code point (\% and \_ are one byte each).
void like_pattern(const Literal& lit, Operand& o) {
  o.value.text = lit.text;
  o.pattern = collation_key(lit.text);
  if (lit.escaped.empty()) return;
  size_t at = 0;
  for (size_t i = 0; i < lit.text.size(); ++i) {
    if ((static_cast<unsigned char>(lit.text[i]) & 0xC0) == 0x80) continue;
    o.escaped.push_back(i < lit.escaped.size() && lit.escaped[i]);
    ++at;
  }
  o.escaped.resize(at);
}

class Binder {
 public:
  Binder(std::shared_ptr<const OrgConfig> config, std::string_view text, TimePoint now)
      : config_(std::move(config)), text_(text), now_(now), today_(date_of(now)) {}

  SoqlResult<BoundQuery> run(const Query& q) {
    const ObjectDef* object = config_->object(q.object);
    if (!object)
      return positioned_error(
          text_, q.object_position, soql_code::kInvalidType,
          "sObject type '" + q.object +
              "' is not supported. If you are attempting to use a custom object, be sure to "
              "append the '__c' after the entity name. Please reference your WSDL or the "
              "describe call for the appropriate names.");
    return run_on(q, object);
  }

  // The query over `object`: the FROM object, or a child subquery's.
  SoqlResult<BoundQuery> run_on(const Query& q, const ObjectDef* object) {
    BoundQuery b;
    b.config = config_;
    b.object = object;
    alias_ = q.alias;
    b.count = q.count;
    const bool aggregate =
        !q.group_by.empty() || std::any_of(q.items.begin(), q.items.end(),
                                           [](const SelectItem& i) { return i.aggregate; });
    if (aggregate ? !bind_aggregate_query(q, b) : !bind_select(q, b)) return *err_;
    if (q.where) {
      BoundCondition c;
      if (!bind_condition(*b.object, *q.where, c)) return *err_;
      b.where = std::move(c);
    }
    if (!aggregate && !bind_order_by(q, b)) return *err_;
    b.limit = q.limit;
    b.offset = q.offset;
    return b;
  }

 private:
  // The columns FIELDS(kind) stands for: the platform's own then the
  // catalogue's, custom ones (__c) only for CUSTOM and ALL.
  static std::vector<Column> fields_of(const ObjectDef& object, const std::string& kind) {
    std::vector<Column> out;
    if (kind != "CUSTOM")
      for (const char* name :
           {"Id", "IsDeleted", "CreatedDate", "LastModifiedDate", "SystemModstamp"})
        out.push_back(*column_of(object, name));
    for (const auto& f : object.fields) {
      const bool custom = ends_with_ci(f.name, "__c");
      if (kind == "ALL" || custom == (kind == "CUSTOM")) out.push_back(*column_of(object, f.name));
    }
    return out;
  }

  bool bind_fields_function(const Query& q, const SelectItem& item, BoundQuery& b,
                            std::set<std::string>& seen) {
    // The platform bounds what FIELDS(ALL) and FIELDS(CUSTOM) may read.
    if (item.fields_function != "STANDARD" && (!q.limit || *q.limit > kMaxFieldsLimit))
      return fail(item.fields_position, soql_code::kMalformedQuery,
                  "The SOQL FIELDS function must have a LIMIT of at most 200");
    for (auto& column : fields_of(*b.object, item.fields_function)) {
      if (!seen.insert(ascii_lower(column.name)).second)
        return fail(item.fields_position, soql_code::kMalformedQuery,
                    "duplicate field selected: " + column.name);
      Path p;
      p.column = std::move(column);
      b.select.push_back(std::move(p));
    }
    return true;
  }

  bool bind_select(const Query& q, BoundQuery& b) {
    std::set<std::string> seen;
    for (const auto& item : q.items) {
      if (!item.fields_function.empty()) {
        if (!bind_fields_function(q, item, b, seen)) return false;
        continue;
      }
      if (item.subquery) {
        if (!bind_child(item, b, seen)) return false;
        continue;
      }
      if (!item.alias.empty() && !item.to_label)
        return fail(item.alias_position, soql_code::kMalformedQuery,
                    "Only aggregate expressions use field aliasing");
      Path p;
      if (!resolve(*b.object, item.field, p)) return false;
      // The catalogue's picklist labels are its values (describe shows both alike).
      if (item.to_label && !p.column.picklist)
        return fail(item.field.positions.back(), soql_code::kInvalidField,
                    "toLabel() takes a picklist or multi-select picklist field, not '" +
                        p.column.name + "'");
      p.shown_as = item.alias;
      if (!seen.insert(ascii_lower(item.alias.empty() ? p.text() : item.alias)).second)
        return fail(
            item.to_label ? item.to_label_position : item.field.position(),
            soql_code::kMalformedQuery,
            "duplicate field selected: " + (item.alias.empty() ? item.field.text() : item.alias));
      b.select.push_back(std::move(p));
    }
    return true;
  }

  // (SELECT ... FROM Contacts): the relationship among the object's
  // children, its query bound against the child object.
  bool bind_child(const SelectItem& item, BoundQuery& b, std::set<std::string>& seen) {
    const Query& sub = *item.subquery;
    const bool prefixed = !sub.object_prefix.empty();
    auto rel = find_child_relationship(*config_, *b.object, sub.object);
    if (!rel || (prefixed && !iequals(sub.object_prefix, b.object->api_name) &&
                 !iequals(sub.object_prefix, alias_))) {
      const std::string name = (prefixed ? sub.object_prefix + "." : "") + sub.object;
      return fail(
          prefixed ? sub.object_position - sub.object_prefix.size() - 1 : sub.object_position,
          soql_code::kInvalidType,
          "Didn't understand relationship '" + name +
              "' in FROM part of query call. If you are attempting to use a custom "
              "relationship, be sure to append the '__r' after the custom relationship "
              "name. Please reference your WSDL or the describe call for the appropriate "
              "names.");
    }
    if (b.children.size() >= kMaxChildRelationships)
      return fail(item.subquery_position, soql_code::kMalformedQuery,
                  "SOQL statements cannot query more than " +
                      std::to_string(kMaxChildRelationships) + " child relationships");
    if (!seen.insert(ascii_lower(rel->name)).second)
      return fail(sub.object_position, soql_code::kMalformedQuery,
                  "duplicate field selected: " + rel->name);
    // The platform aggregates at the root only.
    for (const auto& inner : sub.items)
      if (inner.aggregate)
        return fail(inner.aggregate->position, soql_code::kMalformedQuery,
                    "Only root queries support aggregate expressions");
    if (sub.count)
      return fail(sub.count_position, soql_code::kMalformedQuery,
                  "Only root queries support aggregate expressions");
    Binder child(config_, text_, now_);
    auto bound = child.run_on(sub, rel->child);
    if (!bound) {
      err_ = bound.error();
      return false;
    }
    ChildQuery c;
    c.relationship = rel->name;
    c.field = rel->field->name;
    c.query = std::make_shared<BoundQuery>(std::move(bound.value()));
    c.before = b.select.size();
    c.position = item.subquery_position;
    b.children.push_back(std::move(c));
    return true;
  }

  bool bind_order_by(const Query& q, BoundQuery& b) {
    for (const auto& o : q.order_by) {
      if (q.count || o.aggregate)
        return fail(o.field.position(), soql_code::kMalformedQuery,
                    "Ordered field must be grouped or aggregated: " + o.field.text());
      BoundOrder bo;
      if (!resolve(*b.object, o.field, bo.path)) return false;
      if (!bo.path.column.sortable)
        return fail(o.field.positions.back(), soql_code::kInvalidField,
                    "field '" + bo.path.column.name + "' can not be sorted in a query call");
      bo.descending = o.descending;
      // The platform's defaults: nulls first ascending, last descending.
      bo.nulls_last = o.nulls_last.value_or(o.descending);
      b.order_by.push_back(std::move(bo));
    }
    return true;
  }

  // ---- aggregate queries ----

  bool bind_aggregate_query(const Query& q, BoundQuery& b) {
    auto agg = std::make_shared<AggregateQuery>();
    for (const auto& g : q.group_by) {
      Path p;
      if (!resolve(*b.object, g, p)) return false;
      const Column& col = p.column;
      if (!col.filterable || col.type == ValueType::kNumber ||
          col.type == ValueType::kMultiPicklist || col.type == ValueType::kDateTime)
        return fail(g.positions.back(), soql_code::kInvalidField,
                    "field '" + col.name + "' can not be grouped in a query call");
      agg->group_by.push_back(std::move(p));
    }
    int unnamed = 0;
    std::set<std::string> names;
    for (const auto& item : q.items) {
      BoundItem bi;
      if (item.subquery)
        return fail(item.subquery_position, soql_code::kMalformedQuery,
                    "a child relationship subquery cannot be used in an aggregate query");
      if (item.to_label)
        return fail(item.to_label_position, soql_code::kMalformedQuery,
                    "toLabel() cannot be used in an aggregate query");
      if (!item.fields_function.empty())
        return fail(item.fields_position, soql_code::kMalformedQuery,
                    "FIELDS() cannot be used in an aggregate query");
      if (item.aggregate) {
        if (!bind_aggregate(*b.object, *item.aggregate, *agg, bi.slot)) return false;
        bi.name = item.alias.empty() ? "expr" + std::to_string(unnamed++) : item.alias;
      } else {
        if (!group_slot(*b.object, item.field, *agg, bi.slot)) return false;
        bi.name = item.alias.empty() ? agg->group_by[bi.slot].column.name : item.alias;
      }
      if (!names.insert(ascii_lower(bi.name)).second)
        return fail(item.alias.empty() ? item.field.position() : item.alias_position,
                    soql_code::kMalformedQuery, "duplicate alias: " + bi.name);
      agg->items.push_back(std::move(bi));
    }
    if (q.having) {
      BoundCondition c;
      if (!bind_having(*b.object, *q.having, *agg, c)) return false;
      agg->having = std::move(c);
    }
    for (const auto& o : q.order_by) {
      BoundOrder bo;
      if (o.aggregate ? !bind_aggregate(*b.object, *o.aggregate, *agg, bo.slot)
                      : !group_slot(*b.object, o.field, *agg, bo.slot))
        return false;
      bo.descending = o.descending;
      bo.nulls_last = o.nulls_last.value_or(o.descending);
      b.order_by.push_back(std::move(bo));
    }
    b.aggregate = std::move(agg);
    return true;
  }

  // The slot of a grouped field; a field neither grouped nor aggregated is refused.
  bool group_slot(const ObjectDef& object, const FieldRef& f, const AggregateQuery& agg,
                  int& slot) {
    Path p;
    if (!resolve(object, f, p)) return false;
    for (size_t i = 0; i < agg.group_by.size(); ++i)
      if (iequals(agg.group_by[i].text(), p.text())) {
        slot = static_cast<int>(i);
        return true;
      }
    return fail(f.position(), soql_code::kMalformedQuery,
                "Field must be grouped or aggregated: " + f.text());
  }

  bool bind_aggregate(const ObjectDef& object, const Aggregate& a, AggregateQuery& agg, int& slot) {
    BoundAggregate ba;
    ba.function = a.function;
    if (!resolve(object, a.field, ba.path)) return false;
    const ValueType type = ba.path.column.type;
    const bool numeric = a.function == "SUM" || a.function == "AVG";
    const bool extreme = a.function == "MIN" || a.function == "MAX";
    if (!ba.path.column.filterable || (numeric && type != ValueType::kNumber) ||
        (extreme && (type == ValueType::kBoolean || type == ValueType::kMultiPicklist)))
      return fail(
          a.field.positions.back(), soql_code::kInvalidField,
          "field " + ba.path.column.name + " does not support aggregate operator " + a.function);
    ba.result = extreme ? type : ValueType::kNumber;
    const int first = static_cast<int>(agg.group_by.size());
    for (size_t i = 0; i < agg.aggregates.size(); ++i)
      if (agg.aggregates[i].function == ba.function &&
          agg.aggregates[i].path.text() == ba.path.text()) {
        slot = first + static_cast<int>(i);
        return true;
      }
    slot = first + static_cast<int>(agg.aggregates.size());
    agg.aggregates.push_back(std::move(ba));
    return true;
  }

  bool bind_having(const ObjectDef& object, const Condition& c, AggregateQuery& agg,
                   BoundCondition& out) {
    out.kind = c.kind;
    if (c.kind != Condition::Kind::kComparison) {
      for (const auto& child : c.children)
        if (!bind_having(object, child, agg, out.children.emplace_back())) return false;
      return true;
    }
    const Comparison& cmp = c.comparison;
    BoundComparison& bc = out.comparison;
    if (cmp.subquery)
      return fail(cmp.op_position, soql_code::kMalformedQuery,
                  "semi join sub selects are not allowed in HAVING");
    if (cmp.aggregate ? !bind_aggregate(object, *cmp.aggregate, agg, bc.slot)
                      : !group_slot(object, cmp.field, agg, bc.slot))
      return false;
    bc.path = Path{};
    bc.path.column.name = cmp.aggregate ? cmp.aggregate->function : cmp.field.text();
    bc.path.column.type = agg.slot_type(bc.slot);
    bc.op = cmp.op;
    return bind_predicate(cmp, bc);
  }

  bool fail(size_t pos, const char* code, std::string detail) {
    if (!err_) err_ = positioned_error(text_, pos, code, std::move(detail));
    return false;
  }

  // Owner, CreatedBy and LastModifiedBy lead to User, RecordType to
  // RecordType, when the catalogue has those objects.
  bool system_hop(const ObjectDef& object, const std::string& name, Path& out) {
    auto via = system_column(*config_, object, name + "Id");
    if (!via) return false;
    const ObjectDef* target =
        config_->object(via->name == system_field::kRecordTypeId ? "RecordType" : "User");
    if (!target) return false;
    out.hops.push_back(Hop{via->name, via->name.substr(0, via->name.size() - 2), target, *via});
    return true;
  }

  bool resolve(const ObjectDef& root, const FieldRef& f, Path& out) {
    size_t first = 0;
    if (!alias_.empty() && f.parts.size() > 1 && iequals(f.parts[0], alias_)) first = 1;
    const ObjectDef* object = &root;
    for (size_t i = first; i + 1 < f.parts.size(); ++i) {
      const FieldDef* ref = nullptr;
      for (const auto& fd : object->fields)
        if (fd.type == FieldType::kReference && iequals(relationship_name(fd), f.parts[i])) {
          ref = &fd;
          break;
        }
      const ObjectDef* target = ref ? config_->object(ref->reference_to) : nullptr;
      if (!ref && system_hop(*object, f.parts[i], out)) {
        object = out.hops.back().target;
        continue;
      }
      if (!target)
        return fail(f.positions[i], soql_code::kInvalidField,
                    "Didn't understand relationship '" + f.parts[i] +
                        "' in field path. If you are attempting to use a custom relationship, "
                        "be sure to append the '__r' after the custom relationship name. Please "
                        "reference your WSDL or the describe call for the appropriate names.");
      out.hops.push_back(Hop{ref->name, relationship_name(*ref), target});
      object = target;
    }
    auto column = column_of(*object, f.parts.back());
    if (!column) column = system_column(*config_, *object, f.parts.back());
    if (!column)
      return fail(f.positions.back(), soql_code::kInvalidField,
                  "No such column '" + f.parts.back() + "' on entity '" + object->api_name +
                      "'. If you are attempting to use a custom field, be sure to append the "
                      "'__c' after the custom field name. Please reference your WSDL or the "
                      "describe call for the appropriate names.");
    out.column = std::move(*column);
    return true;
  }

  bool bind_condition(const ObjectDef& object, const Condition& c, BoundCondition& out) {
    out.kind = c.kind;
    if (c.kind == Condition::Kind::kComparison)
      return bind_comparison(object, c.comparison, out.comparison);
    for (const auto& child : c.children) {
      BoundCondition b;
      if (!bind_condition(object, child, b)) return false;
      out.children.push_back(std::move(b));
    }
    return true;
  }

  bool bind_comparison(const ObjectDef& object, const Comparison& c, BoundComparison& out) {
    if (!resolve(object, c.field, out.path)) return false;
    const Column& col = out.path.column;
    if (!col.filterable)
      return fail(c.field.positions.back(), soql_code::kInvalidField,
                  "field '" + col.name + "' can not be filtered in a query call");
    out.op = c.op;
    if (c.subquery) return bind_semi_join(c, out);
    return bind_predicate(c, out);
  }

  // The operator and values against `out.path.column`.
  bool bind_predicate(const Comparison& c, BoundComparison& out) {
    const Column& col = out.path.column;
    const bool ordering = c.op == CompareOp::kLt || c.op == CompareOp::kLe ||
                          c.op == CompareOp::kGt || c.op == CompareOp::kGe;
    if (c.op == CompareOp::kLike && col.type != ValueType::kText)
      return fail(c.op_position, soql_code::kInvalidFilter,
                  "invalid operator on " + std::string(type_word(col.type)) + " field '" +
                      col.name + "': LIKE takes text fields only");
    if ((c.op == CompareOp::kIncludes || c.op == CompareOp::kExcludes) &&
        col.type != ValueType::kMultiPicklist)
      return fail(c.op_position, soql_code::kInvalidFilter,
                  "includes or excludes operator only valid on multipicklist field");
    if (ordering && (col.type == ValueType::kBoolean || col.type == ValueType::kMultiPicklist))
      return fail(c.op_position, soql_code::kInvalidFilter,
                  "invalid operator on " +
                      std::string(col.type == ValueType::kBoolean ? "boolean" : "multipicklist") +
                      " field '" + col.name + "': " + to_string(c.op));
    for (const auto& lit : c.values) {
      Operand o;
      if (!bind_operand(col, c.op, lit, o)) return false;
      out.operands.push_back(std::move(o));
    }
    return true;
  }

  // The platform joins on ids only: both sides an Id or a reference field.
  bool bind_semi_join(const Comparison& c, BoundComparison& out) {
    if (out.path.column.type != ValueType::kId)
      return fail(c.field.positions.back(), soql_code::kInvalidField,
                  "semi join sub selects are only supported on id or reference fields, cannot "
                  "use: '" +
                      c.field.text() + "'");
    auto inner = Binder(config_, text_, now_).run(*c.subquery);
    if (!inner) {
      err_ = inner.error();
      return false;
    }
    const FieldRef& selected = c.subquery->fields.front();
    if (inner->select.front().column.type != ValueType::kId || !inner->select.front().hops.empty())
      return fail(
          selected.position(), soql_code::kMalformedQuery,
          "semi join sub selects can only query id fields, cannot use: '" + selected.text() + "'");
    out.subquery = std::make_shared<const BoundQuery>(std::move(inner.value()));
    return true;
  }

  bool type_mismatch(const Column& col, const Literal& lit) {
    return fail(lit.position, soql_code::kInvalidFilter,
                "value of filter criterion for field '" + col.name + "' must be of type " +
                    type_word(col.type) + " and should " + (quoted_type(col.type) ? "" : "not ") +
                    "be enclosed in quotes");
  }

  bool bind_operand(const Column& col, CompareOp op, const Literal& lit, Operand& o) {
    using LK = Literal::Kind;
    const bool equality = op == CompareOp::kEq || op == CompareOp::kNe || op == CompareOp::kIn ||
                          op == CompareOp::kNotIn;
    // The platform keeps no empty text: '' is null, on any text or id field.
    const bool empty_text = lit.kind == LK::kString && lit.text.empty() &&
                            (col.type == ValueType::kText || col.type == ValueType::kId ||
                             col.type == ValueType::kMultiPicklist);
    if (lit.kind == LK::kNull || (empty_text && equality)) {
      if (!equality)
        return fail(lit.position, soql_code::kInvalidFilter,
                    std::string("null can only be compared with =, !=, IN or NOT IN, not ") +
                        to_string(op));
      o.null = true;
      return true;
    }
    switch (col.type) {
      case ValueType::kText:
        if (lit.kind != LK::kString) return type_mismatch(col, lit);
        o.value.kind = Value::Kind::kText;
        if (op == CompareOp::kLike) {
          like_pattern(lit, o);
        } else {
          o.value.text = lit.text;
        }
        return true;
      case ValueType::kMultiPicklist:
        if (lit.kind != LK::kString) return type_mismatch(col, lit);
        o.items = picklist_items(lit.text);
        return true;
      case ValueType::kId: {
        if (lit.kind != LK::kString) return type_mismatch(col, lit);
        auto id18 = to_id18(lit.text);
        if (!id18)
          return fail(lit.position, soql_code::kInvalidFilter, "invalid ID field: " + lit.text);
        o.value.kind = Value::Kind::kText;
        o.value.text = *id18;
        return true;
      }
      case ValueType::kNumber:
        if (lit.kind != LK::kNumber) return type_mismatch(col, lit);
        o.value.kind = Value::Kind::kNumber;
        o.value.number = lit.number;
        return true;
      case ValueType::kBoolean:
        if (lit.kind != LK::kBoolean) return type_mismatch(col, lit);
        o.value.kind = Value::Kind::kInteger;
        o.value.integer = lit.boolean ? 1 : 0;
        return true;
      case ValueType::kDate:
      case ValueType::kDateTime: {
        const bool is_date = col.type == ValueType::kDate;
        if (lit.kind == LK::kDateLiteral) {
          auto [low, high] = date_range(lit.range, today_);
          o.range = true;
          o.low = is_date ? low : low * kMsPerDay;
          o.high = is_date ? high : (high + 1) * kMsPerDay - 1;
          return true;
        }
        if (lit.kind != (is_date ? LK::kDate : LK::kDateTime)) return type_mismatch(col, lit);
        o.value.kind = Value::Kind::kInteger;
        o.value.integer = is_date ? days_from_civil(lit.date) : millis(lit.datetime);
        return true;
      }
    }
    return type_mismatch(col, lit);
  }

  std::shared_ptr<const OrgConfig> config_;
  std::string_view text_;
  TimePoint now_;
  Date today_;
  std::string alias_;
  std::optional<SoqlError> err_;
};

// ---- reading records -------------------------------------------------------

const char* const kPlatformDateTimeSuffix = "+0000";

// A column the org derives rather than stores (Id, dates, GUID, a contact's
// Name); nullopt when the column is a stored field after all.
std::optional<Value> read_derived_column(const Column& c, const Record& r) {
  Value v;
  switch (c.source) {
    case Column::Source::kId:
      v.kind = Value::Kind::kText;
      v.text = r.id;
      return v;
    case Column::Source::kIsDeleted:
      v.kind = Value::Kind::kInteger;
      v.integer = r.deleted ? 1 : 0;
      return v;
    case Column::Source::kCreated:
    case Column::Source::kModified:
      v.kind = Value::Kind::kInteger;
      v.integer = millis(c.source == Column::Source::kCreated ? r.created : r.modified);
      return v;
    case Column::Source::kGuid:
      // Writers set the record's GUID and this field together; seeds set only the first.
      if (!r.guid.empty()) {
        v.kind = Value::Kind::kText;
        v.text = r.guid;
        return v;
      }
      break;
    case Column::Source::kContactName:
      // The platform composes a contact's Name from its parts.
      if (!r.has(c.name)) {
        std::string first = r.text(fields::contact::kFirstName);
        std::string last = r.text(fields::contact::kLastName);
        std::string name = first.empty() ? last : (last.empty() ? first : first + " " + last);
        if (!name.empty()) {
          v.kind = Value::Kind::kText;
          v.text = std::move(name);
        }
        return v;
      }
      break;
    case Column::Source::kSystemReference:
      v.text = system_reference_value(*c.config, *c.object, r, c.name);
      if (!v.text.empty()) v.kind = Value::Kind::kText;
      return v;
    case Column::Source::kField:
      break;
  }
  return std::nullopt;
}

Value read_column(const Column& c, const Record& r) {
  if (auto derived = read_derived_column(c, r)) return *derived;
  Value v;
  auto j = r.get(c.name);
  if (c.type == ValueType::kBoolean) {
    // A checkbox is never null on the platform: unset is false.
    v.kind = Value::Kind::kInteger;
    v.integer =
        j && ((j->is_boolean() && j->get<bool>()) || (j->is_string() && j->str() == "true"));
    return v;
  }
  if (!j) return v;
  switch (c.type) {
    case ValueType::kNumber:
      if (j->is_number()) {
        v.kind = Value::Kind::kNumber;
        v.number = j->get<double>();
      } else if (j->is_string()) {
        const std::string s(j->str());
        char* end = nullptr;
        double d = std::strtod(s.c_str(), &end);
        if (!s.empty() && end && *end == '\0') {
          v.kind = Value::Kind::kNumber;
          v.number = d;
        }
      }
      return v;
    case ValueType::kDate:
      if (j->is_string())
        if (auto d = parse_date(j->str())) {
          v.kind = Value::Kind::kInteger;
          v.integer = days_from_civil(*d);
        }
      return v;
    case ValueType::kDateTime:
      if (j->is_string())
        if (auto t = parse_iso8601(j->str())) {
          v.kind = Value::Kind::kInteger;
          v.integer = millis(*t);
        }
      return v;
    default: {
      std::string s = j->is_string() ? std::string(j->str()) : j->json().dump();
      if (!s.empty()) {
        v.kind = Value::Kind::kText;
        v.text = std::move(s);
      }
      return v;
    }
  }
}

// The id a hop leaves a record by ("" when the reference is empty).
std::string hop_id(const Hop& hop, const Record& r) {
  if (hop.via.source == Column::Source::kSystemReference) return read_column(hop.via, r).text;
  return r.text(hop.field);
}

// The record a path's hops lead to, or null when a reference on the way is empty.
RecordPtr follow(const std::vector<Hop>& hops, const Record& root, const RecordReader& records,
                 RecordPtr root_ptr) {
  RecordPtr at = std::move(root_ptr);
  const Record* cur = &root;
  for (const auto& hop : hops) {
    std::string id = hop_id(hop, *cur);
    if (id.empty()) return nullptr;
    at = records.get(id);
    if (!at) return nullptr;
    cur = at.get();
  }
  return at;
}

Value path_value(const Path& p, const Record& r, const RecordReader& records) {
  if (p.hops.empty()) return read_column(p.column, r);
  RecordPtr parent = follow(p.hops, r, records, nullptr);
  return parent ? read_column(p.column, *parent) : Value{};
}

int compare(const Value& a, const Value& b, ValueType type) {
  switch (type) {
    case ValueType::kText:
    case ValueType::kMultiPicklist:
      return collate(a.text, b.text);
    case ValueType::kId:
      return a.text.compare(b.text) < 0 ? -1 : (a.text == b.text ? 0 : 1);
    case ValueType::kNumber:
      return a.number < b.number ? -1 : (a.number > b.number ? 1 : 0);
    default:
      return a.integer < b.integer ? -1 : (a.integer > b.integer ? 1 : 0);
  }
}

// LIKE: % any run, _ one character, both as themselves where escaped;
// without regard to case, as the collation compares.
bool like(std::string_view text, const Operand& o) {
  const std::u32string str = collation_key(text);
  const std::u32string& pat = o.pattern;
  auto escaped = [&](size_t p) { return p < o.escaped.size() && o.escaped[p]; };
  auto any_run = [&](size_t p) { return pat[p] == U'%' && !escaped(p); };
  auto one = [&](size_t p) { return pat[p] == U'_' && !escaped(p); };
  size_t s = 0, p = 0, star = std::u32string::npos, resume = 0;
  while (s < str.size()) {
    if (p < pat.size() && !any_run(p) && (one(p) || str[s] == pat[p])) {
      ++s;
      ++p;
    } else if (p < pat.size() && any_run(p)) {
      star = p++;
      resume = s;
    } else if (star != std::u32string::npos) {
      p = star + 1;
      s = ++resume;
    } else {
      return false;
    }
  }
  while (p < pat.size() && any_run(p)) ++p;
  return p == pat.size();
}

bool includes_all(const std::vector<std::string>& have, const std::vector<std::string>& want) {
  return std::includes(have.begin(), have.end(), want.begin(), want.end());
}

bool matches_value(const BoundComparison& c, const Value& v);

bool matches(const BoundComparison& c, const Record& r, const RecordReader& records,
             const JoinIds& joins) {
  if (c.subquery) {
    const Value v = path_value(c.path, r, records);
    const auto& ids = joins.at(&c);
    const bool in = !v.null() && std::binary_search(ids.begin(), ids.end(), v.text);
    return c.op == CompareOp::kIn ? in : !in;
  }
  return matches_value(c, path_value(c.path, r, records));
}

// Evaluates the comparison on the value it reads.
bool matches_value(const BoundComparison& c, const Value& v) {
  const ValueType type = c.path.column.type;
  auto equals = [&](const Operand& o) {
    if (o.null) return v.null();
    if (v.null()) return false;
    if (o.range) return v.integer >= o.low && v.integer <= o.high;
    if (type == ValueType::kMultiPicklist) return picklist_items(v.text) == o.items;
    return compare(v, o.value, type) == 0;
  };
  auto any_equal = [&] {
    for (const auto& o : c.operands)
      if (equals(o)) return true;
    return false;
  };
  const Operand& first = c.operands.front();
  switch (c.op) {
    case CompareOp::kEq:
      return equals(first);
    case CompareOp::kNe:
      return !equals(first);
    case CompareOp::kIn:
      return any_equal();
    case CompareOp::kNotIn:
      return !any_equal();
    case CompareOp::kLike:
      return !v.null() && like(v.text, first);
    case CompareOp::kIncludes:
    case CompareOp::kExcludes: {
      bool hit = false;
      if (!v.null()) {
        const auto have = picklist_items(v.text);
        for (const auto& o : c.operands) hit = hit || includes_all(have, o.items);
      }
      return c.op == CompareOp::kIncludes ? hit : !hit;
    }
    default:
      break;
  }
  if (v.null()) return false;
  if (first.range) {
    switch (c.op) {
      case CompareOp::kLt:
        return v.integer < first.low;
      case CompareOp::kLe:
        return v.integer <= first.high;
      case CompareOp::kGt:
        return v.integer > first.high;
      default:
        return v.integer >= first.low;
    }
  }
  const int cmp = compare(v, first.value, type);
  switch (c.op) {
    case CompareOp::kLt:
      return cmp < 0;
    case CompareOp::kLe:
      return cmp <= 0;
    case CompareOp::kGt:
      return cmp > 0;
    default:
      return cmp >= 0;
  }
}

bool matches(const BoundCondition& c, const Record& r, const RecordReader& records,
             const JoinIds& joins) {
  switch (c.kind) {
    case Condition::Kind::kComparison:
      return matches(c.comparison, r, records, joins);
    case Condition::Kind::kNot:
      return !matches(c.children.front(), r, records, joins);
    case Condition::Kind::kAnd:
      for (const auto& child : c.children)
        if (!matches(child, r, records, joins)) return false;
      return true;
    case Condition::Kind::kOr:
      for (const auto& child : c.children)
        if (matches(child, r, records, joins)) return true;
      return false;
  }
  return false;
}

// A picklist orders by its defined values, not their text: the value's
// place in the list (values the list lacks after it, by text).
Value order_key(const Column& c, Value v) {
  if (!c.picklist || c.type != ValueType::kText || v.null()) return v;
  const auto& values = *c.picklist;
  size_t at = 0;
  while (at < values.size() && collate(values[at], v.text) != 0) ++at;
  v.kind = Value::Kind::kNumber;
  v.number = static_cast<double>(at);
  return v;
}

int compare_order(const Column& c, const Value& a, const Value& b) {
  if (!c.picklist || c.type != ValueType::kText) return compare(a, b, c.type);
  if (a.number != b.number) return a.number < b.number ? -1 : 1;
  return collate(a.text, b.text);
}

// A multi-select's items in the picklist's defined order (undefined ones
// after, as written), as the platform reads them back.
std::string defined_order(const std::vector<std::string>& defined, std::string_view text) {
  std::vector<std::string_view> items;
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find(';', start);
    if (end == std::string_view::npos) end = text.size();
    if (end > start) items.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  auto rank = [&](std::string_view item) {
    size_t at = 0;
    while (at < defined.size() && collate(defined[at], item) != 0) ++at;
    return at;
  };
  std::stable_sort(items.begin(), items.end(),
                   [&](std::string_view a, std::string_view b) { return rank(a) < rank(b); });
  std::string out;
  for (auto item : items) out += (out.empty() ? "" : ";") + std::string(item);
  return out;
}

// ---- planning --------------------------------------------------------------

// Comparisons every matching record must pass: the WHERE clause itself or
// the children of a top-level AND (nested ANDs included).
void conjuncts(const BoundCondition& c, std::vector<const BoundComparison*>& out) {
  if (c.kind == Condition::Kind::kComparison) out.push_back(&c.comparison);
  if (c.kind == Condition::Kind::kAnd)
    for (const auto& child : c.children) conjuncts(child, out);
}

// The values a conjunct requires of its own field (= or IN), if it
// requires any an index holds: a null one matches records no index keeps.
std::optional<std::vector<std::string>> required_values(const BoundComparison& c,
                                                        const JoinIds& joins) {
  if (!c.path.hops.empty() || (c.op != CompareOp::kEq && c.op != CompareOp::kIn))
    return std::nullopt;
  if (c.subquery) return joins.at(&c);
  std::vector<std::string> out;
  for (const auto& o : c.operands) {
    if (o.null || o.range || o.value.kind != Value::Kind::kText) return std::nullopt;
    out.push_back(o.value.text);
  }
  return out;
}

// Combinations of one value per index field are looked up one by one; past
// this many a scan is cheaper than building them.
constexpr size_t kMaxIndexProbes = 1000;

// Candidate records from the cheapest usable lookup, or nullopt: scan.
std::optional<std::vector<RecordPtr>> plan_candidates(const BoundQuery& q, const RecordStore& store,
                                                      const JoinIds& joins, QueryPlan& plan) {
  if (!q.where) return std::nullopt;
  std::vector<const BoundComparison*> conj;
  conjuncts(*q.where, conj);
  std::optional<std::vector<std::string>> best_ids;
  auto offer = [&](QueryPlan::Kind kind, const std::string& index, std::vector<std::string> ids) {
    if (best_ids && best_ids->size() <= ids.size()) return;
    plan.kind = kind;
    plan.index = index;
    best_ids = std::move(ids);
  };
  for (const auto* c : conj) {
    auto values = required_values(*c, joins);
    if (!values) continue;
    if (c->path.column.source == Column::Source::kId) {
      offer(QueryPlan::Kind::kId, "", *values);
    } else if (c->path.column.source == Column::Source::kGuid && values->size() == 1) {
      std::vector<std::string> ids;
      if (auto r = store.get_by_guid(values->front())) ids.push_back(r->id);
      offer(QueryPlan::Kind::kGuid, "", std::move(ids));
    }
  }
  // Deleted records are in no secondary index (record_store.h): queryAll
  // finds them by id or GUID, or by a scan.
  for (const auto& spec : store.indexes()) {
    if (q.include_deleted) break;
    if (spec.object != q.object->api_name || spec.when) continue;
    // Per index field, the values some conjunct requires of it. A
    // case-sensitive index only serves ids (one spelling each); text
    // compares without case, so it needs a case-insensitive one.
    std::vector<std::vector<std::string>> per_field;
    size_t probes = 1;
    for (const auto& field : spec.fields) {
      std::optional<std::vector<std::string>> values;
      for (const auto* c : conj) {
        const Column& col = c->path.column;
        if (col.source != Column::Source::kField || !iequals(col.name, field)) continue;
        if (col.type != ValueType::kId && !(col.type == ValueType::kText && spec.case_insensitive))
          continue;
        // The store folds only ASCII case; the collation folds more.
        if ((values = required_values(*c, joins)) &&
            std::all_of(values->begin(), values->end(),
                        [](const std::string& v) { return ascii_only(v); }))
          break;
        values.reset();
      }
      if (!values) break;
      probes *= std::max<size_t>(values->size(), 1);
      per_field.push_back(std::move(*values));
      if (probes > kMaxIndexProbes && spec.fields.size() > 1) break;
    }
    // One field's values are probed one each, never a product: a lookup
    // per value (a semi-join's thousands) still beats reading the object.
    if (per_field.size() != spec.fields.size() ||
        (probes > kMaxIndexProbes && spec.fields.size() > 1))
      continue;
    std::vector<std::string> ids;
    std::vector<size_t> at(per_field.size(), 0);
    const bool none =
        std::any_of(per_field.begin(), per_field.end(), [](const auto& v) { return v.empty(); });
    while (!none) {
      std::vector<std::string> key;
      for (size_t i = 0; i < per_field.size(); ++i) key.push_back(per_field[i][at[i]]);
      for (auto& id : store.find(spec.name, key)) ids.push_back(std::move(id));
      size_t i = 0;
      while (i < at.size() && ++at[i] == per_field[i].size()) at[i++] = 0;
      if (i == at.size()) break;
    }
    offer(QueryPlan::Kind::kIndex, spec.name, std::move(ids));
  }
  if (!best_ids) return std::nullopt;
  // One record once, in id order whatever order the lookup gave.
  std::sort(best_ids->begin(), best_ids->end());
  best_ids->erase(std::unique(best_ids->begin(), best_ids->end()), best_ids->end());
  std::vector<RecordPtr> out;
  out.reserve(best_ids->size());
  for (const auto& id : *best_ids)
    if (auto r = store.get(id)) out.push_back(std::move(r));
  return out;
}

nlohmann::ordered_json attributes(const Record& r, const std::string& api_version) {
  static constexpr std::string_view kData = "/services/data/v", kObjects = "/sobjects/";
  std::string url;
  const std::string_view object = r.object.view(), id = r.id.view();
  url.reserve(kData.size() + api_version.size() + kObjects.size() + object.size() + 1 + id.size());
  url.append(kData).append(api_version).append(kObjects).append(object).append(1, '/').append(id);
  nlohmann::ordered_json j(nlohmann::ordered_json::value_t::object);
  auto& members = j.get_ref<nlohmann::ordered_json::object_t&>();
  members.reserve(2);
  members.emplace_back("type", r.object);
  members.emplace_back("url", std::move(url));
  return j;
}

nlohmann::ordered_json show_column(const Column& c, const Record& r) {
  switch (c.source) {
    case Column::Source::kId:
      return r.id;
    case Column::Source::kIsDeleted:
      return r.deleted;
    case Column::Source::kCreated:
      return format_soql_datetime(r.created);
    case Column::Source::kModified:
      return format_soql_datetime(r.modified);
    case Column::Source::kGuid:
    case Column::Source::kContactName:
    case Column::Source::kSystemReference: {
      Value v = read_column(c, r);
      if (v.null()) return nullptr;
      return v.text;
    }
    case Column::Source::kField:
      break;
  }
  auto j = r.get(c.name);
  if (c.type == ValueType::kBoolean) return read_column(c, r).integer != 0;
  if (!j || (j->is_string() && j->str().empty())) return nullptr;
  if (c.type == ValueType::kDateTime && j->is_string())
    if (auto t = parse_iso8601(j->str())) return format_soql_datetime(*t);
  if (c.type == ValueType::kMultiPicklist && c.picklist && j->is_string())
    return defined_order(*c.picklist, j->str());
  return nlohmann::ordered_json(j->json());
}

}  // namespace

std::string Path::text() const {
  std::string out;
  for (const auto& h : hops) out += h.relationship + ".";
  return out + column.name;
}

const char* to_string(QueryPlan::Kind kind) {
  switch (kind) {
    case QueryPlan::Kind::kScan:
      return "scan";
    case QueryPlan::Kind::kId:
      return "id";
    case QueryPlan::Kind::kGuid:
      return "guid";
    case QueryPlan::Kind::kIndex:
      return "index";
  }
  return "?";
}

std::string format_soql_datetime(TimePoint t) {
  std::string s = format_iso8601(t);  // ...T09:00:00.000Z
  if (!s.empty() && s.back() == 'Z') s.replace(s.size() - 1, 1, kPlatformDateTimeSuffix);
  return s;
}

SoqlResult<BoundQuery> bind_query(std::shared_ptr<const OrgConfig> config, std::string_view text,
                                  const Query& query, TimePoint now) {
  return Binder(std::move(config), text, now).run(query);
}

namespace {

void find_joins(const BoundCondition& c, const RecordStore& store, JoinIds& out) {
  for (const auto& child : c.children) find_joins(child, store, out);
  const BoundComparison& cmp = c.comparison;
  if (c.kind != Condition::Kind::kComparison || !cmp.subquery) return;
  // The sub-select goes through the same planner as any query.
  QueryPlan inner_plan;
  const Path& column = cmp.subquery->select.front();
  std::vector<std::string> ids;
  for (const auto& r : evaluate(*cmp.subquery, store, inner_plan)) {
    Value v = path_value(column, *r, store);
    if (!v.null()) ids.push_back(std::move(v.text));
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  out[&cmp] = std::move(ids);
}

// Orders `out` by the query's ORDER BY (stable: ties keep plan order).
void sort_by_order(const BoundQuery& q, std::vector<RecordPtr>& out, const RecordStore& store);

// The first `enough` records that match the WHERE clause, in plan order.
std::vector<RecordPtr> collect(const BoundQuery& q, const RecordStore& store, QueryPlan& plan,
                               size_t enough) {
  plan = QueryPlan{};
  JoinIds joins;
  if (q.where) find_joins(*q.where, store, joins);
  auto candidates = plan_candidates(q, store, joins, plan);
  std::vector<RecordPtr> out;
  auto consider = [&](const RecordPtr& r) {
    ++plan.candidates;
    if (!r || r->object != q.object->api_name) return true;
    if (r->deleted && !q.include_deleted) return true;
    if (q.where && !matches(*q.where, *r, store, joins)) return true;
    out.push_back(r);
    return out.size() < enough;
  };
  if (enough > 0) {
    if (candidates) {
      for (const auto& r : *candidates)
        if (!consider(r)) break;
    } else {
      // Inside an enclosing write the scan shows its staged records too.
      const IdList all = store.ids_of(q.object->api_name);
      bool more = true;
      for (size_t i = 0; more && i < all.size(); ++i) more = consider(store.current(all.record(i)));
      if (more)
        for (const RecordPtr& r : store.staged_new_of(q.object->api_name))
          if (!consider(r)) break;
    }
  }
  return out;
}

}  // namespace

std::vector<RecordPtr> evaluate(const BoundQuery& q, const RecordStore& store, QueryPlan& plan) {
  const size_t offset = static_cast<size_t>(q.offset.value_or(0));
  // Without ORDER BY the first OFFSET + LIMIT matches are the answer.
  const size_t enough = q.order_by.empty() && q.limit ? offset + static_cast<size_t>(*q.limit)
                                                      : std::numeric_limits<size_t>::max();
  std::vector<RecordPtr> out = collect(q, store, plan, enough);
  sort_by_order(q, out, store);
  if (offset >= out.size()) return {};
  out.erase(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(offset));
  if (q.limit && out.size() > static_cast<size_t>(*q.limit))
    out.resize(static_cast<size_t>(*q.limit));
  return out;
}

JoinIds find_join_ids(const BoundQuery& q, const RecordStore& store) {
  JoinIds joins;
  if (q.where) find_joins(*q.where, store, joins);
  return joins;
}

std::vector<RecordPtr> select_from(const BoundQuery& q, std::vector<RecordPtr> candidates,
                                   const RecordStore& store, const JoinIds& joins) {
  std::vector<RecordPtr> out;
  for (auto& r : candidates) {
    if (!r || r->object != q.object->api_name) continue;
    if (r->deleted && !q.include_deleted) continue;
    if (q.where && !matches(*q.where, *r, store, joins)) continue;
    out.push_back(std::move(r));
  }
  sort_by_order(q, out, store);
  if (q.limit && out.size() > static_cast<size_t>(*q.limit))
    out.resize(static_cast<size_t>(*q.limit));
  return out;
}

namespace {

void sort_by_order(const BoundQuery& q, std::vector<RecordPtr>& out, const RecordStore& store) {
  if (!q.order_by.empty()) {
    struct Row {
      RecordPtr record;
      std::vector<Value> keys;
    };
    std::vector<Row> rows;
    rows.reserve(out.size());
    for (auto& r : out) {
      Row row{std::move(r), {}};
      for (const auto& o : q.order_by)
        row.keys.push_back(order_key(o.path.column, path_value(o.path, *row.record, store)));
      rows.push_back(std::move(row));
    }
    std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
      for (size_t i = 0; i < q.order_by.size(); ++i) {
        const BoundOrder& o = q.order_by[i];
        const Value& x = a.keys[i];
        const Value& y = b.keys[i];
        if (x.null() && y.null()) continue;
        if (x.null()) return !o.nulls_last;
        if (y.null()) return o.nulls_last;
        const int c = compare_order(o.path.column, x, y);
        if (c != 0) return o.descending ? c > 0 : c < 0;
      }
      return false;
    });
    out.clear();
    for (auto& row : rows) out.push_back(std::move(row.record));
  }
}

}  // namespace

nlohmann::ordered_json show_record(const BoundQuery& q, const Record& record,
                                   const RecordReader& records, const std::string& api_version,
                                   ChildResults* children) {
  // Members are appended in SELECT order; reserving them spares the
  // ordered map's regrowth, a tenth of a one-record query's instructions.
  nlohmann::ordered_json j(nlohmann::ordered_json::value_t::object);
  j.get_ref<nlohmann::ordered_json::object_t&>().reserve(1 + q.select.size() + q.children.size());
  j["attributes"] = attributes(record, api_version);
  size_t next_child = 0;
  auto show_children = [&](size_t before) {
    for (; next_child < q.children.size() && q.children[next_child].before <= before;
         ++next_child) {
      const ChildQuery& c = q.children[next_child];
      j[c.relationship] = children ? children->show(c, record) : nlohmann::ordered_json(nullptr);
    }
  };
  for (size_t i = 0; i < q.select.size(); ++i) {
    show_children(i);
    const Path& path = q.select[i];
    if (!path.shown_as.empty()) {
      RecordPtr at = follow(path.hops, record, records, nullptr);
      const Record* cur = path.hops.empty() ? &record : at.get();
      j[path.shown_as] = cur ? show_column(path.column, *cur) : nlohmann::ordered_json(nullptr);
      continue;
    }
    nlohmann::ordered_json* at = &j;
    const Record* cur = &record;
    RecordPtr hold;
    bool reached = true;
    for (const auto& hop : path.hops) {
      std::string id = hop_id(hop, *cur);
      hold = id.empty() ? nullptr : records.get(id);
      const bool shown = at->contains(hop.relationship);
      if (!hold) {
        if (!shown) (*at)[hop.relationship] = nullptr;
        reached = false;
        break;
      }
      if (!shown) (*at)[hop.relationship] = {{"attributes", attributes(*hold, api_version)}};
      at = &(*at)[hop.relationship];
      cur = hold.get();
    }
    if (reached) (*at)[path.column.name] = show_column(path.column, *cur);
  }
  show_children(q.select.size());
  return j;
}

void add_query_indexes(const OrgConfig& config, std::vector<IndexSpec>& out) {
  auto covered = [&](const std::string& object, const std::string& field) {
    for (const auto& s : out)
      if (s.object == object && !s.when && s.fields.size() == 1 && iequals(s.fields[0], field))
        return true;
    return false;
  };
  for (const auto& [name, object] : config.objects)
    for (const auto& f : object.fields) {
      const bool reference = f.type == FieldType::kReference;
      if ((!reference && f.type != FieldType::kEmail) || covered(name, f.name)) continue;
      // Ids have one spelling; emails compare without case, as their index.
      out.push_back({"soql:" + name + "." + f.name, name, {f.name}, !reference});
    }
}

// ---- aggregate queries -----------------------------------------------------

ValueType AggregateQuery::slot_type(int slot) const {
  const auto at = static_cast<size_t>(slot);
  return at < group_by.size() ? group_by[at].column.type : aggregates[at - group_by.size()].result;
}

namespace {

// A value as a grouping key: text by its collation (groups ignore case, as
// comparisons do), the rest by their bits.
void append_key(std::string& key, const Value& v) {
  key += static_cast<char>('0' + static_cast<int>(v.kind));
  if (v.kind == Value::Kind::kText) {
    const std::u32string folded = collation_key(v.text);
    key.append(reinterpret_cast<const char*>(folded.data()), folded.size() * sizeof(char32_t));
  } else if (v.kind == Value::Kind::kNumber) {
    key.append(reinterpret_cast<const char*>(&v.number), sizeof v.number);
  } else if (v.kind == Value::Kind::kInteger) {
    key.append(reinterpret_cast<const char*>(&v.integer), sizeof v.integer);
  }
  key += '\x1f';
}

// One aggregate's running state within one group.
struct Accumulator {
  int64_t count = 0;
  double sum = 0;
  Value extreme;
  std::unordered_set<std::string> distinct;

  void add(const BoundAggregate& a, const Value& v) {
    if (v.null()) return;
    ++count;
    if (a.function == "SUM" || a.function == "AVG") {
      sum += v.number;
    } else if (a.function == "COUNT_DISTINCT") {
      std::string key;
      append_key(key, v);
      distinct.insert(std::move(key));
    } else if (a.function == "MIN" || a.function == "MAX") {
      const int c = extreme.null() ? 0 : compare(v, extreme, a.path.column.type);
      if (extreme.null() || (a.function == "MIN" ? c < 0 : c > 0)) extreme = v;
    }
  }

  Value result(const BoundAggregate& a) const {
    Value v;
    v.kind = Value::Kind::kNumber;
    if (a.function == "COUNT") {
      v.number = static_cast<double>(count);
    } else if (a.function == "COUNT_DISTINCT") {
      v.number = static_cast<double>(distinct.size());
    } else if (count == 0 || a.function == "MIN" || a.function == "MAX") {
      return count == 0 ? Value{} : extreme;
    } else {
      v.number = a.function == "AVG" ? sum / static_cast<double>(count) : sum;
    }
    return v;
  }
};

struct Group {
  std::vector<Value> keys;
  std::vector<Accumulator> accumulators;
};

bool matches_row(const BoundCondition& c, const std::vector<Value>& row) {
  switch (c.kind) {
    case Condition::Kind::kComparison:
      return matches_value(c.comparison, row[static_cast<size_t>(c.comparison.slot)]);
    case Condition::Kind::kNot:
      return !matches_row(c.children.front(), row);
    case Condition::Kind::kAnd:
      for (const auto& child : c.children)
        if (!matches_row(child, row)) return false;
      return true;
    case Condition::Kind::kOr:
      for (const auto& child : c.children)
        if (matches_row(child, row)) return true;
      return false;
  }
  return false;
}

nlohmann::ordered_json show_value(const Value& v, ValueType type, bool whole) {
  if (v.null()) return nullptr;
  switch (type) {
    case ValueType::kNumber:
      if (whole) return static_cast<int64_t>(v.number);
      return v.number;
    case ValueType::kBoolean:
      return v.integer != 0;
    case ValueType::kDate:
      return format_date(civil_from_days(v.integer));
    case ValueType::kDateTime:
      return format_soql_datetime(TimePoint(Millis(v.integer)));
    default:
      return v.text;
  }
}

// Every group of the matching records (one, when nothing is grouped).
std::vector<Group> group_records(const BoundQuery& q, const RecordStore& store, QueryPlan& plan) {
  const AggregateQuery& agg = *q.aggregate;
  std::vector<Group> groups;
  std::unordered_map<std::string, size_t> index;
  if (agg.group_by.empty()) {
    groups.push_back({{}, std::vector<Accumulator>(agg.aggregates.size())});
    index.emplace("", 0);
  }
  std::vector<Value> keys;
  std::string key;
  for (const auto& r : collect(q, store, plan, std::numeric_limits<size_t>::max())) {
    keys.clear();
    key.clear();
    for (const auto& g : agg.group_by) {
      keys.push_back(path_value(g, *r, store));
      append_key(key, keys.back());
    }
    auto [it, added] = index.try_emplace(key, groups.size());
    if (added) groups.push_back({keys, std::vector<Accumulator>(agg.aggregates.size())});
    Group& group = groups[it->second];
    for (size_t i = 0; i < agg.aggregates.size(); ++i)
      group.accumulators[i].add(agg.aggregates[i], path_value(agg.aggregates[i].path, *r, store));
  }
  return groups;
}

}  // namespace

SoqlResult<std::vector<nlohmann::ordered_json>> evaluate_aggregate(const BoundQuery& q,
                                                                   const RecordStore& store,
                                                                   QueryPlan& plan) {
  const AggregateQuery& agg = *q.aggregate;
  std::vector<std::vector<Value>> rows;
  for (auto& g : group_records(q, store, plan)) {
    std::vector<Value> row = std::move(g.keys);
    for (size_t i = 0; i < agg.aggregates.size(); ++i)
      row.push_back(g.accumulators[i].result(agg.aggregates[i]));
    if (!agg.having || matches_row(*agg.having, row)) rows.push_back(std::move(row));
  }
  // Without ORDER BY, groups in the order of their keys, so answers repeat.
  std::vector<BoundOrder> order = q.order_by;
  if (order.empty())
    for (size_t i = 0; i < agg.group_by.size(); ++i)
      order.emplace_back().slot = static_cast<int>(i);
  std::stable_sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
    for (const auto& o : order) {
      const auto at = static_cast<size_t>(o.slot);
      if (a[at].null() && b[at].null()) continue;
      if (a[at].null()) return !o.nulls_last;
      if (b[at].null()) return o.nulls_last;
      const int c = compare(a[at], b[at], agg.slot_type(o.slot));
      if (c != 0) return o.descending ? c > 0 : c < 0;
    }
    return false;
  });
  const size_t offset = std::min(rows.size(), static_cast<size_t>(q.offset.value_or(0)));
  rows.erase(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(offset));
  if (q.limit && rows.size() > static_cast<size_t>(*q.limit))
    rows.resize(static_cast<size_t>(*q.limit));
  if (rows.size() > kMaxAggregateRows)
    return plain_error(soql_code::kExceededIdLimit,
                       "Aggregate query does not support queryMore(), use LIMIT to restrict the "
                       "results to a single batch");
  std::vector<nlohmann::ordered_json> out;
  out.reserve(rows.size());
  for (const auto& row : rows) {
    nlohmann::ordered_json j;
    j["attributes"] = {{"type", "AggregateResult"}};
    for (const auto& item : agg.items) {
      const auto at = static_cast<size_t>(item.slot);
      const bool counted = at >= agg.group_by.size() &&
                           agg.aggregates[at - agg.group_by.size()].function.rfind("COUNT", 0) == 0;
      j[item.name] = show_value(row[at], agg.slot_type(item.slot), counted);
    }
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace fake_org::soql
