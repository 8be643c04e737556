#include "app/org_factory.h"

#include "domain/bulk/bulk_saved.h"
#include "domain/org/psp_sessions.h"
#include "domain/store/idempotency.h"
#include "domain/store/record_store.h"
#include "events/webhook_event_sink.h"

namespace fake_org::app {

Result<http::OrgServices> build_org(OrgConfig config, OrgWiring wiring) {
  return build_org(std::make_shared<const OrgConfig>(std::move(config)), std::move(wiring));
}

namespace {

ApiError data_error(const std::string& message) {
  return make_error(error_code::kUncategorised, "", message);
}

// The org's database, with what it kept put into `deps`; the error when the
// file cannot serve this org.
Result<std::shared_ptr<durable::OrgDatabase>> open_data(const OrgConfig& config,
                                                        const OrgWiring& wiring, OrgDeps& deps) {
  std::string error;
  auto db = durable::OrgDatabase::open(
      {wiring.data_file, config.source_name, config.digest, wiring.sync, wiring.disk_full}, error);
  if (!db) return data_error(error);
  deps.saved = db->saved_org(error);
  if (!error.empty()) return data_error(error);
  deps.state = db;
  return db;
}

// The keyed state the database kept, back into the stores around the org.
Status restore_services(durable::OrgDatabase& db, const http::OrgServices& s) {
  std::string error;
  const TimePoint now = s.org->clock().now();
  for (const auto& [key, value] : db.saved(state_kind::kIdempotency, error))
    s.org->idempotency().restore(key, value, now);
  for (const auto& [key, value] : db.saved(state_kind::kToken, error))
    s.tokens->restore(key, value);
  s.tokens->set_state_sink(s.org->state());
  for (const auto& [key, value] : db.saved(state_kind::kPspSession, error))
    if (auto session = psp_session_from_saved(value))
      s.org->psp_sessions().restore(std::move(*session));
  s.bulk->restore(
      db.saved(bulk::saved_kind::kJob, error), db.saved(bulk::saved_kind::kUpload, error),
      db.saved(bulk::saved_kind::kRows, error), db.saved(bulk::saved_kind::kQuery, error));
  const auto events = db.saved_texts(state_kind::kWebhook, error);
  if (!error.empty()) return data_error(error);
  // Last, and with its sink set first: restoring starts the pending
  // deliveries at once, and the outcome of each attempt must be kept.
  s.webhooks->set_state_sink(s.org->state());
  s.webhooks->restore(events);
  // Built again on a full disk, what restoring queued waits for the disk.
  if (db.disk_full()) return ok_status();
  return db.flush();
}

}  // namespace

Result<http::OrgServices> build_org(std::shared_ptr<const OrgConfig> config, OrgWiring wiring) {
  if (!wiring.deps.random) wiring.deps.random = std::make_shared<OsRandom>();
  std::shared_ptr<durable::OrgDatabase> db;
  std::function<Result<http::OrgServices>()> reopen;
  if (!wiring.data_file.empty()) {
    reopen = [config, again = wiring]() mutable {
      again.disk_full = true;
      return build_org(config, again);
    };
    auto opened = open_data(*config, wiring, wiring.deps);
    if (!opened.ok()) return opened.errors();
    db = *opened;
  }
  auto org = Org::create(std::move(config), wiring.deps);
  if (!org.ok()) return org.errors();
  http::OrgServices s;
  s.org = *org;
  s.reopen = std::move(reopen);
  if (db)
    db->set_swap_guard([weak = std::weak_ptr<Org>(s.org)](const std::function<void()>& swap) {
      if (auto o = weak.lock())
        o->records().read([&](const RecordStore&) { swap(); });
      else
        swap();
    });
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
  s.bulk = std::make_shared<bulk::BulkJobs>(s.org);
  if (db) {
    if (auto restored = restore_services(*db, s); !restored.ok()) return restored.errors();
  }
  return s;
}

}  // namespace fake_org::app
