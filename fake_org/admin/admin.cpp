#include "admin/admin.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "domain/config/org_config.h"
#include "domain/core/fields.h"
#include "domain/core/ids.h"
#include "domain/data/record_create.h"
#include "domain/data/sobject_read.h"
#include "domain/org/org.h"
#include "domain/payments/views.h"
#include "domain/store/record_store.h"
#include "fixture/record_fields.h"
#include "util/json_text.h"

namespace fake_org::admin {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return out;
}

// A value as a table cell shows it (strings bare, null empty, the rest as
// JSON), which is what the search matches against.
std::string shown_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "";
  return text::json_text(v);
}

bool contains_text(const nlohmann::json& sobject, const std::string& needle_lower) {
  for (const auto& [k, v] : sobject.items()) {
    if (k == "attributes") continue;
    if (lower(shown_text(v)).find(needle_lower) != std::string::npos) return true;
  }
  return false;
}

// Every record of `object`, copied in one hold of the store's lock.
std::vector<RecordPtr> snapshot(const Org& org, std::string_view object) {
  return org.records().read([&](const RecordStore& s) {
    const IdList ids = s.ids_of(object);
    std::vector<RecordPtr> out;
    out.reserve(ids.size());
    for (size_t i = 0; i < ids.size(); ++i) out.push_back(ids.record(i));
    return out;
  });
}

// The records an inbound report's fields name by 18-character id.
void add_named_records(const RecordStore& s, const Record& report, IntentRecords& out) {
  for (const auto& [k, v] : report.fields.items()) {
    if (!v.is_string() || v.str().size() != 18) continue;
    if (auto r = s.get(v.str())) out.named.push_back(r);
  }
}

}  // namespace

Admin::Admin(std::shared_ptr<Org> org) : org_(std::move(org)) {}

const OrgConfig& Admin::config() const {
  return org_->config();
}

OrgSummary Admin::summary() const {
  const OrgConfig& cfg = org_->config();
  OrgSummary s;
  s.name = cfg.org.name;
  s.org_id = org_->org_id();
  s.fixture = cfg.source_name;
  s.sandbox = cfg.org.sandbox;
  s.api_base_path = cfg.base_path();
  s.api_version = cfg.org.api_version;
  if (const auto& state = org_->state()) {
    s.data_file = state->location();
    s.disk_full = state->disk_full();
    s.disk_problem = state->disk_problem();
  }
  s.records = org_->records().read([](const RecordStore& st) { return st.size(); });
  s.max_records = cfg.org.max_records;
  s.now = org_->clock().now();
  return s;
}

TimePoint Admin::now() const {
  return org_->clock().now();
}

std::vector<ObjectCount> Admin::object_counts() const {
  return org_->records().read([](const RecordStore& s) {
    std::vector<ObjectCount> out;
    for (auto& o : s.objects()) {
      const size_t n = s.ids_of(o).size();
      out.push_back({std::move(o), n});
    }
    return out;
  });
}

RecordPage Admin::list_records(std::string_view object, size_t offset, size_t limit) const {
  return org_->records().read([&](const RecordStore& s) {
    const IdList ids = s.ids_of(object);
    RecordPage page;
    page.total = ids.size();
    for (size_t i = offset; i < ids.size() && i - offset < limit; ++i)
      page.records.push_back(ids.record(i));
    return page;
  });
}

RecordPage Admin::search_records(std::string_view object, std::string_view text, size_t offset,
                                 size_t limit) const {
  if (text.empty()) return list_records(object, offset, limit);
  if (auto exact = get_record(object, text); exact.ok()) {
    RecordPage page;
    page.total = 1;
    if (offset == 0) page.records.push_back(*exact);
    return page;
  }
  const std::string needle = lower(text);
  return filter_records(
      object, [&](const Record& r) { return contains_text(sobject(r), needle); }, offset, limit);
}

RecordPage Admin::filter_records(std::string_view object,
                                 const std::function<bool(const Record&)>& keep, size_t offset,
                                 size_t limit) const {
  RecordPage page;
  for (RecordPtr& r : snapshot(*org_, object)) {
    if (!keep(*r)) continue;
    if (page.total >= offset && page.total - offset < limit) page.records.push_back(std::move(r));
    ++page.total;
  }
  return page;
}

