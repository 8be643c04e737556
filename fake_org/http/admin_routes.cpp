#include <malloc.h>

#include <algorithm>
#include <optional>

#include "admin/admin.h"
#include "events/contract_monitor.h"
#include "fault_injector.h"
#include "request_journal.h"
#include "responses.h"
#include "routes.h"
#include "util/json_text.h"
#include "util/memory_cap.h"
#include "util/thread_cache.h"

namespace fake_org::http {

namespace {

// Resident memory in bytes, or null where /proc has no statm (not Linux).
nlohmann::json resident_bytes() {
  const std::optional<uint64_t> rss = util::resident_memory();
  return rss ? nlohmann::json(*rss) : nlohmann::json();
}

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

nlohmann::json sobject_list(const admin::Admin& admin, const std::vector<RecordPtr>& records) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& r : records) list.push_back(admin.sobject(*r));
  return list;
}

void get_health(const admin::Admin& admin, const ContractMonitor* monitor, Call& c) {
  util::sample_memory(true);
  const admin::OrgSummary org = admin.summary();
  send_json(c.res, 200,
            {{"status", "ok"},
             {"org", org.name},
             {"orgId", org.org_id},
             {"fixture", org.fixture},
             {"records", org.records},
             {"max_records", org.max_records ? nlohmann::json(org.max_records) : nullptr},
             // The whole process's resident memory (every org's), from /proc.
             {"rss_bytes", resident_bytes()},
             {"max_memory_bytes",
              util::memory_cap() ? nlohmann::json(util::memory_cap()) : nlohmann::json()},
             // "full": past --max-memory, writes that add records answer
             // STORAGE_LIMIT_EXCEEDED; null: no cap.
             {"memory", !util::memory_cap()       ? nlohmann::json()
                        : util::over_memory_cap() ? "full"
                                                  : "ok"},
             {"now", format_iso8601(org.now)},
             // Where the API lives: a fixture may move it (org.base_path),
             // and a runner pointed at this org must follow.
             {"api_base_path", org.api_base_path},
             {"api_version", org.api_version},  // the REST data API's
             // fake-org --data-dir: the org's database; null: memory only.
             {"data_file", org.data_file ? nlohmann::json(*org.data_file) : nullptr},
             // "full": writes answer 503 and change nothing until the disk
             // takes one again; reads are served. null: memory only.
             {"disk", !org.data_file  ? nlohmann::json()
                      : org.disk_full ? "full"
                                      : "ok"},
             {"disk_problem",
              org.disk_problem.empty() ? nlohmann::json() : nlohmann::json(org.disk_problem)},
             {"contract_violations",
              monitor ? nlohmann::json(monitor->violations()) : nlohmann::json()}});
}

void get_contracts(const ContractMonitor* monitor, Call& c) {
  if (!monitor) return send_json(c.res, 200, {{"checking", false}});
  send_json(
      c.res, 200,
      {{"checking", true}, {"violations", monitor->violations()}, {"recent", monitor->recent()}});
}

void post_reset(admin::Admin& admin, RequestJournal& journal, FaultInjector& faults, Call& c) {
  // Past this many records, glibc's thread caches are emptied too: worth
  // 1 MB after a large load, not the 7 ms it adds to a test's reset.
  constexpr size_t kThoroughFrom = 10000;
  const bool thorough = admin.summary().records >= kThoroughFrom;
  admin.reset();
  journal.clear();
  faults.clear();
  // glibc keeps freed memory in its arenas; a reset is when a long-running
  // org has most to give back (decision 95).
  util::drain_thread_caches(thorough);
  malloc_trim(0);
  util::sample_memory(true);
  const admin::OrgSummary org = admin.summary();
  send_json(c.res, 200,
            {{"status", "reset"}, {"records", org.records}, {"now", format_iso8601(org.now)}});
}

