#include <malloc.h>

#include <algorithm>
#include <optional>

#include "admin_records.h"
#include "dashboard.h"
#include "domain/store/record_store.h"
#include "events/contract_monitor.h"
#include "events/webhook_engine.h"
#include "fault_injector.h"
#include "psp_routes.h"
#include "request_journal.h"
#include "responses.h"
#include "routes.h"
#include "util/json_text.h"
#include "webhook_admin_routes.h"

namespace fake_org::http {

namespace {

ApiError admin_error(std::string field, std::string message) {
  return make_error(error_code::kMissingCoreParameter, std::move(field), std::move(message));
}

// A paging parameter: absent gives `fallback`; anything but a whole number of
// at most 9 digits (letters, signs, overflow) is the caller's mistake, as in
// the request journal, never silently "everything" or "nothing".
std::optional<size_t> size_param(const httplib::Request& req, const char* name, size_t fallback,
                                 std::optional<ApiError>& error) {
  if (!req.has_param(name)) return fallback;
  const std::string v = req.get_param_value(name);
  if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos) {
    error = admin_error(name, std::string("'") + name +
                                  "' must be a whole number from 0 to 999999999; got '" + v + "'");
    return std::nullopt;
  }
  return static_cast<size_t>(std::stoul(v));
}

size_t record_count(Org& org) {
  return org.records().read([](const RecordStore& s) { return s.size(); });
}

void get_health(Org& org, const ContractMonitor* monitor, Call& c) {
  send_json(c.res, 200,
            {{"status", "ok"},
             {"org", org.config().org.name},
             {"orgId", org.org_id()},
             {"fixture", org.config().source_name},
             {"records", record_count(org)},
             {"now", format_iso8601(org.clock().now())},
             // Where the API lives: a fixture may move it (org.base_path),
             // and a runner pointed at this org must follow.
             {"api_base_path", org.config().base_path()},
             {"api_version", org.config().org.api_version},  // the REST data API's
             // fake-org --data-dir: the org's database; null: memory only.
             {"data_file", org.state() ? nlohmann::json(org.state()->location()) : nullptr},
             {"contract_violations",
              monitor ? nlohmann::json(monitor->violations()) : nlohmann::json()}});
}

void get_contracts(const ContractMonitor* monitor, Call& c) {
  if (!monitor) return send_json(c.res, 200, {{"checking", false}});
  send_json(
      c.res, 200,
      {{"checking", true}, {"violations", monitor->violations()}, {"recent", monitor->recent()}});
}

void post_reset(Org& org, RequestJournal& journal, FaultInjector& faults, Call& c) {
  org.reset();
  journal.clear();
  faults.clear();
  // glibc keeps freed memory in its arenas; a reset is when a long-running
  // org has most to give back (decision 95).
  malloc_trim(0);
  send_json(c.res, 200,
            {{"status", "reset"},
             {"records", record_count(org)},
             {"now", format_iso8601(org.clock().now())}});
}

// Where {"advance": "90m"} takes the clock from `now`, and by how much; or the
// error that says why not (checked before adding: a huge advance would
// overflow the instant).
std::optional<ApiError> read_advance(const nlohmann::json& b, TimePoint now, TimePoint& to,
                                     std::optional<Millis>& by) {
  auto d = b["advance"].is_string() ? parse_clock_advance(b["advance"].get<std::string>())
                                    : std::nullopt;
  if (!d)
    return admin_error("advance",
                       "'advance' must be a duration: a whole number with a unit (ms, s, m, h, d "
                       "or w) such as \"30s\", \"90m\", \"2h\", \"7d\" or \"1w\"; got " +
                           text::json_text(b["advance"]));
  if (std::string why = advance_error(*d); !why.empty())
    return admin_error("advance", "'advance' " + text::json_text(b["advance"]) + ": " + why);
  to = now + *d;
  by = d;
  return std::nullopt;
}

// Where {"set": "2027-01-31T09:00:00Z"} takes the clock, or why it cannot.
std::optional<ApiError> read_set(const nlohmann::json& b, TimePoint& to) {
  auto t = b["set"].is_string() ? parse_iso8601(b["set"].get<std::string>()) : std::nullopt;
  if (!t)
    return admin_error("set",
                       "'set' must be an ISO 8601 instant with a zone such as "
                       "\"2027-01-31T09:00:00Z\"; got " +
                           text::json_text(b["set"]));
  to = *t;
  return std::nullopt;
}

void post_clock(Org& org, Call& c) {
  auto body = parse_json_body(c.req);
  if (!body.ok()) return send_errors(c.res, org.config(), body.errors());
  const auto& b = *body;
  bool has_advance = b.is_object() && b.contains("advance");
  bool has_set = b.is_object() && b.contains("set");
  if (has_advance == has_set)
    return send_errors(c.res, org.config(),
                       {admin_error("",
                                    "Send exactly one of {\"advance\": \"90m\"} (units ms, s, m, "
                                    "h, d, w; at most 100 years) "
                                    "or {\"set\": \"2027-01-31T09:00:00Z\"}")});
  const TimePoint now = org.clock().now();
  TimePoint to;
  std::optional<Millis> by;  // an advance adds to the offset: exact whatever the wall clock does
  if (auto bad = has_advance ? read_advance(b, now, to, by) : read_set(b, to))
    return send_errors(c.res, org.config(), {*bad});
  const char* field = has_advance ? "advance" : "set";
  if (std::string why = clock_move_error(now, to); !why.empty())
    return send_errors(c.res, org.config(),
                       {admin_error(field, std::string("'") + field + "' " +
                                               text::json_text(b[field]) + ": " + why)});
  if (by)
    org.clock().advance(*by);
  else
    org.clock().set(to);
  org.clock_changed();
  send_json(c.res, 200, {{"now", format_iso8601(org.clock().now())}});
}

void get_record_counts(Org& org, Call& c) {
  nlohmann::json counts = nlohmann::json::object();
  org.records().read([&](const RecordStore& s) {
    for (const auto& o : s.objects()) counts[o] = s.ids_of(o).size();
    return 0;
  });
  send_json(c.res, 200, {{"objects", counts}});
}

void get_records(Org& org, Call& c) {
  const std::string& type = c.params["Type"];
  const ObjectDef* def = org.config().object(type);
  if (!def)
    return send_errors(
        c.res, org.config(),
        {make_error(error_code::kInvalidData, "Type",
                    "Object '" + type + "' does not exist in this org", ErrorKind::kNotFound)});
  std::optional<ApiError> bad;
  auto offset_p = size_param(c.req, "offset", 0, bad);
  auto limit_p = size_param(c.req, "limit", 200, bad);
  if (bad) return send_errors(c.res, org.config(), {*bad});
  const size_t offset = *offset_p, limit = *limit_p;
  nlohmann::json list = nlohmann::json::array();
  size_t total = org.records().read([&](const RecordStore& s) {
    const auto& ids = s.ids_of(def->api_name);
    for (size_t i = offset; i < ids.size() && i < offset + limit; ++i)
      if (auto r = s.get(ids[i])) list.push_back(sobject_json(org, *r));
    return ids.size();
  });
  send_json(c.res, 200,
            {{"totalSize", total}, {"done", offset + list.size() >= total}, {"records", list}});
}

// A record made at runtime, as a seed would be (decisions 49): 201 with the
// record as GET /records/{Type}/{Id} shows it; 400 naming what is wrong.
void post_record(Org& org, Call& c) {
  auto body = parse_json_body(c.req);
  if (!body.ok()) return send_json(c.res, 400, errors_body(body.errors()));
  auto created = create_admin_record(org, c.params["Type"], *body);
  if (!created.ok()) return send_json(c.res, 400, errors_body(created.errors()));
  send_json(c.res, 201, sobject_json(org, **created));
}

void get_record(Org& org, Call& c) {
  auto r = org.find_record(c.params["Id"], c.params["Type"]);
  if (!r.ok()) return send_errors(c.res, org.config(), r.errors());
  if ((*r)->object != c.params["Type"])
    return send_errors(c.res, org.config(),
                       {make_error(error_code::kInvalidData, "Id",
                                   "Record " + c.params["Id"] + " is a " + (*r)->object +
                                       ", not a " + c.params["Type"],
                                   ErrorKind::kNotFound)});
  send_json(c.res, 200, sobject_json(org, **r));
}

}  // namespace

