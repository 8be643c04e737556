#include "routes.h"

#include "data_api.h"
#include "oauth_routes.h"
#include "org_sites.h"
#include "psp_routes.h"
#include "responses.h"

namespace fake_org::http {

Handlers all_handlers(const OrgServices& services, RequestJournal& journal, FaultInjector& faults,
                      bool tls, std::shared_ptr<OrgDirectory> orgs) {
  Org& org = *services.org;
  Handlers handlers;
  add_info_handlers(handlers, org);
  add_payment_intent_handlers(handlers, org, tls);
  add_legacy_payment_handlers(handlers, org, tls);
  add_recurring_handlers(handlers, org);
  add_oauth_handlers(handlers,
                     OAuthContext{&org.config(), services.tokens.get(),
                                  [tls](const httplib::Request& r) { return origin_of(r, tls); }});
  add_psp_page_handlers(handlers, org, tls);
  add_admin_handlers(handlers, services, journal, faults);
  add_org_admin_handlers(handlers, std::move(orgs), tls);
  const DataContext data{&org, std::make_shared<ApiUsage>()};
  add_data_read_handlers(handlers, data);
  add_data_write_handlers(handlers, data);
  add_data_composite_handlers(handlers, data);
  return handlers;
}

}  // namespace fake_org::http
