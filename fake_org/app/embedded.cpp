#include "app/embedded.h"

namespace fake_org {

std::unique_ptr<EmbeddedOrg> EmbeddedOrg::start(const OrgConfig& config, EmbeddedOptions options) {
  app::OrgWiring wiring;
  wiring.deps = options.deps;
  wiring.check_contracts = options.check_contracts;
  // Quiet means quiet: the host (the runner, a test) owns the console, and
  // webhooks still pending when a scenario's org stops are expected there.
  if (options.log_level == http::LogLevel::kQuiet) wiring.notice = [](const std::string&) {};
  if (!options.data_dir.empty()) {
    if (auto failed = durable::SavedOrgs::prepare(options.data_dir))
      throw std::runtime_error(*failed);
    wiring.data_file = durable::SavedOrgs::org_file(options.data_dir, options.org_name);
    wiring.sync = options.sync;
  }
  auto services = app::build_org(config, std::move(wiring));
  if (!services.ok()) {
    std::string msg = "cannot create the org from " + config.source_name + ":";
    for (const auto& e : services.errors()) msg += " " + e.message;
    throw std::runtime_error(msg);
  }
  std::unique_ptr<EmbeddedOrg> e(new EmbeddedOrg());
  e->services_ = *services;
  http::ServerOptions so;
  so.host = options.host;
  so.port = 0;
  so.threads = options.threads;
  so.keep_alive_seconds = options.keep_alive_seconds;
  so.max_running_requests = options.max_running_requests;
  so.head_timeout_ms = options.head_timeout_ms;
  so.max_slow_heads = options.max_slow_heads;
  so.log_level = options.log_level;
  so.tls_cert_file = options.tls_cert_file;
  so.tls_key_file = options.tls_key_file;
  so.admin_open = options.admin_open;
  so.admin_allow_hosts = options.admin_allow_hosts;
  so.provider_states = options.provider_states;
  so.org_name = options.org_name;
  e->server_ = std::make_unique<http::Server>(e->services_, so);
  if (options.max_orgs > 0) {
    app::RegistryOptions registry;
    registry.max_orgs = options.max_orgs;
    registry.check_contracts = options.check_contracts;
    registry.quiet = options.log_level == http::LogLevel::kQuiet;
    registry.data_dir = options.data_dir;
    registry.fixtures_dirs = options.fixtures_dirs;
    registry.sync = options.sync;
    e->registry_ = std::make_shared<app::OrgRegistry>(*e->server_, registry);
    e->server_->set_org_directory(e->registry_);
    if (auto failed = e->registry_->restore_saved_orgs())
      throw std::runtime_error("cannot serve a kept org: " + *failed);
  }
  std::string error;
  if (!e->server_->start(&error))
    throw std::runtime_error("cannot start the embedded fake org: " + error);
  return e;
}

EmbeddedOrg::~EmbeddedOrg() {
  stop();
}

void EmbeddedOrg::stop() {
  if (server_) server_->stop();
}

}  // namespace fake_org
