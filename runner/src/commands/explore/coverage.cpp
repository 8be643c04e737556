#include "commands/explore/coverage.h"

#include <iomanip>
#include <set>

#include "commands/explore/mutations.h"
#include "commands/explore/operations.h"
#include "commands/explore/optional_members.h"
#include "commands/explore/route_scope.h"
#include "commands/explore/schema_facts.h"
#include "json/yaml_json.h"

namespace runner::explore {

namespace {

void coverage_walk(const std::string& schema, const std::string& at, int depth,
                   std::vector<std::string>& out) {
  if (depth > 5) return;
  for (const auto& name : value_rules(schema, at).properties) {
    const std::string p = at + "/" + pointer_escape(name);
    out.push_back(p);
    coverage_walk(schema, p, depth + 1, out);
  }
}

// Array indexes as "*", so every item counts for its schema's property.
std::string coverage_key(const std::string& schema, const std::string& pointer) {
  std::string key = schema + "#";
  size_t from = 0;
  while (from < pointer.size()) {
    const size_t end = std::min(pointer.find('/', from + 1), pointer.size());
    const std::string token = pointer.substr(from + 1, end - from - 1);
    const bool index = !token.empty() && token.find_first_not_of("0123456789") == std::string::npos;
    key += "/" + (index ? std::string("*") : token);
    from = end;
  }
  return key;
}

// The pointer a near-miss changed, from its words ("missing /Payer",
// "unknown field /OneTime/ExploreUnknown": the object); "" when none.
std::string coverage_mutated_pointer(const std::string& mutation) {
  const size_t slash = mutation.find(" /");
  if (slash == std::string::npos) return "";
  std::string p = mutation.substr(slash + 1, mutation.find(' ', slash + 1) - slash - 1);
  const std::string unknown = "/ExploreUnknown";
  if (p.size() >= unknown.size() &&
      p.compare(p.size() - unknown.size(), unknown.size(), unknown) == 0)
    p.resize(p.size() - unknown.size());
  return p;
}

// Only the properties a schema names count: a map's members (CrmFields'
// field names, PackageActions' packages) are data, not the contract's.
PropertyCoverage* coverage_property(Coverage& out, const std::string& schema,
                                    const std::string& pointer) {
  if (schema.empty() || pointer.empty()) return nullptr;
  const auto it = out.properties.find(coverage_key(schema, pointer));
  return it == out.properties.end() ? nullptr : &it->second;
}

void coverage_step(const Case& c, size_t i, Coverage& out) {
  const auto* rs = std::get_if<RequestStep>(&c.scenario.steps[i].body);
  const Operation* op = find_operation(c.meta[i].op);
  if (!rs || !op) return;
  const std::string schema = request_schema_name(rs->request.method, rs->request.path);
  if (c.meta[i].focus) {
    out.routes[op->operation_id].near_miss++;
    if (auto* p = coverage_property(out, schema, coverage_mutated_pointer(c.mutation)))
      p->near_miss = true;
  } else if (c.mutation.empty()) {
    out.routes[op->operation_id].valid++;
    if (schema.empty() || rs->request.body != RequestSpec::Body::kJson) return;
    for (const auto& pointer : value_pointers(rs->request.json))
      if (auto* p = coverage_property(out, schema, pointer)) p->valid = true;
  }
}

// The request schemas of every operation's body: their properties are
// reported whether or not a case sent one.
void coverage_operation_schemas(std::set<std::string>& schemas) {
  for (const auto& op : operations()) {
    if (!op.body) continue;
    std::string path = op.path;
    for (const auto& [key, value] : {std::pair<std::string, std::string>{"{api}", "59.0"},
                                     {"{external_id}", "Ext__c"},
                                     {"{tag}", "t"}})
      if (const size_t at = path.find(key); at != std::string::npos)
        path.replace(at, key.size(), value);
    const std::string schema = request_schema_name(op.method, path);
    if (!schema.empty()) schemas.insert(schema);
  }
}

const UnsentProperty* coverage_unsent_reason(const std::string& key) {
  for (const auto& u : unsent_properties())
    if (u.property == key) return &u;
  return nullptr;
}

}  // namespace

std::string property_key(const std::string& schema, const std::string& pointer) {
  return coverage_key(schema, pointer);
}

std::vector<std::string> schema_properties(const std::string& schema) {
  std::vector<std::string> out;
  coverage_walk(schema, "", 0, out);
  return out;
}

Coverage coverage(const std::vector<Case>& cases) {
  Coverage out;
  std::set<std::string> schemas;
  coverage_operation_schemas(schemas);
  for (const auto& s : schemas)
    for (const auto& p : schema_properties(s)) out.properties[coverage_key(s, p)];
  for (const auto& c : cases)
    for (size_t i = 0; i < c.scenario.steps.size() && i < c.meta.size(); ++i)
      coverage_step(c, i, out);
  return out;
}

std::vector<std::string> coverage_gaps(const Coverage& c) {
  std::vector<std::string> out = route_scope_gaps();
  for (const auto& op : operations()) {
    const auto r = c.routes.find(op.operation_id);
    if (r == c.routes.end() || r->second.valid == 0)
      out.push_back(op.operation_id + ": no valid request");
    const bool changeable =
        op.await.is_null() && (op.body || op.raw || op.path.find("${") != std::string::npos);
    if (changeable && (r == c.routes.end() || r->second.near_miss == 0))
      out.push_back(op.operation_id + ": no near-miss");
  }
  for (const auto& [key, p] : c.properties) {
    if (p.valid && !p.near_miss) out.push_back(key + ": sent, never changed by a near-miss");
    if (!p.valid && !coverage_unsent_reason(key))
      out.push_back(key + ": no valid request sent it, and no reason in unsent_properties()");
  }
  for (const auto& u : unsent_properties())
    if (!c.properties.count(u.property))
      out.push_back(u.property + ": unsent_properties() names it, but no request schema has it");
  return out;
}

void print_coverage(const Coverage& c, std::ostream& out) {
  out << "coverage by route:                    valid near-miss\n";
  for (const auto& [id, r] : c.routes)
    out << "  " << std::left << std::setw(34) << id << std::right << std::setw(6) << r.valid
        << std::setw(10) << r.near_miss << "\n";
  out << "coverage by request-schema property:  valid near-miss\n";
  size_t sent = 0, changed = 0, excused = 0;
  for (const auto& [key, p] : c.properties) {
    const UnsentProperty* why = p.valid ? nullptr : coverage_unsent_reason(key);
    out << "  " << std::left << std::setw(50) << key << std::right << std::setw(4)
        << (p.valid ? "yes" : "no") << std::setw(6) << (p.near_miss ? "yes" : "no")
        << (why ? "  (not sent: " + why->reason + ")" : "") << "\n";
    sent += p.valid;
    changed += p.near_miss;
    excused += why != nullptr;
  }
  out << "  " << c.properties.size() << " properties: " << sent << " sent by a valid request, "
      << changed << " changed by a near-miss, " << excused << " not sent for a stated reason\n";
}

nlohmann::json coverage_json(const Coverage& c) {
  nlohmann::json routes = nlohmann::json::object();
  for (const auto& [id, r] : c.routes)
    routes[id] = {{"valid", r.valid}, {"near_miss", r.near_miss}};
  nlohmann::json properties = nlohmann::json::object();
  for (const auto& [key, p] : c.properties) {
    properties[key] = {{"valid", p.valid}, {"near_miss", p.near_miss}};
    if (const UnsentProperty* why = p.valid ? nullptr : coverage_unsent_reason(key))
      properties[key]["unsent_reason"] = why->reason;
  }
  return {{"routes", routes}, {"properties", properties}};
}

}  // namespace runner::explore
