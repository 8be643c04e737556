#pragma once
// Collections on the org clock (spec 3): when the org clock moves,
// what came due runs at once, on the thread that moved it; no thread sleeps
// waiting for a date.
//
//   1. Every active recurring record whose next due date has come (an ordered
//      partial index per recurring object, keyed by that date) gets one new
//      installment per due date up to today (schedule.h: anchored on the
//      start date, never past the end date), each collected at once through
//      the record's mandate, or rejected per the magic values
//      (collection_magic in collections.h). A record whose mandate is not
//      Active yet (a hosted page still open) waits. After the last date the
//      record is finished (native Completed, donation and commitment Closed).
//   2. Every open installment of an inline bank debit (no hosted page)
//      whose due date has come is collected through the mandate created with
//      its request (one_time_payments.cpp) and that mandate's payment
//      profile, or rejected (IBAN that fails at collection) into the
//      fixture's installment_failed_status.
//
// One RecordStore transaction per run; events are published after it commits,
// installment.created before installment.status_change of each installment.
#include <vector>

#include "domain/config/org_config.h"
#include "domain/org/org.h"
#include "domain/store/transaction.h"

namespace fake_org {

namespace index_name {
// Open installments collected without the payer (inline direct debit), by
// cpm__Due_Date__c. Partial: collected, cancelled and rejected ones leave it.
inline constexpr const char* kOpenInlineByDueDate = "installment.open_inline.due_date";
// "recurring.next_due:<object>": active recurring records by next due date.
inline constexpr const char* kRecurringByNextDuePrefix = "recurring.next_due:";
}  // namespace index_name

// Collected by the org without the payer: a bank method whose processor has
// no hosted page (the mandate or debit authorisation comes with the request).
// Any bank method, with a European scheme (SEPA, Bacs, Autogiro) or without
// one (US ACH): the scheme only decides how the account data is checked.
bool collected_inline(const PaymentMethodDef& method, const ProcessorDef& processor);

// The ordered indexes the run reads; every org keeps them (org_modules.cpp).
void add_collection_indexes(const OrgConfig& config, std::vector<IndexSpec>& out);

// The series `rec` (a recurring record, its schedule already in `tx`) becomes
// collectable on `today`: created with an Active mandate, or activated by
// its hosted page. With org.recurring_backfill skip (the default) its next
// due date moves to the first schedule date on or after today, so no
// installment is billed for a date before it (spec 2.5: StartDate is when
// the first collection "may" be billed); catch_up leaves it. `rec` is
// changed, not staged.
void start_collecting(const OrgConfig& config, Transaction& tx, Record& rec, const Date& today);

struct CollectionRunSummary {
  int installments_created = 0;
  int collected = 0;
  int rejected = 0;
};

// Runs everything due on the org clock's current day.
CollectionRunSummary run_due_collections(Org& org);

}  // namespace fake_org
