// GET, POST and DELETE /__admin/faults: injected failures of API requests.
#include "fault_injector.h"
#include "responses.h"
#include "routes.h"

namespace fake_org::http {

FAKE_ORG_HANDLERS(fault_admin) {
  FaultInjector& faults = context.faults;
  const std::string api_base = context.org.config().base_path();
  handlers.on("getAdminFaults", [&faults](Call& c) {
    send_json(c.res, 200, {{"faults", faults.list()}});
  });

  handlers.on("postAdminFault", [&faults, api_base](Call& c) {
    auto body = parse_json_body(c.req);
    if (!body.ok()) return send_json(c.res, 400, errors_body(body.errors()));
    auto fault = fault_from_json(*body, api_base);
    if (!fault.ok()) return send_json(c.res, 400, errors_body(fault.errors()));
    faults.add(*fault);
    send_json(c.res, 201, *fault);
  });

  handlers.on("deleteAdminFaults", [&faults](Call& c) {
    faults.clear();
    send_json(c.res, 200, {{"faults", nlohmann::json::array()}});
  });
}

}  // namespace fake_org::http
