#include "org.h"

#include "domain/config/org_config.h"
#include "domain/core/clock.h"
#include "domain/core/events.h"
#include "domain/core/fields.h"
#include "domain/core/ids.h"
#include "domain/store/idempotency.h"
#include "domain/store/org_state.h"
#include "domain/store/record_store.h"
#include "org_modules.h"
#include "psp_sessions.h"
#include "soql_cursors.h"
#include "standard_records.h"
#include "util/crypto.h"

namespace fake_org {

std::vector<IndexSpec> org_indexes(const OrgConfig& config) {
  std::vector<IndexSpec> out;
  for (const auto& [object, rules] : config.deduplication)
    for (size_t i = 0; i < rules.size(); ++i)
      out.push_back({"dedup:" + object + ":" + std::to_string(i), object, rules[i], true});
  for (const OrgModule& m : org_modules())
    if (m.add_indexes) m.add_indexes(config, out);
  return out;
}

bool object_has_guid(std::string_view object) {
  return object != objects::kContact && object != objects::kAccount && object != objects::kCampaign;
}

Result<std::shared_ptr<Org>> Org::create(OrgConfig config, OrgDeps deps) {
  return create(std::make_shared<const OrgConfig>(std::move(config)), std::move(deps));
}

Result<std::shared_ptr<Org>> Org::create(std::shared_ptr<const OrgConfig> cfg, OrgDeps deps) {
  if (!deps.base_clock) deps.base_clock = std::make_shared<SystemClock>();
  if (!deps.random) deps.random = std::make_shared<OsRandom>();
  std::shared_ptr<Org> org(new Org(std::move(cfg),
                                   std::make_shared<AdjustableClock>(deps.base_clock),
                                   std::make_shared<IdGenerator>(deps.random)));
  if (deps.state) org->keep_state_in(deps.state);
  if (deps.saved) {
    org->store_->restore(std::move(deps.saved->records));
    deps.saved->records.clear();
    org->ids_->restore_sequence(deps.saved->id_sequence);
    org->clock_->set_offset(Millis(deps.saved->clock_offset_ms));
    // A data directory from before the org kept its own records gets them now.
    const TimePoint now = org->clock_->now();
    org->store_->write<Ok>([&](Transaction& tx) -> Result<Ok> {
      stage_standard_records(*org->config_, org->org_id_, now, tx);
      if (tx.size() == 0) return make_error(error_code::kUncategorised, "", "nothing to add");
      return Ok{};
    });
  } else if (auto s = org->seed(); !s.ok()) {
    return s.errors();
  }
  // After the seed and the records kept: the cap holds writes, not those.
  org->store_->set_max_records(org->config_->org.max_records);
  return org;
}

void Org::keep_state_in(std::shared_ptr<OrgStateSink> sink) {
  state_ = std::move(sink);
  store_->set_commit_observer(
      [sink = state_, ids = ids_](const std::vector<RecordPtr>& written, bool replaced_all) {
        if (replaced_all)
          sink->records_replaced(written, ids->sequence());
        else
          sink->records_committed(written, ids->sequence());
      });
  idempotency_->set_state_sink(state_);
  psp_sessions_->set_state_sink(state_);
}

void Org::save_clock_offset() {
  if (state_)
    state_->put(state_kind::kOrg, org_state_key::kClockOffsetMs, clock_->offset().count());
}

Org::Org(std::shared_ptr<const OrgConfig> config, std::shared_ptr<AdjustableClock> clock,
         std::shared_ptr<IdGenerator> ids)
    : config_(std::move(config)),
      clock_(std::move(clock)),
      ids_(std::move(ids)),
      store_(std::make_unique<RecordStore>(org_indexes(*config_))),
      idempotency_(std::make_unique<IdempotencyStore>()),
      psp_sessions_(std::make_unique<PspSessionStore>(clock_, config_->org.psp_session_expiry)),
      query_cursors_(std::make_unique<soql::QueryCursorStore>()),
      events_(std::make_shared<RecordingEventSink>()) {
  org_id_ = config_->org.org_id.empty() ? std::string("00D5J0000000Fak") : config_->org.org_id;
  if (auto id18 = to_id18(org_id_)) org_id_ = *id18;
  uint8_t key[32];
  OsRandom().fill(key, sizeof key);
  psp_callback_secret_ =
      crypto::hex_encode(std::string_view(reinterpret_cast<const char*>(key), sizeof key));
}

Org::~Org() = default;

bool Org::write_publishing_untyped(
    const std::function<bool(Transaction&, std::vector<DomainEvent>&)>& change,
    const std::function<void()>& on_commit, Locking locking) {
  std::vector<DomainEvent> events;
  const std::function<bool(Transaction&)> run = [&](Transaction& tx) {
    events.clear();
    return change(tx, events);
  };
  const std::function<void()> committed = [&] {
    if (on_commit) on_commit();
    if (!events.empty()) events_->publish(std::move(events));
  };
  const bool taken = locking == Locking::kOptimistic
                         ? store_->write_optimistic_untyped(run, committed)
                         : store_->write_untyped(run, committed);
  events_->flush();  // the lock is released: the slow part of publishing
  return taken;
}

ApiError Org::storage_limit_error() const {
  return store_->storage_limit_error();
}

void Org::clock_changed() {
  save_clock_offset();
  for (const OrgModule& m : org_modules())
    if (m.clock_changed) m.clock_changed(*this);
  events_->on_clock_changed();
}

void Org::reset() {
  events_->on_reset();
  clock_->reset();
  save_clock_offset();
  idempotency_->reset();
  psp_sessions_->reset();
  query_cursors_->clear();
  // Seeds were validated when the org was created, so reseeding cannot fail.
  (void)seed();
}

Status Org::seed() {
  TimePoint now = clock_->now();
  return store_->replace_all([&](Transaction& tx) -> Status {
    ids_->reset_sequence();
    ApiErrors errors;
    for (const auto& s : config_->seed) {
      const ObjectDef* def = config_->object(s.object);
      if (!def) {
        errors.push_back(
            make_error(error_code::kUncategorised, s.object,
                       config_->source_name + ": seed record of unknown object " + s.object));
        continue;
      }
      Record r;
      r.object = def->api_name;
      if (s.id.empty()) {
        r.id = ids_->record_id(def->key_prefix);
      } else if (auto id18 = to_id18(s.id)) {
        r.id = *id18;
      } else {
        errors.push_back(
            make_error(error_code::kUncategorised, s.object,
                       config_->source_name + ": seed id " + s.id + " is not a record id"));
        continue;
      }
      r.guid = !s.guid.empty() ? s.guid : (object_has_guid(r.object) ? ids_->guid() : "");
      r.fields = s.fields.is_object() ? s.fields : nlohmann::json::object();
      // The fixture's record type (the loader checked it exists), else the
      // object's default, as every record the org creates gets.
      if (!s.record_type.empty())
        r.fields[fields::kRecordTypeName] = s.record_type;
      else if (const RecordTypeDef* rt = def->default_record_type())
        r.fields[fields::kRecordTypeName] = rt->name;
      r.created = r.modified = now;
      tx.put(std::move(r));
    }
    if (!errors.empty()) return errors;
    stage_standard_records(*config_, org_id_, now, tx);
    return ok_status();
  });
}

std::string Org::record_url(std::string_view object, std::string_view id) const {
  return "/services/data/v" + config_->org.api_version + "/sobjects/" + std::string(object) + "/" +
         std::string(id);
}

std::string Org::record_url(const Record& r) const {
  return record_url(r.object, r.id);
}

Result<RecordPtr> Org::find_record(std::string_view id_or_guid, std::string_view what) const {
  return store_->read([&](const RecordStore& s) { return find_record(s, id_or_guid, what); });
}

Result<RecordPtr> Org::find_record(const RecordReader& records, std::string_view id_or_guid,
                                   std::string_view what) {
  std::string shown(id_or_guid);
  if (is_guid(id_or_guid)) {
    if (auto r = records.get_by_guid(id_or_guid)) return r;
  } else if (auto id18 = to_id18(id_or_guid)) {
    if (auto r = records.get(*id18)) return r;
  } else {
    // One rule for a malformed id, in a path as in a body (OneTime.Id,
    // Recurring.Id): invalid data, 200 (decisions 20).
    return make_error(error_code::kInvalidData, "ID",
                      "'" + shown + "' is not a valid " + std::string(what) +
                          " id: expected a 15- or 18-character record id or a GUID");
  }
  return make_error(error_code::kInvalidData, "ID",
                    "No " + std::string(what) + " found with id '" + shown + "'",
                    ErrorKind::kNotFound);
}

}  // namespace fake_org
