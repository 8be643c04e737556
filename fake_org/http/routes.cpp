#include "routes.h"

#include "admin/admin.h"
#include "data_api.h"

namespace fake_org::http {

Handlers all_handlers(const OrgServices& services, RequestJournal& journal, FaultInjector& faults,
                      bool tls, std::shared_ptr<OrgDirectory> orgs,
                      std::shared_ptr<SiteRouter> site_router,
                      std::shared_ptr<const AdminPolicy> names,
                      std::shared_ptr<const ProviderStates> provider_states) {
  const HandlerContext context{
      services,
      *services.org,
      journal,
      faults,
      tls,
      std::move(orgs),
      std::make_shared<admin::Admin>(services.org),
      std::make_shared<ApiUsage>(),
      site_router ? std::move(site_router) : std::make_shared<SiteRouter>(),
      std::move(names),
      std::move(provider_states)};
  Handlers handlers;
  for (const HandlerGroup& group : handler_groups()) group.add(handlers, context);
  return handlers;
}

}  // namespace fake_org::http
