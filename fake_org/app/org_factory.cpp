#include "app/org_factory.h"

#include "events/webhook_event_sink.h"

namespace fake_org::app {

Result<http::OrgServices> build_org(OrgConfig config, OrgWiring wiring) {
  return build_org(std::make_shared<const OrgConfig>(std::move(config)), std::move(wiring));
}

Result<http::OrgServices> build_org(std::shared_ptr<const OrgConfig> config, OrgWiring wiring) {
  if (!wiring.deps.random) wiring.deps.random = std::make_shared<OsRandom>();
  auto org = Org::create(std::move(config), wiring.deps);
  if (!org.ok()) return org.errors();
  http::OrgServices s;
  s.org = *org;
  const OrgConfig& cfg = s.org->config();
  s.tokens = std::make_shared<TokenStore>(cfg.auth, s.org->clock_ptr(), s.org->ids_ptr(),
                                          s.org->org_id(), cfg.org.sandbox);
  s.webhooks = std::make_shared<WebhookEngine>(
      cfg.webhooks, cfg.remote_sites, s.org->clock_ptr(),
      wiring.webhook_sender ? wiring.webhook_sender() : make_http_sender(), wiring.deps.random,
      cfg.webhooks.workers, WebhookEngine::kDefaultLogLimit,
      static_cast<size_t>(cfg.webhooks.max_pending));
  if (wiring.notice) s.webhooks->set_notice(wiring.notice);
  auto sink = std::make_shared<WebhookEventSink>(cfg.webhooks, s.webhooks);
  if (wiring.check_contracts) {
    s.monitor = std::make_shared<ContractMonitor>(
        true, "", cfg.org.response_style == ResponseStyle::kPackage);
    sink->set_monitor(s.monitor);
  }
  s.org->set_event_sink(std::move(sink));
  return s;
}

}  // namespace fake_org::app
