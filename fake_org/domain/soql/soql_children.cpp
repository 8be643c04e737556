#include "soql_children.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "domain/org/org.h"
#include "domain/org/soql_cursors.h"
#include "domain/store/record_store.h"
#include "soql_parser.h"
#include "util/ascii.h"

namespace fake_org::soql {

namespace {

bool ends_with_nocase(std::string_view s, std::string_view tail) {
  return s.size() > tail.size() && iequals(s.substr(s.size() - tail.size()), tail);
}

// The platform's default name for the children a lookup collects.
std::string default_child_name(const ObjectDef& parent, const ObjectDef& child,
                               const FieldDef& field) {
  if (ends_with_nocase(field.name, "__c")) {
    // A custom lookup: its namespace, the child's plural label, "__r".
    const std::string stem = field.name.substr(0, field.name.size() - 3);
    const size_t ns = stem.find("__");
    std::string label = plural_of(child.label.empty() ? child.api_name : child.label);
    std::replace(label.begin(), label.end(), ' ', '_');
    return (ns == std::string::npos ? "" : stem.substr(0, ns + 2)) + label + "__r";
  }
  // The person account's own contact is a one-to-one link, not a list.
  if (field.name == "PersonContactId") return "";
  if (field.name == "ParentId" && &child == &parent) return "Child" + plural_of(child.api_name);
  return plural_of(child.api_name);
}

}  // namespace

std::string plural_of(std::string_view word) {
  std::string w(word);
  if (w.empty()) return w;
  const char last = static_cast<char>(ascii_lower(w.back()));
  const char before =
      w.size() > 1 ? static_cast<char>(ascii_lower(w[w.size() - 2])) : static_cast<char>(0);
  const bool vowel_before = std::string_view("aeiou").find(before) != std::string_view::npos;
  if (last == 'y' && !vowel_before) return w.substr(0, w.size() - 1) + "ies";
  if (last == 's' || last == 'x' || last == 'z' ||
      ((last == 'h') && (before == 'c' || before == 's')))
    return w + "es";
  return w + "s";
}

std::vector<ChildRelationship> child_relationships(const OrgConfig& config,
                                                   const ObjectDef& parent) {
  std::vector<ChildRelationship> out;
  std::map<std::string, int> used;  // lower-cased names: a second of a name gets a number
  for (const auto& [name, child] : config.objects)
    for (const auto& f : child.fields) {
      if (f.type != FieldType::kReference || !iequals(f.reference_to, parent.api_name)) continue;
      ChildRelationship r;
      r.child = &child;
      r.field = &f;
      r.cascade_delete = f.cascade_delete;  // the catalogue says which deletes cascade
      r.name = default_child_name(parent, child, f);
      if (!r.name.empty()) {
        const int n = used[ascii_lower(r.name)]++;
        if (n > 0) {
          const bool custom = ends_with_nocase(r.name, "__r");
          const std::string stem = custom ? r.name.substr(0, r.name.size() - 3) : r.name;
          r.name = stem + std::to_string(n) + (custom ? "__r" : "");
        }
      }
      out.push_back(std::move(r));
    }
  return out;
}

std::optional<ChildRelationship> find_child_relationship(const OrgConfig& config,
                                                         const ObjectDef& parent,
                                                         std::string_view name) {
  for (auto& r : child_relationships(config, parent))
    if (!r.name.empty() && iequals(r.name, name)) return r;
  return std::nullopt;
}

namespace {

// The deepest child subquery below `q` (1: a child of the root) and the
// first subquery at more than `allowed` levels.
const ChildQuery* child_beyond_levels(const BoundQuery& q, int level, int allowed) {
  for (const auto& c : q.children) {
    if (level > allowed) return &c;
    if (const ChildQuery* deeper = child_beyond_levels(*c.query, level + 1, allowed)) return deeper;
  }
  return nullptr;
}

}  // namespace

std::optional<SoqlError> check_child_levels(const BoundQuery& query, std::string_view text,
                                            std::string_view api_version) {
  // "58.0" and later take four levels below the root; older versions one.
  int major = 0;
  for (char c : api_version) {
    if (c < '0' || c > '9') break;
    major = major * 10 + (c - '0');
    if (major > 1000) break;
  }
  const int allowed = major >= 58 || major == 0 ? kMaxChildLevels : 1;
  const ChildQuery* deep = child_beyond_levels(query, 1, allowed);
  if (!deep) return std::nullopt;
  return positioned_error(text, deep->position, soql_code::kMalformedQuery,
                          "SOQL statements cannot query aggregate relationships more than " +
                              std::to_string(allowed) + (allowed == 1 ? " level" : " levels") +
                              " away from the root entity object.");
}

namespace {

// Finds and shows child records for one batch: per child subquery, the
// reference field's index (one lookup per parent) and the semi-join ids of
// its WHERE, found once. Without a usable index (queryAll: deleted records
// are in none) one pass over the child object groups the children by parent.
class ChildReader final : public ChildResults {
 public:
  ChildReader(const Org& org, const RecordStore& store, std::string api_version, TimePoint now)
      : org_(org), store_(store), api_version_(std::move(api_version)), now_(now) {}

