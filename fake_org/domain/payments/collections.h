#pragma once
// Money moving (spec 3): what happens to an installment when the PSP reports
// the payer's action on its hosted page.
//
//   complete_payment: installment Collected, AmountOpen 0, CollectionDate =
//     org clock date; a cpm__Payment__c linked to it; the contact's payment
//     profile created or updated (one per contact + method + processor); then
//     installment.status_change is published with the installment view.
//     For recurring, the mandate the installment collects through becomes
//     Active (signed today) and a Pending native recurring payment Active.
//   decline_payment / cancel_payment: the installment stays open with its
//     status unchanged (spec 6.2: the payer can still complete the flow from
//     the same RedirectURL); the attempt is recorded on the session only.
//   A collection the bank or card network rejects later (direct debit due on
//   the org clock, a charge through a mandate: collection_run.h) moves the
//   installment to the fixture's org.installment_failed_status instead.
//
// All record changes happen in one RecordStore transaction; events are
// published after it commits.
#include <string>
#include <vector>

#include "domain/core/events.h"
#include "domain/org/org.h"
#include "domain/org/psp_sessions.h"
#include "domain/store/transaction.h"

namespace fake_org {

// What the PSP returns about the payment instrument.
struct PspOutcome {
  std::string card_brand;      // "Visa"
  std::string last_four;       // "4242"
  int expiry_month = 0;        // 1..12; 0: not a card
  int expiry_year = 0;         // 2029
  std::string iban;            // for bank methods
  std::string holder;          // account or card holder name
  std::string wallet_email;    // for wallet methods: the payer's login
  std::string wallet_account;  // the wallet's id of the payer (PayPal's payer id)
  std::string psp_reference;   // the PSP's id of the charge; generated when empty
};

struct CollectionResult {
  PspSession session;  // after the change
  std::string installment_id;
  std::string payment_id;  // empty unless completed
  std::string
      redirect;  // where the payer's browser goes: SuccessURL or FailureURL + ?payment_intent=
};

// `id` is a session id ("cs_...") or the 18-character id of an installment
// that has an open session. Errors: kNotFound (unknown id), kConflict (the
// session is completed, or never was but its installment was paid elsewhere:
// the message says which).
Result<CollectionResult> complete_payment(Org& org, const std::string& id,
                                          const PspOutcome& outcome);
Result<CollectionResult> decline_payment(Org& org, const std::string& id,
                                         const std::string& reason = "Card declined");
Result<CollectionResult> cancel_payment(Org& org, const std::string& id);

// Test values that pass at the hosted page or at setup and fail when the
// money is collected (README, "The simulated PSP"). The IBAN passes every
// bank-account check (it is a valid German IBAN); the card is recognised by
// its last four digits, all a mandate keeps of it.
namespace collection_magic {
inline constexpr const char* kIbanFailsAtCollection = "DE35370400440532013002";
inline constexpr const char* kCardFailsAtCollection = "4000000000000341";
inline constexpr const char* kCardFailsAtCollectionLastFour = "0341";
}  // namespace collection_magic

// ---- steps shared with the scheduler (collection_run.cpp) -----------------
// All run inside the caller's transaction and append the events to publish
// after it commits.

// Collects the open installment: payment record, Collected, AmountOpen 0,
// CollectionDate today, profile upserted from `o`; installment.status_change.
// Returns the payment id. `inst` is updated and staged.
std::string collect_installment(Org& org, Transaction& tx, Record& inst, const PspOutcome& o,
                                TimePoint now, std::vector<DomainEvent>& events);
// The bank or network refused the money: the fixture's failed status, the
// reason in cpm__Failure_Reason__c, open amount unchanged, no payment;
// installment.status_change when the status changed.
void reject_installment(Org& org, Transaction& tx, Record& inst, const std::string& reason,
                        TimePoint now, std::vector<DomainEvent>& events);
// A Pending mandate becomes Active (signature date today, a token for cards,
// the profile linked); its native recurring payment goes Pending -> Active.
void activate_mandate(Org& org, Transaction& tx, const std::string& mandate_id,
                      const std::string& profile_id, TimePoint now);

// A one-time installment's own mandate (an inline debit's, no recurring
// record) that another payment of the installment replaced: Inactive with a
// deactivation date today. A series' mandate, or one already Inactive, is
// left as it is.
void deactivate_one_off_mandate(Transaction& tx, const std::string& mandate_id, TimePoint now);

// url + "?payment_intent=pi_..." (or "&..." when url has a query already).
std::string append_payment_intent(const std::string& url, const std::string& payment_intent_id);

}  // namespace fake_org
