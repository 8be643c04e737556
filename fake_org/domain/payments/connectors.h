#pragma once
// Source connectors as data (spec 1, 2.5, 4.6): one descriptor per connector
// kind names the objects and fields that hold a recurring series, so views,
// the collection clock, setups, updates and the fixture loader read the same
// row. Another kind of connector is one more descriptor in connectors.cpp.
//
// A connector keeps its series on one recurring record, or on a recurring
// record plus a schedule object beside it (fundraising: GiftCommitment and
// GiftCommitmentSchedule). The recurring record is "the recurring record" of
// responses, reports, installments and mandates; the series terms (amount,
// frequency, dates) are on the schedule when there is one.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "domain/config/org_config.h"
#include "domain/store/transaction.h"

namespace fake_org {

// A field a new series gets beyond its terms, parties and links, valued from
// the setup request.
struct SetupValue {
  enum class From {
    kText,       // `text`
    kToday,      // the setup's date
    kStartDate,  // Recurring.StartDate
    kEndDate,    // Recurring.EndDate; not written without one
    kAmount,     // Recurring.Amount
    kByEnd,      // `text` with an end date, `open_text` without
  };
  const char* field = nullptr;
  From from = From::kText;
  const char* text = nullptr;
  const char* open_text = nullptr;
};

struct ConnectorDescriptor {
  ConnectorKind kind = ConnectorKind::kNative;
  const char* name = nullptr;              // the fixture's `kind`: "native"
  const char* recurring_object = nullptr;  // the platform object, unless a fixture names another
  const char* name_prefix = nullptr;       // Name of a new recurring record: "RP-" + id part
  const char* label = nullptr;             // the recurring record in messages: "Gift commitment"

  // The series terms, on the schedule when the connector has one.
  struct Terms {
    const char* amount = nullptr;
    const char* frequency = nullptr;  // its picklist bounds the connector's frequencies
    const char* interval = nullptr;   // multiplies the frequency's step; none: 1
    const char* start_date = nullptr;
    const char* end_date = nullptr;
  } terms;

  // On the recurring record.
  const char* next_due = nullptr;  // the collection clock's next due date
  const char* status = nullptr;
  const char* active_status = "Active";        // the status that lets the series collect
  const char* ended_status = nullptr;          // the clock's status after the last due date
  std::vector<std::string> finished_statuses;  // a series that an update cannot change
  // "Pending" while the payer's RedirectURL is open, active_status otherwise.
  bool pending_while_payer_acts = false;
  const char* contact = nullptr;  // none: the account's person contact
  const char* account = nullptr;
  const char* campaign = nullptr;
  const char* description = nullptr;
  std::vector<SetupValue> record_setup;
  // A payer without an account gets a household (a required Account lookup).
  bool payer_needs_account = false;
  // The package gives a new contact its household account (NPSP), so a
  // contact-only payer may name the household record type.
  bool creates_households = false;

  // The lookups of an installment and of a mandate to the recurring record.
  const char* installment_link = nullptr;
  const char* mandate_link = nullptr;

  struct Schedule {
    const char* object = nullptr;      // none: the connector has no schedule object
    const char* key_prefix = nullptr;  // of its ids when the org does not declare the object
    const char* name_prefix = nullptr;
    const char* label = nullptr;  // in messages: "Gift commitment schedule"
    // Recurring.CrmFields keys with this prefix go to the recurring record, the
    // rest to the schedule (spec 2.1).
    const char* record_crm_prefix = nullptr;
    const char* record_link = nullptr;       // the schedule's lookup to the recurring record
    const char* current = nullptr;           // the recurring record's lookup to its schedule
    const char* installment_link = nullptr;  // an installment's lookup to the schedule
    const char* campaign = nullptr;
    const char* payment_method = nullptr;  // the method's picklist value, on setup and update
    std::vector<SetupValue> setup;
  } schedule;

  bool has_schedule() const { return schedule.object != nullptr; }
};

// Every connector kind, in the fixture's order of `kind` values.
const std::vector<ConnectorDescriptor>& connector_descriptors();
const ConnectorDescriptor& descriptor(ConnectorKind kind);
inline const ConnectorDescriptor& descriptor(const SourceConnectorDef& c) {
  return descriptor(c.kind);
}
// The descriptor whose `name` is the fixture's `kind`, or nullptr.
const ConnectorDescriptor* descriptor_named(std::string_view name);
const char* to_string(ConnectorKind v);

// A recurring record with its schedule (when the connector has one).
struct SeriesRecords {
  RecordPtr record;
  RecordPtr schedule;
};

// The recurring record's current schedule; nullptr when the connector has no
// schedule object or the record names none.
RecordPtr schedule_of(const RecordReader& reader, const ConnectorDescriptor& d,
                      const Record& record);

// The series `found` belongs to: `found` is the connector's recurring record
// or its schedule, which stands for its recurring record. nullopt for a
// schedule whose recurring record is gone.
std::optional<SeriesRecords> series_records(const RecordReader& reader,
                                            const SourceConnectorDef& conn, RecordPtr found);

// The series terms as stored: text as it is, the amount as JSON (null when
// absent). nullopt when the connector keeps them on a schedule and there is none.
struct SeriesTerms {
  nlohmann::json amount;
  std::string frequency;
  int interval = 1;
  std::string start_date, end_date;
};
std::optional<SeriesTerms> series_terms(const ConnectorDescriptor& d, const Record& record,
                                        const Record* schedule);

// Whose the series is, from the recurring record's own lookups.
struct SeriesParties {
  std::string contact, account, campaign;
};
SeriesParties series_parties(const ConnectorDescriptor& d, const Record& record);

}  // namespace fake_org
