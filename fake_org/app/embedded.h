#pragma once
// A fake org served in-process on an ephemeral loopback port: what the
// runner's embedded target and the HTTP tests start.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/org_factory.h"
#include "app/org_registry.h"
#include "domain/org/org.h"
#include "http/server.h"

namespace fake_org {

struct EmbeddedOptions {
  std::string host = "127.0.0.1";
  http::LogLevel log_level = http::LogLevel::kQuiet;
  int threads = 16;
  int keep_alive_seconds = http::kKeepAliveSeconds;
  int max_running_requests = 0;  // fake-org --max-running-requests
  int head_timeout_ms = 30000;   // fake-org --head-timeout (in seconds there)
  int max_slow_heads = 256;      // fake-org --max-slow-heads
  std::string tls_cert_file, tls_key_file;
  bool check_contracts = true;  // every response and webhook against the strict contracts
  bool admin_open = false;      // /__admin from any address (fake-org --admin-open)
  std::vector<std::string> admin_allow_hosts;  // fake-org --admin-allow-host
  // fake-org --provider-states (fixture/provider_states.h)
  std::shared_ptr<const ProviderStates> provider_states;
  OrgDeps deps;  // clock and randomness, for tests; with kQuiet the
                 // org's notices are dropped
  // POST /__admin/orgs creates orgs beside this one (README "Several orgs"),
  // up to this many in all; 0: one org only, as the runner's embedded target.
  size_t max_orgs = 0;
  std::vector<std::string> fixtures_dirs;  // fake-org --fixtures-dir: files those orgs may name
  std::string org_name = "default";        // the org's name: also at /orgs/{org_name}
  // fake-org --data-dir: the orgs outlive this server (a later start with the
  // same directory serves them again); empty: memory only.
  std::string data_dir;
  durable::Sync sync = durable::Sync::kNormal;
};

class EmbeddedOrg {
 public:
  // Throws std::runtime_error when the org cannot be created or the port bound.
  static std::unique_ptr<EmbeddedOrg> start(const OrgConfig& config, EmbeddedOptions options = {});
  ~EmbeddedOrg();

  std::string base_url() const { return server_->url(); }  // http://127.0.0.1:PORT
  std::string api_base() const { return base_url() + services_.org->config().base_path(); }
  int port() const { return server_->port(); }
  Org& org() { return *services_.org; }
  TokenStore& tokens() { return *services_.tokens; }
  WebhookEngine& webhooks() { return *services_.webhooks; }
  bulk::BulkJobs& bulk_jobs() { return *services_.bulk; }
  // Null unless EmbeddedOptions::check_contracts.
  ContractMonitor* contract_monitor() const { return services_.monitor.get(); }
  // With EmbeddedOptions::max_orgs: the orgs, else null.
  app::OrgRegistry* registry() const { return registry_.get(); }
  http::OrgSites& sites() { return server_->sites(); }
  void stop();

 private:
  EmbeddedOrg() = default;
  http::OrgServices services_;
  std::unique_ptr<http::Server> server_;
  std::shared_ptr<app::OrgRegistry> registry_;
};

}  // namespace fake_org