Result<RecordPtr> Admin::get_record(std::string_view object, std::string_view id_or_guid) const {
  auto r = org_->find_record(id_or_guid, object);
  if (!r.ok()) return r;
  if ((*r)->object != object)
    return make_error(error_code::kInvalidData, "Id",
                      "Record " + std::string(id_or_guid) + " is a " + (*r)->object + ", not a " +
                          std::string(object),
                      ErrorKind::kNotFound);
  return r;
}

Result<RecordPtr> Admin::find_record(std::string_view id_or_guid) const {
  return org_->find_record(id_or_guid, "");
}

ReferenceScan Admin::records_referencing(const Record& target, size_t budget,
                                         size_t max_found) const {
  // One record past the budget tells "read exactly the budget" from "stopped".
  const std::vector<RecordPtr> records = org_->records().read([&](const RecordStore& s) {
    std::vector<RecordPtr> out;
    for (const auto& object : s.objects()) {
      const IdList ids = s.ids_of(object);
      for (size_t i = 0; i < ids.size() && out.size() <= budget; ++i) out.push_back(ids.record(i));
    }
    return out;
  });
  const std::string id18 = target.id, id15 = target.id.substr(0, 15);
  ReferenceScan scan;
  size_t read = 0;
  for (const RecordPtr& r : records) {
    if (read++ >= budget || scan.found.size() >= max_found) break;
    if (r->id == id18) continue;
    for (const auto& [k, v] : r->fields.items())
      if (v.is_string() && (v == id18 || v == id15)) {
        scan.found.push_back(r);
        break;
      }
  }
  scan.stopped = read > budget || scan.found.size() >= max_found;
  return scan;
}

IntentRecords Admin::intent_records(const std::string& payment_intent) const {
  IntentRecords out;
  org_->records().read([&](const RecordStore& s) {
    for (const auto& id : s.find(index_name::kReportByIntent, {payment_intent}))
      if (auto r = s.get(id)) {
        out.reports.push_back(r);
        add_named_records(s, *r, out);
      }
    for (const auto& id : s.find(index_name::kInstallmentByIntent, {payment_intent}))
      if (auto r = s.get(id)) {
        out.installments.push_back(r);
        for (const auto& pid : s.find(index_name::kPaymentByInstallment, {id}))
          if (auto p = s.get(pid)) out.payments.push_back(p);
      }
    return 0;
  });
  return out;
}

std::vector<RecordPtr> Admin::recent_intents(size_t count, size_t budget) const {
  return org_->records().read([&](const RecordStore& s) {
    std::vector<RecordPtr> out;
    std::set<std::string, std::less<>> seen;
    const IdList ids = s.ids_of(objects::kInstallment);
    for (size_t i = ids.size(), read = 0; i > 0 && read < budget && out.size() < count;
         --i, ++read) {
      RecordPtr r = ids.record(i - 1);
      const auto pi = r->get(fields::installment::kPaymentIntentId);
      if (!pi || pi->str().empty() || !seen.insert(std::string(pi->str())).second) continue;
      out.push_back(std::move(r));
    }
    return out;
  });
}

nlohmann::json Admin::sobject(const Record& r) const {
  nlohmann::json j = {{"attributes", {{"type", r.object}, {"url", org_->record_url(r)}}},
                      {"Id", r.id}};
  if (!r.guid.empty()) j["GUID"] = r.guid;
  for (const auto& [k, v] : r.fields.items()) j[k] = v;
  // The GUID is kept once, as the record's; its field reads it (as SOQL does).
  const ObjectDef* def = org_->config().object(r.object);
  if (!r.guid.empty() && def && def->field(fields::kGuid)) j[fields::kGuid] = r.guid;
  j["CreatedDate"] = format_iso8601(r.created);
  j["LastModifiedDate"] = format_iso8601(r.modified);
  return j;
}

std::string Admin::record_url(const Record& r) const {
  return org_->record_url(r);
}

