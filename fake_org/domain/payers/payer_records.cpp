#include "payer_records.h"

#include <strings.h>

#include <iterator>

#include "domain/config/crm_fields.h"

namespace fake_org::payer_detail {

namespace {
using nlohmann::json;

// Rule field names come from the fixture and may differ in case from the
// org's spelling that checked CrmFields use.
const json* field_ci(const json& fields, const std::string& name) {
  for (auto it = fields.begin(); it != fields.end(); ++it)
    if (it.key().size() == name.size() && strcasecmp(it.key().c_str(), name.c_str()) == 0)
      return &*it;
  return nullptr;
}

std::string text_of(const json& fields, const char* name) {
  auto it = fields.find(name);
  return it == fields.end() ? std::string() : crm_value_text(*it);
}
}  // namespace

bool is_person_record(const Record& r) {
  auto v = r.get("IsPersonAccount");
  return v && v->is_boolean() && v->get<bool>();
}

std::string full_name(const json& fields) {
  std::string first = text_of(fields, "FirstName"), last = text_of(fields, "LastName");
  if (first.empty()) return last;
  if (last.empty()) return first;
  return first + " " + last;
}

DedupMatch find_duplicates(const PayerContext& ctx, const std::string& object, const json& fields,
                           std::optional<bool> person) {
  auto rules = ctx.config.deduplication.find(object);
  if (rules == ctx.config.deduplication.end()) return {};
  for (size_t i = 0; i < rules->second.size(); ++i) {
    const auto& rule = rules->second[i];
    std::vector<std::string> values;
    for (const auto& f : rule) {
      const json* v = field_ci(fields, f);
      std::string text = v ? crm_value_text(*v) : std::string();
      if (text.empty()) break;
      values.push_back(std::move(text));
    }
    if (rule.empty() || values.size() != rule.size()) continue;  // the rule does not apply
    std::vector<std::string> ids;
    for (auto& id : ctx.tx.find("dedup:" + object + ":" + std::to_string(i), values)) {
      RecordPtr r = ctx.tx.get(id);
      if (r && (!person || is_person_record(*r) == *person)) ids.push_back(std::move(id));
    }
    if (!ids.empty()) return {std::move(ids), rule};
  }
  return {};
}

std::string several_matches_reason(const std::string& object, const DedupMatch& m) {
  std::string rule, ids;
  for (const auto& f : m.rule) rule += (rule.empty() ? "" : ", ") + f;
  for (const auto& id : m.ids) ids += (ids.empty() ? "" : ", ") + id;
  return object + " deduplication rule [" + rule + "] matched " + std::to_string(m.ids.size()) +
         " records (" + ids + "); a new " + object + " was created";
}

void enrich(const PayerContext& ctx, const std::string& id, const json& fields) {
  Record r = ctx.tx.edit(id);
  bool changed = false;
  for (auto it = fields.begin(); it != fields.end(); ++it) {
    if (it->is_null() || r.has(it.key())) continue;
    r.fields[it.key()] = *it;
    changed = true;
  }
  if (r.object == objects::kContact) {
    std::string name = full_name(r.fields);
    if (!name.empty() && r.text("Name") != name) {
      r.fields["Name"] = name;
      changed = true;
    }
  }
  if (!changed) return;
  r.modified = ctx.now;
  ctx.tx.put(std::move(r));
}

std::string create_record(const PayerContext& ctx, const ObjectDef& object, json fields) {
  Record r;
  r.object = object.api_name;
  r.id = ctx.ids.record_id(object.key_prefix);
  // A null in CrmFields means "no value": a new record simply lacks the field.
  for (auto it = fields.begin(); it != fields.end();)
    it = it->is_null() ? fields.erase(it) : std::next(it);
  r.fields = std::move(fields);
  // A contact named by its last name alone keeps those bytes once.
  const auto name = r.fields.find("Name");
  if (name && name->is_string() && name == r.fields.find("LastName"))
    r.fields.set_same("Name", "LastName");
  r.created = r.modified = ctx.now;
  std::string id = r.id;
  ctx.tx.put(std::move(r));
  return id;
}

}  // namespace fake_org::payer_detail
