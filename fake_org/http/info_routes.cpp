#include "domain/config/org_config_json.h"
#include "responses.h"
#include "routes.h"
#include "util/json_text.h"

namespace fake_org::http {

namespace {

// The informational bodies depend on the org's configuration only, which
// never changes while the org lives (a reset keeps it): each is serialised
// once, when the routes are built, and every request copies the text.
Handler send_text(std::string body) {
  return [body = std::make_shared<const std::string>(std::move(body))](Call& c) {
    c.res.status = 200;
    c.res.set_content(*body, kJson);
  };
}

}  // namespace

// GET /PaymentMethods, /SourceConnector, /PackageActions (spec 4.5, 4.6).
FAKE_ORG_HANDLERS(info) {
  const OrgConfig& config = context.org.config();
  handlers.on("getPaymentMethods", send_text(text::json_text(payment_methods_body(config))));
  handlers.on("getSourceConnectors", send_text(text::json_text(source_connectors_body(config))));
  handlers.on("getPackageActions", send_text(text::json_text(package_actions_body(config))));
}

}  // namespace fake_org::http
