// GET /Recurring/{ID} (spec 2.11, 4.4); decisions in recurring.h.
#include "connectors.h"
#include "domain/core/fields.h"
#include "domain/store/record_store.h"
#include "recurring.h"
#include "util/ascii.h"
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

void put_text(nlohmann::json& j, const char* key, const std::string& v) {
  if (!v.empty()) j[key] = v;
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
    const ConnectorDescriptor& d = descriptor(*conn);
    auto series = series_records(s, *conn, rec);
    if (!series)
      return make_error(
          error_code::kUncategorised, "ID",
          std::string(d.schedule.label) + " " + rec->id + " belongs to no " + ascii_lower(d.label),
          ErrorKind::kNotFound);
    rec = series->record;
    const Record* schedule = series->schedule.get();
    auto terms = series_terms(d, *rec, schedule);
    if (!terms)
      return make_error(error_code::kUncategorised, "ID",
                        std::string(d.label) + " " + rec->id + " has no " +
                            ascii_lower(d.schedule.label) +
                            " yet, so it cannot be shown as a "
                            "recurring payment (spec 4.1 rule 5); try again once the schedule "
                            "exists",
                        ErrorKind::kNotFound);
    nlohmann::json j = {{"Id", rec->id}, {"Url", org.record_url(*rec)}, {"Type", rec->object}};
    if (!rec->guid.empty()) j["GUID"] = rec->guid;
    put_text(j, "CurrencyISOCode", *rec, fields::kCurrency);
    if (schedule && !j.contains("CurrencyISOCode"))
      put_text(j, "CurrencyISOCode", *schedule, fields::kCurrency);
    if (terms->amount.is_number()) j["Amount"] = terms->amount;
    put_text(j, "Frequency", terms->frequency);
    put_text(j, "StartDate", show_date(config, terms->start_date));
    put_text(j, "EndDate", show_date(config, terms->end_date));
    put_text(j, "Description", *rec, d.description);
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