void add_admin_handlers(Handlers& handlers, const OrgServices& services, RequestJournal& journal,
                        FaultInjector& faults) {
  Org& org = *services.org;
  const ContractMonitor* monitor = services.monitor.get();
  add_webhook_admin_handlers(handlers, *services.webhooks);
  add_psp_admin_handlers(handlers, org);
  add_journal_admin_handlers(handlers, journal);
  add_fault_admin_handlers(handlers, faults, org.config().base_path());
  add_dashboard_handlers(handlers, services, journal, faults);
  handlers.on("getAdminHealth", [&org, monitor](Call& c) { get_health(org, monitor, c); });
  handlers.on("getAdminContracts", [monitor](Call& c) { get_contracts(monitor, c); });
  handlers.on("postAdminReset",
              [&org, &journal, &faults](Call& c) { post_reset(org, journal, faults, c); });
  handlers.on("getAdminClock", [&org](Call& c) {
    send_json(c.res, 200, {{"now", format_iso8601(org.clock().now())}});
  });
  handlers.on("postAdminClock", [&org](Call& c) { post_clock(org, c); });
  handlers.on("getAdminRecordCounts", [&org](Call& c) { get_record_counts(org, c); });
  handlers.on("getAdminRecords", [&org](Call& c) { get_records(org, c); });
  handlers.on("postAdminRecord", [&org](Call& c) { post_record(org, c); });
  handlers.on("getAdminRecord", [&org](Call& c) { get_record(org, c); });
}

}  // namespace fake_org::http
