#pragma once
// The older /Payment interface (spec 4.7) as a second translation of the one
// payment-intent model: the legacy body becomes a PaymentIntentRequest, the
// shared operations of POST /PaymentIntent run it (every business rule lives
// there), and their result is translated back into the legacy answer.
//
// Decisions (docs/decisions.md):
// - Outcome in the body with HTTP 200 either way (spec 7.6): ResponseCode
//   "001" and IsSuccess true, or the first error's code, IsSuccess false and
//   a Message joining every problem. Field paths in messages are the legacy
//   ones ("Payment.Amount", not "OneTime.Amount").
// - Payer: Contact fields -> Contact.CrmFields, ContactId -> Contact.Id,
//   ContactRecordTypeName -> Contact.RecordTypeName, the same for Account.
//   ContactUpdate/AccountUpdate "Enrich" (the only mode) lets fields sent
//   with ContactId/AccountId fill the record's empty fields; such fields
//   without it are refused (200) rather than silently ignored. PrimaryRelation
//   "Contact" (the only relation): the contact is the payer, linked to the
//   account.
// - Recurring replaces Payment; when the processor's InitialPaymentonRecurring
//   is Required the first collection is the initial payment (an installment of
//   Recurring.Amount), as the older body has no place for another amount.
// - PaymentMethod.PaymentProfile sets fields of the payment profile a
//   recurring setup creates or updates; on a one-time payment (whose profile
//   the PSP's callback creates) it is refused.
// - No idempotency key: spec 4.7 lists none, and unknown fields are refused.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "domain/config/org_config.h"
#include "domain/core/errors.h"
#include "domain/org/org.h"
#include "payment_intent_request.h"
#include "payment_intents.h"

namespace fake_org {

// The legacy body translated, plus what the answer needs from the body.
struct LegacyPaymentRequest {
  PaymentIntentRequest intent;
  bool contact_id_given = false, account_id_given = false;
  bool account_fields_given = false;
  bool allow_deduplication = false;
  nlohmann::json payment_profile = nlohmann::json::object();  // checked field values
};

// Shape checks of the older body and its translation (no records read).
// Errors carry the legacy field names.
Result<LegacyPaymentRequest> translate_legacy_request(const nlohmann::json& body,
                                                      const OrgConfig& config);

// The /PaymentIntent field paths in errors renamed to the older ones
// ("OneTime.CrmFields.X" -> "Payment.CustomFields.X"), in fields and messages.
std::string to_legacy_path(std::string_view text);
ApiErrors to_legacy_errors(ApiErrors errors);

// {"ResponseCode": <first code>, "IsSuccess": false, "Message": ...} (spec 7.6).
nlohmann::json legacy_failure_body(const ApiErrors& errors);

// The success answer (spec 4.7) from the shared operation's result.
nlohmann::json legacy_success_body(const LegacyPaymentRequest& req, const IntentResult& result);

struct LegacyResult {
  nlohmann::json body;            // success or failure: the caller answers 200 either way
  std::string payment_intent_id;  // empty on failure
};

// POST /Payment and GET /Payment/{ID}. Holds no state of its own: the org's
// record store does the locking.
class LegacyPayments {
 public:
  explicit LegacyPayments(Org& org) : org_(org), intents_(org) {}

  LegacyResult create(const nlohmann::json& body, const IntentContext& ctx);
  // A one-off payment's installment by record id or GUID; a recurring record
  // is refused (spec 4.7: one-off payments only).
  nlohmann::json get(std::string_view id_or_guid) const;

 private:
  Org& org_;
  PaymentIntents intents_;
};

}  // namespace fake_org
