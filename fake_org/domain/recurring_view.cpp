// GET /Recurring/{ID} (spec 2.11, 4.4); decisions in recurring.h.
#include "fields.h"
#include "recurring.h"
#include "views.h"

namespace fake_org {

namespace {

std::string show_date(const OrgConfig& config, const std::string& stored) {
  if (stored.empty() || config.org.recurring_date_format != DateFormat::kDayMonthYear)
    return stored;
  auto d = parse_date(stored);
  if (!d) return stored;
  char buf[16];
  std::snprintf(buf, sizeof buf, "%02d-%02d-%04d", d->day, d->month, d->year);
  return buf;
}

void put_text(nlohmann::json& j, const char* key, const Record& r, const char* field) {
  std::string v = r.text(field);
  if (!v.empty()) j[key] = v;
}

void put_date(nlohmann::json& j, const OrgConfig& config, const char* key, const Record& r,
              const char* field) {
  std::string v = r.text(field);
  if (!v.empty()) j[key] = show_date(config, v);
}

void put_number(nlohmann::json& j, const char* key, const Record& r, const char* field) {
  const auto* v = r.get(field);
  if (v && v->is_number()) j[key] = *v;
}

}  // namespace

Result<nlohmann::json> recurring_view(Org& org, std::string_view id_or_guid) {
  const OrgConfig& config = org.config();
  // One read: the id is resolved and the view built under the same lock, so
  // an admin reset in between cannot leave the id unknown or naming another record.
  return org.records().read([&](const RecordStore& s) -> Result<nlohmann::json> {
    auto found = Org::find_record(s, id_or_guid, "recurring record");
    if (!found.ok()) return found.errors();
    RecordPtr rec = *found;
    const SourceConnectorDef* conn = config.connector_for_object(rec->object);
    if (!conn)
      return make_error(error_code::kInvalidData, "ID",
                        std::string(id_or_guid) + " is a " + rec->object +
                            " record, not the recurring object of a source connector of this org",
                        ErrorKind::kNotFound);
    RecordPtr schedule;
    if (conn->kind == ConnectorKind::kFundraising) {
      if (rec->object == conn->schedule_object) {
        schedule = rec;
        rec = s.get(schedule->text(fields::gift_schedule::kCommitment));
        if (!rec)
          return make_error(
              error_code::kUncategorised, "ID",
              "Gift commitment schedule " + schedule->id + " belongs to no gift commitment",
              ErrorKind::kNotFound);
      } else {
        std::string sid = rec->text(fields::gift_commitment::kCurrentSchedule);
        if (!sid.empty()) schedule = s.get(sid);
      }
      if (!schedule)
        return make_error(error_code::kUncategorised, "ID",
                          "Gift commitment " + rec->id +
                              " has no gift commitment schedule yet, so it cannot be shown as a "
                              "recurring payment (spec 4.1 rule 5); try again once the schedule "
                              "exists",
                          ErrorKind::kNotFound);
    }
    nlohmann::json j = {{"Id", rec->id}, {"Url", org.record_url(*rec)}, {"Type", rec->object}};
    if (!rec->guid.empty()) j["GUID"] = rec->guid;
    put_text(j, "CurrencyISOCode", *rec, fields::kCurrency);
    switch (conn->kind) {
      case ConnectorKind::kNative: {
        namespace f = fields::recurring_payment;
        put_number(j, "Amount", *rec, f::kAmount);
        put_text(j, "Frequency", *rec, f::kFrequency);
        put_date(j, config, "StartDate", *rec, f::kStartDate);
        put_date(j, config, "EndDate", *rec, f::kEndDate);
        put_text(j, "Description", *rec, fields::recurring::kDescription);
        break;
      }
      case ConnectorKind::kNonprofit: {
        namespace f = fields::recurring_donation;
        put_number(j, "Amount", *rec, f::kAmount);
        put_text(j, "Frequency", *rec, f::kPeriod);
        put_date(j, config, "StartDate", *rec, f::kStartDate);
        put_date(j, config, "EndDate", *rec, f::kEndDate);
        put_text(j, "Description", *rec, fields::recurring::kDescription);
        break;
      }
      case ConnectorKind::kFundraising: {
        namespace f = fields::gift_schedule;
        put_number(j, "Amount", *schedule, f::kAmount);
        put_text(j, "Frequency", *schedule, f::kPeriod);
        put_date(j, config, "StartDate", *schedule, f::kStartDate);
        put_date(j, config, "EndDate", *schedule, f::kEndDate);
        put_text(j, "Description", *rec, fields::gift_commitment::kDescription);
        if (!j.contains("CurrencyISOCode"))
          put_text(j, "CurrencyISOCode", *schedule, fields::kCurrency);
        break;
      }
    }
    // As installments show it (views.h), so the fields of spec 2.11 are all there.
    j["RecordTypeName"] = record_type_name(config, *rec);
    put_text(j, "SetupUrl", *rec, fields::recurring::kSetupUrl);
    std::string sc = rec->text(fields::recurring::kSourceConnector);
    j["SourceConnector"] = sc.empty() ? conn->name : sc;
    put_text(j, "PaymentMethod", *rec, fields::recurring::kMethod);
    put_text(j, "PaymentProcessor", *rec, fields::recurring::kProcessor);
    return j;
  });
}

}  // namespace fake_org