  std::vector<RecordPtr> rows_of(const ChildQuery& c, const Record& parent) {
    Source& s = source(c);
    std::vector<RecordPtr> candidates;
    if (!s.index.empty()) {
      for (const auto& id : store_.find(s.index, {parent.id}))
        if (auto r = store_.get(id)) candidates.push_back(std::move(r));
      // Index order is a hash's; creation order (ids grow) reads the same every time.
      std::sort(candidates.begin(), candidates.end(),
                [](const RecordPtr& a, const RecordPtr& b) { return a->id < b->id; });
    } else if (auto it = s.by_parent.find(parent.id); it != s.by_parent.end()) {
      candidates = it->second;
    }
    // A case-insensitive index may offer an id differing in case only.
    candidates.erase(
        std::remove_if(candidates.begin(), candidates.end(),
                       [&](const RecordPtr& r) { return r->text(c.field) != parent.id; }),
        candidates.end());
    return select_from(*c.query, std::move(candidates), store_, s.joins);
  }

  // The nested result: null without children; the first `shown` records,
  // the rest behind a cursor of their own.
  nlohmann::ordered_json result(const ChildQuery& c, const std::vector<RecordPtr>& rows,
                                size_t shown) {
    if (rows.empty()) return nullptr;
    shown = std::clamp<size_t>(shown, 1, rows.size());
    nlohmann::ordered_json j = {{"totalSize", rows.size()}, {"done", shown == rows.size()}};
    if (shown < rows.size()) {
      auto cursor = std::make_shared<QueryCursor>();
      cursor->query = c.query;
      cursor->rows = rows;
      cursor->api_version = api_version_;
      cursor->batch_size = kMaxChildBatch;
      const std::string id = org_.query_cursors().open(cursor, now_);
      j["nextRecordsUrl"] =
          "/services/data/v" + api_version_ + "/query/" + id + "-" + std::to_string(shown);
    }
    nlohmann::ordered_json records = nlohmann::ordered_json::array();
    for (size_t i = 0; i < shown; ++i)
      records.push_back(show_record(*c.query, *rows[i], store_, api_version_, this));
    j["records"] = std::move(records);
    return j;
  }

  // Below the first level each result shows up to a whole batch.
  nlohmann::ordered_json show(const ChildQuery& c, const Record& parent) override {
    return result(c, rows_of(c, parent), kMaxChildBatch);
  }

 private:
  struct Source {
    std::string index;
    JoinIds joins;
    std::unordered_map<std::string, std::vector<RecordPtr>> by_parent;
  };

  Source& source(const ChildQuery& c) {
    auto [it, added] = sources_.try_emplace(&c);
    Source& s = it->second;
    if (!added) return s;
    const BoundQuery& q = *c.query;
    s.joins = find_join_ids(q, store_);
    if (!q.include_deleted)
      for (const auto& spec : store_.indexes())
        if (spec.object == q.object->api_name && !spec.when && spec.fields.size() == 1 &&
            iequals(spec.fields[0], c.field)) {
          s.index = spec.name;
          return s;
        }
    auto file = [&](RecordPtr r) {
      if (!r) return;
      std::string parent = r->text(c.field);
      if (!parent.empty()) s.by_parent[std::move(parent)].push_back(std::move(r));
    };
    const IdList all = store_.ids_of(q.object->api_name);
    for (size_t i = 0; i < all.size(); ++i) file(store_.current(all.record(i)));
    for (RecordPtr& r : store_.staged_new_of(q.object->api_name)) file(std::move(r));
    return s;
  }

  const Org& org_;
  const RecordStore& store_;
  std::string api_version_;
  TimePoint now_;
  std::map<const ChildQuery*, Source> sources_;
};

// The first level of a batch: the child lists already read (they decided
// whether the parent fits), shown within the room the batch has left.
class BatchChildren final : public ChildResults {
 public:
  BatchChildren(ChildReader& reader, const BoundQuery& query,
                std::vector<std::vector<RecordPtr>> lists, size_t room)
      : reader_(reader), query_(query), lists_(std::move(lists)), room_(room) {}

  nlohmann::ordered_json show(const ChildQuery& c, const Record&) override {
    const auto& rows = lists_[static_cast<size_t>(&c - query_.children.data())];
    const size_t shown = std::min(rows.size(), std::max<size_t>(room_, 1));
    room_ -= std::min(room_, shown);
    return reader_.result(c, rows, shown);
  }

 private:
  ChildReader& reader_;
  const BoundQuery& query_;
  std::vector<std::vector<RecordPtr>> lists_;
  size_t room_;
};

}  // namespace

ShownBatch show_batch(const Org& org, const QueryCursor& cursor, size_t start,
                      const RecordStore& store, const std::string& api_version, TimePoint now) {
  ShownBatch out;
  const BoundQuery& q = *cursor.query;
  const size_t size = cursor.batch_size;
  if (q.children.empty()) {
    out.end = std::min(cursor.rows.size(), start + size);
    for (size_t i = start; i < out.end; ++i)
      out.records.push_back(show_record(q, *cursor.rows[i], store, api_version));
    return out;
  }
  ChildReader reader(org, store, api_version, now);
  size_t used = 0;
  size_t i = start;
  for (; i < cursor.rows.size() && used < size; ++i) {
    std::vector<std::vector<RecordPtr>> lists;
    size_t count = 1;
    for (const auto& c : q.children) {
      lists.push_back(reader.rows_of(c, *cursor.rows[i]));
      count += lists.back().size();
    }
    if (i > start && used + count > size) break;
    BatchChildren children(reader, q, std::move(lists), size - used - 1);
    out.records.push_back(show_record(q, *cursor.rows[i], store, api_version, &children));
    used += count;
  }
  out.end = i;
  return out;
}

}  // namespace fake_org::soql
