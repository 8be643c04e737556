#include "domain/org_config_json.h"
#include "responses.h"
#include "routes.h"

namespace fake_org::http {

void add_info_handlers(Handlers& handlers, Org& org) {
  handlers.on("getPaymentMethods",
              [&org](Call& c) { send_json(c.res, 200, payment_methods_body(org.config())); });
  handlers.on("getSourceConnectors",
              [&org](Call& c) { send_json(c.res, 200, source_connectors_body(org.config())); });
  handlers.on("getPackageActions",
              [&org](Call& c) { send_json(c.res, 200, package_actions_body(org.config())); });
}

}  // namespace fake_org::http
