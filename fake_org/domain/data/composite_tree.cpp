#include "composite_tree.h"

#include <set>

#include "domain/soql/soql_children.h"
#include "domain/store/record_store.h"
#include "sobject_write.h"
#include "util/ascii.h"

namespace fake_org::data {

namespace {

constexpr size_t kNoParent = static_cast<size_t>(-1);

// One record of the tree, parents before their children.
struct TreeNode {
  const nlohmann::json* record = nullptr;
  const ObjectDef* def = nullptr;  // the type its place in the tree requires
  size_t parent = kNoParent;       // index in the node list
  const FieldDef* link = nullptr;  // the child's lookup to its parent
  std::string reference_id;
  nlohmann::json fields = nlohmann::json::object();  // without attributes and children
  DataErrors errors;
};

class TreeReader {
 public:
  TreeReader(const OrgConfig& config, std::vector<TreeNode>& nodes)
      : config_(config), nodes_(nodes) {}

  // The records of one {"records": [...]} list at `level` (1: the top).
  std::optional<DataError> read_list(const nlohmann::json& list, const ObjectDef& def,
                                     size_t parent, const FieldDef* link, size_t level) {
    if (level > kMaxTreeLevels)
      return data_error(code::kLimitExceeded,
                        "A tree nests at most 5 levels of records (a parent and four of children)");
    if (!list.is_object() || !list.contains("records") || !list["records"].is_array())
      return data_error(code::kJsonParserError,
                        "Each list of records must be {\"records\": [...]}, a JSON array");
    for (const auto& record : list["records"]) {
      if (++count_ > kMaxTreeRecords)
        return data_error(code::kLimitExceeded,
                          "A tree request takes at most 200 records in all, its children too");
      nodes_.push_back(TreeNode{&record, &def, parent, link, {}, {}, {}});
      const size_t at = nodes_.size() - 1;
      if (auto stop = read_record(at, level)) return stop;
    }
    return std::nullopt;
  }

 private:
  std::optional<DataError> read_record(size_t at, size_t level) {
    const nlohmann::json& record = *nodes_[at].record;
    const ObjectDef& def = *nodes_[at].def;
    if (!record.is_object()) {
      nodes_[at].errors.push_back(
          data_error(code::kJsonParserError, "Each record must be a JSON object"));
      return std::nullopt;
    }
    check_attributes(nodes_[at], record);
    for (auto it = record.begin(); it != record.end(); ++it) {
      if (it.key() == "attributes") continue;
      auto child =
          it->is_object() ? soql::find_child_relationship(config_, def, it.key()) : std::nullopt;
      if (!child) {
        nodes_[at].fields[it.key()] = *it;
        continue;
      }
      if (auto stop = read_list(*it, *child->child, at, child->field, level + 1)) return stop;
    }
    return std::nullopt;
  }

  void check_attributes(TreeNode& node, const nlohmann::json& record) {
    const auto attributes = record.find("attributes");
    const nlohmann::json* type = nullptr;
    const nlohmann::json* ref = nullptr;
    if (attributes != record.end() && attributes->is_object()) {
      if (auto t = attributes->find("type"); t != attributes->end() && t->is_string()) type = &*t;
      if (auto r = attributes->find("referenceId"); r != attributes->end() && r->is_string())
        ref = &*r;
    }
    if (ref) node.reference_id = ref->get<std::string>();
    if (!ref || node.reference_id.empty())
      node.errors.push_back(
          data_error(code::kInvalidInput, "Each record needs attributes.referenceId, a string"));
    else if (!references_.insert(node.reference_id).second)
      node.errors.push_back(
          data_error(code::kInvalidInput, "Duplicate ReferenceId provided in the request"));
    if (!type || !iequals(type->get<std::string>(), node.def->api_name))
      node.errors.push_back(
          data_error(code::kInvalidInput, "attributes.type must be " + node.def->api_name +
                                              ", the type this place in the tree holds"));
  }

  const OrgConfig& config_;
  std::vector<TreeNode>& nodes_;
  std::set<std::string> references_;
  size_t count_ = 0;
};

// Stages every node that can be, parents first; false when any failed.
bool stage_nodes(Org& org, Transaction& tx, std::vector<TreeNode>& nodes,
                 std::vector<std::string>& ids) {
  bool failed = false;
  ids.assign(nodes.size(), std::string());
  for (size_t i = 0; i < nodes.size(); ++i) {
    TreeNode& n = nodes[i];
    failed = failed || !n.errors.empty();
    if (!n.errors.empty()) continue;
    if (n.parent != kNoParent) {
      if (ids[n.parent].empty()) continue;  // its parent failed: that error says why
      n.fields[n.link->name] = ids[n.parent];
    }
    auto id = stage_create(org, tx, *n.def, n.fields);
    if (id.ok()) {
      ids[i] = *id;
    } else {
      n.errors = id.errors();
      failed = true;
    }
  }
  return !failed;
}

}  // namespace

DataResult<TreeOutcome> save_tree(Org& org, std::string_view type, const nlohmann::json& body) {
  const ObjectDef* def = org.config().object(type);
  if (!def) return data_error(code::kNotFound, kNoResource);
  std::vector<TreeNode> nodes;
  TreeReader reader(org.config(), nodes);
  if (auto stop = reader.read_list(body, *def, kNoParent, nullptr, 1)) return DataErrors{*stop};
  if (nodes.empty())
    return data_error(code::kJsonParserError, "The tree has no records: send at least one");
  std::vector<std::string> ids;
  bool ok = false;
  auto written = org.records().write<Ok>([&](Transaction& tx) -> Result<Ok> {
    ok = stage_nodes(org, tx, nodes, ids);
    if (ok) return Ok{};
    return make_error(error_code::kUncategorised, "", "rolled back");
  });
  if (ok && !written.ok()) {  // the record cap refused the commit
    ok = false;
    nodes.front().errors.push_back(storage_limit_data_error(written.errors().front().message));
  }
  TreeOutcome out;
  out.has_errors = !ok;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (ok)
      out.results.push_back(TreeResult{nodes[i].reference_id, ids[i], {}});
    else if (!nodes[i].errors.empty())
      out.results.push_back(TreeResult{nodes[i].reference_id, {}, nodes[i].errors});
  }
  return out;
}

nlohmann::ordered_json tree_outcome_json(const TreeOutcome& outcome) {
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const auto& r : outcome.results) {
    nlohmann::ordered_json item = {{"referenceId", r.reference_id}};
    if (outcome.has_errors) {
      nlohmann::ordered_json errors = nlohmann::ordered_json::array();
      for (const auto& e : r.errors)
        errors.push_back({{"statusCode", e.code}, {"message", e.message}, {"fields", e.fields}});
      item["errors"] = std::move(errors);
    } else {
      item["id"] = r.id;
    }
    results.push_back(std::move(item));
  }
  return {{"hasErrors", outcome.has_errors}, {"results", std::move(results)}};
}

}  // namespace fake_org::data
