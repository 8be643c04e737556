#pragma once
// Builds one org with what surrounds it: the token store, the webhook engine
// fed by the org's events, and (when asked) the contract monitor that checks
// every response and webhook. The one place these parts are wired together.
#include <functional>
#include <memory>
#include <string>

#include "domain/org/org.h"
#include "durable/org_database.h"
#include "events/webhook_sender.h"
#include "http/org_services.h"

namespace fake_org::app {

struct OrgWiring {
  OrgDeps deps;  // the org's clock and randomness (tests pin them)
  // Makes the webhook engine's HTTP sender; default: real HTTP (cpp-httplib).
  std::function<std::unique_ptr<WebhookSender>()> webhook_sender;
  // The org's own notices (webhook deliveries abandoned at shutdown); default stderr.
  std::function<void(const std::string&)> notice;
  // Check every response and webhook against the strict contracts; a
  // violation is logged whatever the log level.
  bool check_contracts = false;
  // Keep the org in this SQLite file (--data-dir); empty: memory only. An
  // existing file's org is restored instead of seeded.
  std::string data_file;
  durable::Sync sync = durable::Sync::kNormal;
  // Built again after a write the disk refused: writes wait for the disk.
  bool disk_full = false;
};

// Fails (with messages naming the fixture) when seed records are invalid.
Result<http::OrgServices> build_org(OrgConfig config, OrgWiring wiring = {});
// The same over a configuration several orgs share (the org registry's).
Result<http::OrgServices> build_org(std::shared_ptr<const OrgConfig> config, OrgWiring wiring = {});

}  // namespace fake_org::app
