#pragma once
// The one way the admin API (http/admin_routes.cpp) and the dashboard
// (http/dashboard*.cpp) reach an org: what they read (its summary, objects
// and counts, records by page, search or id, PSP sessions) and what they do
// (create a record, move the clock, reset). They render what it returns; the
// org's stores and their locks stay behind it.
//
// Locking rule: an Admin keeps no state but its org, whose stores guard
// themselves. A call takes the record store's lock for one short hold and
// builds JSON, matches and renders after releasing it: stored records are
// immutable (RecordPtr), so the pointers a hold copies stay valid and
// unchanged. A scan (search_records, filter_records, records_referencing)
// copies its pointers in that one hold and reads the records outside the
// lock, so a writer waits for the copy, never for the scan. The scan sees
// the records as they were at the copy.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "domain/core/clock.h"
#include "domain/core/errors.h"
#include "domain/data/data_errors.h"
#include "domain/org/psp_sessions.h"
#include "domain/store/record.h"

namespace fake_org {
class Org;
struct OrgConfig;
}  // namespace fake_org

namespace fake_org::admin {

// What the health check and the dashboard's overview show.
struct OrgSummary {
  std::string name;
  std::string org_id;
  std::string fixture;  // the fixture's source name
  bool sandbox = false;
  std::string api_base_path;             // where the API lives (org.base_path)
  std::string api_version;               // the REST data API's
  std::optional<std::string> data_file;  // the org's database; nullopt: memory only
  size_t max_records = 0;                // the fixture's org.max_records; 0: no cap
  bool disk_full = false;                // writes wait for the disk (org_state.h)
  std::string disk_problem;              // why the last write failed, or empty
  size_t records = 0;
  TimePoint now{};
};

struct ObjectCount {
  std::string object;
  size_t records = 0;
};

// One page of an object's records, in creation order.
struct RecordPage {
  std::vector<RecordPtr> records;
  size_t total = 0;  // records (or, of a search, matches) in all
};

// Records whose fields name a record, as far as a bounded scan read.
struct ReferenceScan {
  std::vector<RecordPtr> found;
  bool stopped = false;  // it read its budget, or found as many as asked
};

// What one payment intent wrote: its inbound reports, what they name (payer,
// mandate, profile, series), its installments and their payments.
struct IntentRecords {
  std::vector<RecordPtr> reports, named, installments, payments;
};

class Admin {
 public:
  explicit Admin(std::shared_ptr<Org> org);

  // Immutable for the org's life.
  const OrgConfig& config() const;
  OrgSummary summary() const;
  TimePoint now() const;
  // Every object that has records, in the store's order, with its count.
  std::vector<ObjectCount> object_counts() const;

  // The object's records from `offset`, at most `limit`.
  RecordPage list_records(std::string_view object, size_t offset, size_t limit) const;
  // The dashboard's search: the record whose id or GUID is `text` when it is
  // one of the object's; else those any of whose values as sobject() shows
  // them (the attributes aside) contains `text`, ignoring ASCII case. An
  // empty text is list_records.
  RecordPage search_records(std::string_view object, std::string_view text, size_t offset,
                            size_t limit) const;
  // The object's records that `keep` accepts, paged; `keep` runs holding no
  // lock (it may read or write the org).
  RecordPage filter_records(std::string_view object, const std::function<bool(const Record&)>& keep,
                            size_t offset, size_t limit) const;
  // A record of `object` by 15/18-character id or GUID: the org's errors
  // (code 200 for a malformed id, not found for an unknown one), and not
  // found for a record of another object.
  Result<RecordPtr> get_record(std::string_view object, std::string_view id_or_guid) const;
  // A record of any object by id or GUID.
  Result<RecordPtr> find_record(std::string_view id_or_guid) const;
  // Records of any object whose text fields hold `target`'s 15- or
  // 18-character id: reads at most `budget` records (in the store's object
  // order, creation order within one) and stops at `max_found`.
  ReferenceScan records_referencing(const Record& target, size_t budget, size_t max_found) const;
  IntentRecords intent_records(const std::string& payment_intent) const;
  // The newest `count` payment intents, newest first: of each, its newest
  // installment (which names it, its status and amount). Reads at most
  // `budget` installments, newest first.
  std::vector<RecordPtr> recent_intents(size_t count, size_t budget) const;

  // A record as the platform's sObject REST resource shows it: attributes,
  // Id, GUID, the fields, CreatedDate and LastModifiedDate.
  nlohmann::json sobject(const Record& r) const;
  // The record's path in the REST data API.
  std::string record_url(const Record& r) const;
  // The record as the REST data API reads it at the org's API version, or
  // why that API would not serve it.
  data::DataResult<nlohmann::ordered_json> data_api_record(std::string_view object,
                                                           std::string_view id) const;

  // A record of `object` from a JSON object of fields, checked as seed
  // records are (fixture/record_fields.h), with a new id (and a GUID for the
  // package's objects) and indexed like any other, so deduplication finds
  // it. An unknown object or field, a bad value, a reference to no record:
  // code 010 naming it.
  Result<RecordPtr> create_record(std::string_view object, const nlohmann::json& fields);

  // The open session of a hosted payment page, and the newest session of an
  // installment.
  std::optional<PspSession> psp_session(const std::string& id) const;
  std::optional<PspSession> psp_session_of_installment(const std::string& installment_id) const;
  // The sessions of the newest `installments` installments, newest first.
  std::vector<PspSession> newest_psp_sessions(size_t installments) const;
  // How long a session stays open.
  Millis psp_session_expiry() const;

  // Back to the fixture's records and real time.
  void reset();
  // Move the org clock (by `by`: exact whatever the wall clock does), then
  // run what came due; the reason it did not move (clock.h's limits), or "".
  [[nodiscard]] std::string advance_clock(Millis by);
  [[nodiscard]] std::string set_clock(TimePoint to);

 private:
  std::shared_ptr<Org> org_;
};

}  // namespace fake_org::admin
