// The admin API's Bulk API 2.0 speed: GET /__admin/bulk answers it, POST
// /__admin/bulk?processingTime=30s sets it (0s: a job reports itself
// finished as soon as its work is done), so a scenario can test a client's
// polling against the org clock.
#include <string>

#include "domain/bulk/bulk_jobs.h"
#include "responses.h"
#include "routes.h"
#include "util/calendar.h"

namespace fake_org::http {

namespace {

nlohmann::ordered_json bulk_speed_json(const bulk::BulkJobs& jobs) {
  const Millis t = jobs.processing_time();
  return {{"processingTime", std::to_string(t.count()) + "ms"}, {"processingTimeMs", t.count()}};
}

}  // namespace

FAKE_ORG_HANDLERS(admin_bulk) {
  std::shared_ptr<bulk::BulkJobs> jobs = context.services.bulk;
  if (!jobs) return;
  Org& org = context.org;
  handlers.on("getAdminBulk", [jobs](Call& c) { send_json(c.res, 200, bulk_speed_json(*jobs)); });
  handlers.on("postAdminBulk", [jobs, &org](Call& c) {
    const std::string text = c.req.get_param_value("processingTime");
    auto t = parse_duration(text);
    if (text.empty() || !t || t->count() < 0 || *t > kMaxClockMove)
      return send_errors(
          c.res, org.config(),
          {make_error(error_code::kMissingCoreParameter, "processingTime",
                      "Send ?processingTime=30s (units ms, s, m, h, d, w; 0s: at once); found '" +
                          text + "'")});
    jobs->set_processing_time(*t);
    send_json(c.res, 200, bulk_speed_json(*jobs));
  });
}

}  // namespace fake_org::http