data::DataResult<nlohmann::ordered_json> Admin::data_api_record(std::string_view object,
                                                                std::string_view id) const {
  return data::read_sobject(*org_, object, id, {}, org_->config().org.api_version);
}

Result<RecordPtr> Admin::create_record(std::string_view type, const nlohmann::json& fields) {
  Org& org = *org_;
  const OrgConfig& config = org.config();
  const ObjectDef* def = config.object(type);
  if (!def) {
    std::string names;
    for (const auto& [name, d] : config.objects) names += (names.empty() ? "" : ", ") + name;
    return make_error(
        error_code::kMissingCoreParameter, "Type",
        "Object '" + std::string(type) + "' does not exist in this org; known objects: " + names);
  }
  // RecordTypeName is not a field of the object but the record's type: the
  // one named (one of the object's), else the object's default, as seeds get.
  nlohmann::json plain = fields;
  const RecordTypeDef* record_type = def->default_record_type();
  if (plain.is_object() && plain.contains(fields::kRecordTypeName)) {
    const nlohmann::json& named = plain[fields::kRecordTypeName];
    record_type = named.is_string() ? def->record_type(named.get<std::string>()) : nullptr;
    if (!record_type) {
      std::string names;
      for (const auto& rt : def->record_types) names += (names.empty() ? "" : ", ") + rt.name;
      return make_error(error_code::kMissingCoreParameter, fields::kRecordTypeName,
                        def->api_name + ": RecordTypeName " + text::json_text(named) + " is not " +
                            (names.empty() ? "allowed: the object has no record types"
                                           : "one of its record types: " + names));
    }
    plain.erase(fields::kRecordTypeName);
  }
  // Inside the transaction, so a reference is checked against the records
  // as they are when this one is stored.
  return org.records().write<RecordPtr>([&](Transaction& tx) -> Result<RecordPtr> {
    std::vector<std::string> problems;
    auto exists = [&tx](const std::string& id18) { return tx.get(id18) != nullptr; };
    nlohmann::json values;
    if (!fixture::record_fields_from_json(config, *def, plain, exists, values, problems)) {
      ApiErrors errors;
      for (auto& p : problems)
        errors.push_back(
            make_error(error_code::kMissingCoreParameter, def->api_name, def->api_name + ": " + p));
      return errors;
    }
    Record made = new_record(org, *def, std::move(values), record_type);
    std::string id = made.id;
    tx.put(std::move(made));
    return tx.get(id);
  });
}

std::optional<PspSession> Admin::psp_session(const std::string& id) const {
  return org_->psp_sessions().get(id);
}

std::optional<PspSession> Admin::psp_session_of_installment(
    const std::string& installment_id) const {
  return org_->psp_sessions().find_by_installment(installment_id);
}

std::vector<PspSession> Admin::newest_psp_sessions(size_t installments) const {
  std::vector<std::string> newest = org_->records().read([&](const RecordStore& s) {
    std::vector<std::string> out;
    const IdList ids = s.ids_of(objects::kInstallment);
    for (auto it = ids.rbegin(); it != ids.rend() && out.size() < installments; ++it)
      out.push_back(*it);
    return out;
  });
  std::vector<PspSession> sessions;
  for (const auto& id : newest)
    if (auto s = org_->psp_sessions().find_by_installment(id)) sessions.push_back(*s);
  return sessions;
}

Millis Admin::psp_session_expiry() const {
  return org_->psp_sessions().expiry();
}

void Admin::reset() {
  org_->reset();
}

std::string Admin::advance_clock(Millis by) {
  // Checked before adding: a huge advance would overflow the instant.
  if (std::string why = advance_error(by); !why.empty()) return why;
  const TimePoint now = org_->clock().now();
  if (std::string why = clock_move_error(now, now + by); !why.empty()) return why;
  org_->clock().advance(by);
  org_->clock_changed();
  return "";
}

std::string Admin::set_clock(TimePoint to) {
  if (std::string why = clock_move_error(org_->clock().now(), to); !why.empty()) return why;
  org_->clock().set(to);
  org_->clock_changed();
  return "";
}

}  // namespace fake_org::admin
