#pragma once
// Money moving (spec 3): what happens to an installment when the PSP reports
// the payer's action on its hosted page.
//
//   complete_payment: installment Collected, AmountOpen 0, CollectionDate =
//     org clock date; a cpm__Payment__c linked to it; the contact's payment
//     profile created or updated (one per contact + method + processor); then
//     installment.status_change is published with the installment view.
//   decline_payment / cancel_payment: the installment stays open with its
//     status unchanged (spec 6.2: the payer can still complete the flow from
//     the same RedirectURL); the attempt is recorded on the session only.
//
// All record changes happen in one RecordStore transaction; events are
// published after it commits.
#include <string>

#include "org.h"

namespace fake_org {

// What the PSP returns about the payment instrument.
struct PspOutcome {
  std::string card_brand;     // "Visa"
  std::string last_four;      // "4242"
  int expiry_month = 0;       // 1..12; 0: not a card
  int expiry_year = 0;        // 2029
  std::string iban;           // for bank methods
  std::string holder;         // account or card holder name
  std::string psp_reference;  // the PSP's id of the charge; generated when empty
};

struct CollectionResult {
  PspSession session;  // after the change
  std::string installment_id;
  std::string payment_id;  // empty unless completed
  std::string
      redirect;  // where the payer's browser goes: SuccessURL or FailureURL + ?payment_intent=
};

// `id` is a session id ("cs_...") or the 18-character id of an installment
// that has an open session. Errors: kNotFound (unknown id), kConflict
// (already completed).
Result<CollectionResult> complete_payment(Org& org, const std::string& id,
                                          const PspOutcome& outcome);
Result<CollectionResult> decline_payment(Org& org, const std::string& id,
                                         const std::string& reason = "Card declined");
Result<CollectionResult> cancel_payment(Org& org, const std::string& id);

// url + "?payment_intent=pi_..." (or "&..." when url has a query already).
std::string append_payment_intent(const std::string& url, const std::string& payment_intent_id);

}  // namespace fake_org