// The duration of {"advance": "90m"}, or the error that says why it is none.
std::optional<ApiError> read_advance(const nlohmann::json& b, Millis& by) {
  auto d = b["advance"].is_string() ? parse_clock_advance(b["advance"].get<std::string>())
                                    : std::nullopt;
  if (!d)
    return admin_error("advance",
                       "'advance' must be a duration: a whole number with a unit (ms, s, m, h, d "
                       "or w) such as \"30s\", \"90m\", \"2h\", \"7d\" or \"1w\"; got " +
                           text::json_text(b["advance"]));
  by = *d;
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

void post_clock(admin::Admin& admin, Call& c) {
  auto body = parse_json_body(c.req);
  if (!body.ok()) return send_errors(c.res, admin.config(), body.errors());
  const auto& b = *body;
  bool has_advance = b.is_object() && b.contains("advance");
  bool has_set = b.is_object() && b.contains("set");
  if (has_advance == has_set)
    return send_errors(c.res, admin.config(),
                       {admin_error("",
                                    "Send exactly one of {\"advance\": \"90m\"} (units ms, s, m, "
                                    "h, d, w; at most 100 years) "
                                    "or {\"set\": \"2027-01-31T09:00:00Z\"}")});
  std::optional<ApiError> bad;
  std::string why;  // the clock's refusal of a well-formed move
  if (has_advance) {
    Millis by{};
    bad = read_advance(b, by);
    if (!bad) why = admin.advance_clock(by);
  } else {
    TimePoint to;
    bad = read_set(b, to);
    if (!bad) why = admin.set_clock(to);
  }
  if (bad) return send_errors(c.res, admin.config(), {*bad});
  const char* field = has_advance ? "advance" : "set";
  if (!why.empty())
    return send_errors(c.res, admin.config(),
                       {admin_error(field, std::string("'") + field + "' " +
                                               text::json_text(b[field]) + ": " + why)});
  send_json(c.res, 200, {{"now", format_iso8601(admin.now())}});
}

void get_record_counts(const admin::Admin& admin, Call& c) {
  nlohmann::json counts = nlohmann::json::object();
  for (const auto& o : admin.object_counts()) counts[o.object] = o.records;
  send_json(c.res, 200, {{"objects", counts}});
}

void get_records(const admin::Admin& admin, Call& c) {
  const std::string& type = c.params["Type"];
  const ObjectDef* def = admin.config().object(type);
  if (!def)
    return send_errors(
        c.res, admin.config(),
        {make_error(error_code::kInvalidData, "Type",
                    "Object '" + type + "' does not exist in this org", ErrorKind::kNotFound)});
  std::optional<ApiError> bad;
  auto offset_p = size_param(c.req, "offset", 0, bad);
  auto limit_p = size_param(c.req, "limit", 200, bad);
  if (bad) return send_errors(c.res, admin.config(), {*bad});
  const size_t offset = *offset_p, limit = *limit_p;
  const admin::RecordPage page = admin.list_records(def->api_name, offset, limit);
  const nlohmann::json list = sobject_list(admin, page.records);
  send_json(
      c.res, 200,
      {{"totalSize", page.total}, {"done", offset + list.size() >= page.total}, {"records", list}});
}

// A record made at runtime, as a seed would be (decisions 49): 201 with the
// record as GET /records/{Type}/{Id} shows it; 400 naming what is wrong.
void post_record(admin::Admin& admin, Call& c) {
  auto body = parse_json_body(c.req);
  if (!body.ok()) return send_json(c.res, 400, errors_body(body.errors()));
  auto created = admin.create_record(c.params["Type"], *body);
  if (!created.ok()) return send_json(c.res, 400, errors_body(created.errors()));
  send_json(c.res, 201, admin.sobject(**created));
}

void get_record(const admin::Admin& admin, Call& c) {
  auto r = admin.get_record(c.params["Type"], c.params["Id"]);
  if (!r.ok()) return send_errors(c.res, admin.config(), r.errors());
  send_json(c.res, 200, admin.sobject(**r));
}

}  // namespace

// /__admin: health, contracts, reset, clock, records (the fake's own API, not
// the spec's). The reset clears the journal and faults too. The webhooks,
// the PSP driver, the journal, faults, orgs and the dashboard are groups of
// their own files.
FAKE_ORG_HANDLERS(admin) {
  const std::shared_ptr<admin::Admin> admin = context.admin;
  const ContractMonitor* monitor = context.services.monitor.get();
  RequestJournal& journal = context.journal;
  FaultInjector& faults = context.faults;
  handlers.on("getAdminHealth", [admin, monitor](Call& c) { get_health(*admin, monitor, c); });
  handlers.on("getAdminContracts", [monitor](Call& c) { get_contracts(monitor, c); });
  handlers.on("postAdminReset",
              [admin, &journal, &faults](Call& c) { post_reset(*admin, journal, faults, c); });
  handlers.on("getAdminClock", [admin](Call& c) {
    send_json(c.res, 200, {{"now", format_iso8601(admin->now())}});
  });
  handlers.on("postAdminClock", [admin](Call& c) { post_clock(*admin, c); });
  handlers.on("getAdminRecordCounts", [admin](Call& c) { get_record_counts(*admin, c); });
  handlers.on("getAdminRecords", [admin](Call& c) { get_records(*admin, c); });
  handlers.on("postAdminRecord", [admin](Call& c) { post_record(*admin, c); });
  handlers.on("getAdminRecord", [admin](Call& c) { get_record(*admin, c); });
}

}  // namespace fake_org::http
