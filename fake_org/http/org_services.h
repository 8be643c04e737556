#pragma once
// One org as the HTTP layer serves it: the domain's org and the services the
// app wired around it (app/org_factory.h builds this). Shared pointers, so a
// copy keeps every part alive; each part guards its own state.
#include <functional>
#include <memory>

#include "auth/token_store.h"
#include "domain/bulk/bulk_jobs.h"
#include "domain/org/org.h"
#include "events/contract_monitor.h"
#include "events/webhook_engine.h"

namespace fake_org::http {

struct OrgServices {
  std::shared_ptr<Org> org;
  std::shared_ptr<TokenStore> tokens;
  std::shared_ptr<WebhookEngine> webhooks;
  std::shared_ptr<ContractMonitor> monitor;  // null unless responses are checked
  std::shared_ptr<bulk::BulkJobs> bulk;      // Bulk API 2.0 jobs (build_org makes them)
  // With a data directory: the org built again from its file, after a write
  // the disk refused (org_database.h); the error when it cannot be. Null
  // without one.
  std::function<Result<OrgServices>()> reopen;
};

}  // namespace fake_org::http
