#include "domain/org_config_json.h"
#include "responses.h"
#include "routes.h"

namespace fake_org::http {

void add_info_routes(Router& router, Org& org) {
  router.add("GET", "/PaymentMethods",
             [&org](Call& c) { send_json(c.res, 200, payment_methods_body(org.config())); });
  router.add("GET", "/SourceConnector",
             [&org](Call& c) { send_json(c.res, 200, source_connectors_body(org.config())); });
  router.add("GET", "/PackageActions",
             [&org](Call& c) { send_json(c.res, 200, package_actions_body(org.config())); });
}

}  // namespace fake_org::http
