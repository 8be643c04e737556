// The dashboard's overview, record tables and record pages.
#include <algorithm>
#include <cctype>

#include "admin/list_fields.h"
#include "domain/config/org_config.h"
#include "domain/core/fields.h"
#include "events/contract_monitor.h"
#include "http/dashboard.h"
#include "util/json_text.h"

namespace fake_org::http::dashboard {
namespace {

constexpr size_t kRecordsPage = 50;
constexpr size_t kMaxRecordsPage = 500;
// Columns of a record table besides Id, when the fixture does not choose them
// (admin/list_fields.h).
constexpr size_t kRecordColumns = 8;
// The overview's newest payment intents, found among at most this many
// installments (newest first): bounded on a huge org.
constexpr size_t kRecentIntents = 10;
constexpr size_t kRecentIntentsBudget = 10000;
// "Referenced by" reads at most this many records: an admin page, not an
// index, so a huge org answers in bounded time and says it stopped early.
constexpr size_t kReverseScanBudget = 50000;
constexpr size_t kReverseShown = 100;

std::string clock_controls() {
  std::string h = "<p>";
  for (const char* d : {"1h", "1d", "30d"})
    h += std::string(
             "<button data-call=\"POST /__admin/clock\" data-body='{&quot;advance&quot;:&quot;") +
         d + "&quot;}'>Advance " + d + "</button>";
  h += "<button data-call=\"POST /__admin/reset\" data-confirm=\"Reset the org to its fixture's "
       "records?\" id=\"reset\">Reset org</button></p>"
       "<form class=\"inline\" data-call=\"POST /__admin/clock\"><label>Advance by "
       "<input name=\"advance\" placeholder=\"90m, 2h, 7d, 1w\" size=\"16\"></label>"
       "<button>Advance</button></form> "
       "<form class=\"inline\" data-call=\"POST /__admin/clock\"><label>Set to "
       "<input name=\"set\" placeholder=\"2027-01-31T09:00:00Z\" size=\"24\"></label>"
       "<button>Set</button></form>";
  return h;
}

std::string org_table(const admin::OrgSummary& org, const ContractMonitor* monitor) {
  std::string h =
      "<table id=\"org\"><tr><th>Name</th><td>" + esc(org.name) +
      "</td></tr><tr><th>Org id</th><td>" + esc(org.org_id) + "</td></tr><tr><th>Fixture</th><td>" +
      esc(org.fixture) + "</td></tr><tr><th>Environment</th><td>" +
      (org.sandbox ? "sandbox" : "production") +
      "</td></tr><tr><th>Org clock</th><td id=\"clock\">" + esc(format_iso8601(org.now)) +
      "</td></tr><tr><th>Contract violations</th><td id=\"violations\">";
  h += monitor
           ? std::to_string(monitor->violations()) + " (<a href=\"/__admin/contracts\">details</a>)"
           : "not checked (start fake-org with --check-contracts)";
  return h + "</td></tr></table>";
}

std::string overview_field_text(const Record& r, const char* field) {
  auto v = r.get(field);
  return v ? cell_text(v->json()) : std::string();
}

// The newest payment intents, each by its newest installment.
std::string recent_intents_table(const admin::Admin& admin) {
  namespace inst = fields::installment;
  std::string h =
      "<table id=\"recent-intents\"><tr><th>Payment intent</th><th>Status</th><th>Amount</th>"
      "<th>Due</th><th>Created (org time)</th><th>Installment</th></tr>";
  const std::vector<RecordPtr> newest = admin.recent_intents(kRecentIntents, kRecentIntentsBudget);
  for (const RecordPtr& r : newest) {
    const std::string pi = overview_field_text(*r, inst::kPaymentIntentId);
    const std::string currency = overview_field_text(*r, fields::kCurrency);
    h += "<tr><td>" + link("/__admin/ui/intent?id=" + url_part(pi), pi) + "</td><td>" +
         esc(overview_field_text(*r, inst::kStatus)) + "</td><td class=\"num\">" +
         esc(overview_field_text(*r, inst::kAmount) + (currency.empty() ? "" : " " + currency)) +
         "</td>" + ts_cell(overview_field_text(*r, inst::kDueDate)) +
         ts_cell(format_iso8601(r->created)) + "<td>" + link(record_href(r->object, r->id), r->id) +
         "</td></tr>";
  }
  if (newest.empty()) h += empty_row(6, "no payment intents yet");
  return h + "</table>";
}

}  // namespace

void overview_page(const admin::Admin& admin, const ContractMonitor* monitor, Call& c) {
  const admin::OrgSummary org = admin.summary();
  std::string body = org_table(org, monitor) + "<h2>Clock</h2>" + clock_controls();
  body += "<h2>Recent payment intents</h2>" + recent_intents_table(admin);
  body += "<h2>Records</h2><table id=\"record-counts\"><tr><th>Object</th><th>Records</th></tr>";
  for (const auto& o : admin.object_counts())
    body += "<tr><td>" + link("/__admin/ui/records/" + url_part(o.object), o.object) +
            "</td><td class=\"num\">" + std::to_string(o.records) + "</td></tr>";
  body += "</table>";
  send_page(c.res, 200, org.name, body);
}

namespace {

struct RecordsView {
  std::vector<nlohmann::json> rows;  // sObjects of the page
  size_t total = 0;                  // records (or matches) in all
};

// A page of the object's records; with `q`, the record whose id or GUID is
// q, or those any of whose values contains it (case-insensitive): a scan of
// the object's records, which an admin page may make (on a copy of the
// record list: it holds no lock while it reads).
RecordsView read_records(const admin::Admin& admin, const std::string& type, const std::string& q,
                         size_t offset, size_t limit) {
  const admin::RecordPage page = admin.search_records(type, q, offset, limit);
  RecordsView v;
  v.total = page.total;
  for (const auto& r : page.records) v.rows.push_back(admin.sobject(*r));
  return v;
}

// An instant or a date: kept on one line.
bool is_time_column(const ObjectDef& object, const std::string& column) {
  if (column == "CreatedDate" || column == "LastModifiedDate") return true;
  const FieldDef* f = object.field(column);
  return f && (f->type == FieldType::kDate || f->type == FieldType::kDateTime);
}

std::string records_table(const ObjectDef& object, const RecordsView& v) {
  const std::vector<std::string> columns = admin::list_fields(object, kRecordColumns);
  std::vector<bool> time_column;
  std::string h = "<table id=\"records\"><tr><th>Id</th>";
  for (const auto& col : columns) {
    h += "<th>" + esc(col) + "</th>";
    time_column.push_back(is_time_column(object, col));
  }
  h += "</tr>";
  for (const auto& row : v.rows) {
    const std::string id = cell_text(member(row, "Id"));
    h += "<tr><td>" + link(record_href(object.api_name, id), id) + "</td>";
    for (size_t i = 0; i < columns.size(); ++i) {
      const std::string text = cell_text(member(row, columns[i]));
      h += time_column[i] ? ts_cell(text) : "<td>" + esc(text) + "</td>";
    }
    h += "</tr>";
  }
  if (v.rows.empty()) h += empty_row(columns.size() + 1, "no records");
  return h + "</table>";
}

std::string records_pager(const std::string& type, const std::string& q, size_t offset,
                          size_t limit, const RecordsView& v) {
  const std::string base = "/__admin/ui/records/" + url_part(type) + "?q=" + url_part(q) +
                           "&limit=" + std::to_string(limit) + "&offset=";
  std::string h = "<p class=\"pager\" id=\"pager\">";
  h += v.rows.empty()
           ? std::string("no records")
           : "records " + std::to_string(offset + 1) + " to " +
                 std::to_string(offset + v.rows.size()) + " of " + std::to_string(v.total);
  h += " ";
  if (offset > 0) h += link(base + std::to_string(offset > limit ? offset - limit : 0), "previous");
  if (offset + limit < v.total) h += link(base + std::to_string(offset + limit), "next");
  return h + "</p>";
}

}  // namespace

void records_page(const admin::Admin& admin, Call& c) {
  const std::string type = c.params["Type"];
  const ObjectDef* object = admin.config().object(type);
  if (!object) return send_problem(c.res, 404, "Object '" + type + "' does not exist in this org");
  size_t offset = 0, limit = kRecordsPage;
  if (!size_query_param(c.req, "offset", 0, offset) ||
      !size_query_param(c.req, "limit", kRecordsPage, limit) || limit == 0 ||
      limit > kMaxRecordsPage)
    return send_problem(c.res, 400,
                        "'offset' must be a whole number and 'limit' one from 1 to 500");
  const std::string q = query_param(c.req, "q");
  const RecordsView v = read_records(admin, type, q, offset, limit);
  std::string body =
      "<form class=\"inline\" method=\"get\"><input name=\"q\" value=\"" + esc(q) +
      "\" placeholder=\"id, GUID or a field value\" size=\"36\" aria-label=\"Search\">"
      "<button>Search</button></form>";
  body += records_pager(type, q, offset, limit, v) + records_table(*object, v);
  send_page(c.res, 200, type, body);
}

namespace {

// The record a value names when it is a record id of this org.
RecordPtr referenced_record(const admin::Admin& admin, const nlohmann::json& v) {
  if (!v.is_string()) return nullptr;
  const std::string s = v.get<std::string>();
  if (s.size() != 15 && s.size() != 18) return nullptr;
  if (!std::all_of(s.begin(), s.end(), [](unsigned char ch) { return std::isalnum(ch); }))
    return nullptr;
  auto r = admin.find_record(s);
  return r.ok() ? *r : nullptr;
}

std::string field_cell(const admin::Admin& admin, const std::string& name,
                       const nlohmann::json& v) {
  if (RecordPtr ref = referenced_record(admin, v))
    return link(record_href(ref->object, ref->id), ref->id) + " <span class=\"pill\">" +
           esc(ref->object) + "</span>";
  const std::string t = cell_text(v);
  if (name.find("Payment_Intent") != std::string::npos && t.rfind("pi_", 0) == 0)
    return link("/__admin/ui/intent?id=" + url_part(t), t);
  return esc(t);
}

// Records whose fields name this one (contact -> installments -> payments).
std::string referenced_by(const admin::Admin& admin, const Record& target) {
  const admin::ReferenceScan scan =
      admin.records_referencing(target, kReverseScanBudget, kReverseShown);
  std::string h = "<table id=\"referenced-by\"><tr><th>Object</th><th>Id</th></tr>";
  for (const auto& r : scan.found)
    h += "<tr><td>" + esc(r->object) + "</td><td>" + link(record_href(r->object, r->id), r->id) +
         "</td></tr>";
  if (scan.found.empty()) h += empty_row(2, "no record refers to this one");
  h += "</table>";
  if (scan.stopped)
    h += "<p class=\"muted\">Stopped after " + std::to_string(kReverseScanBudget) +
         " records read or " + std::to_string(kReverseShown) + " found.</p>";
  return h;
}

}  // namespace

void record_page(const admin::Admin& admin, Call& c) {
  const std::string type = c.params["Type"];
  auto found = admin.get_record(type, c.params["Id"]);
  if (!found.ok())
    return send_problem(c.res, 404,
                        "No " + type + " record has the id or GUID '" + c.params["Id"] + "'");
  const RecordPtr r = *found;
  const nlohmann::json sobject = admin.sobject(*r);
  std::string body = "<p>" + link("/__admin/ui/records/" + url_part(type), "All " + type) +
                     "</p><table id=\"fields\"><tr><th>Field</th><th>Value</th></tr>";
  for (const auto& [k, v] : sobject.items())
    if (k != "attributes")
      body += "<tr><th>" + esc(k) + "</th><td>" + field_cell(admin, k, v) + "</td></tr>";
  body += "</table><h2>Referenced by</h2>" + referenced_by(admin, *r);
  body += "<h2>As the data API returns it</h2><p class=\"muted\">GET " + esc(admin.record_url(*r)) +
          "</p>";
  auto data = admin.data_api_record(type, r->id);
  body += data.ok()
              ? json_block(nlohmann::json(*data))
              : "<p class=\"muted\">Not served by the data API: " +
                    esc(data.errors().empty() ? std::string() : data.errors()[0].message) + "</p>";
  send_page(c.res, 200, type + " " + r->id, body);
}

}  // namespace fake_org::http::dashboard
