#pragma once
// Internal to the payment-intent operations: what one operation works with
// inside its transaction, and the steps the four operations share.
#include <optional>
#include <string>
#include <vector>

#include "domain/core/events.h"
#include "domain/core/money.h"
#include "domain/org/org.h"
#include "domain/org/psp_sessions.h"
#include "domain/payments/package_actions.h"
#include "domain/payments/payment_intent_request.h"
#include "domain/payments/payment_intents.h"
#include "domain/payments/payment_method_resolution.h"
#include "domain/store/transaction.h"

namespace fake_org {

struct OperationContext {
  OperationContext(Org& o, Transaction& t, TimePoint n, const PaymentIntentRequest& r,
                   const IntentContext& i, std::string pi, ResolvedSettings s)
      : org(o),
        config(o.config()),
        tx(t),
        now(n),
        req(r),
        intent(i),
        payment_intent_id(std::move(pi)),
        settings(s) {}

  Org& org;
  const OrgConfig& config;
  Transaction& tx;
  TimePoint now;
  const PaymentIntentRequest& req;
  const IntentContext& intent;
  std::string payment_intent_id;
  ResolvedSettings settings;

  // Filled by the operation:
  std::vector<DomainEvent> events;
  std::optional<PspSession> session;  // opened after commit
  std::vector<std::string> review_reasons;
  std::vector<std::string> notes;
};

// Appends the errors of a failed step, so an operation reports all at once.
template <typename T>
void collect(ApiErrors& errors, const Result<T>& r) {
  if (!r.ok()) errors.insert(errors.end(), r.errors().begin(), r.errors().end());
}
inline void collect(ApiErrors& errors, const ApiErrors& more) {
  errors.insert(errors.end(), more.begin(), more.end());
}

// CrmFields of a block checked against `object` (spec 2.1); errors carry the
// block's path, e.g. "OneTime.CrmFields".
Result<nlohmann::json> crm_values(const OperationContext& op, const nlohmann::json& crm,
                                  const std::string& object, const std::string& path);

// The response body of every operation (spec 4.1): Id, PaymentMethod,
// Settings and RedirectURL when the payer must act.
nlohmann::json intent_response_body(const OperationContext& op, const ResolvedMethod& method,
                                    const std::string& redirect_url);

// The record that `given` (record id or GUID) names, inside the transaction:
// 200 when `given` is neither, 200 with ErrorKind::kNotFound when no record
// has it. `what` names the expected record in the messages ("installment").
Result<RecordPtr> find_by_id_or_guid(const Transaction& tx, const std::string& given,
                                     const std::string& path, const std::string& what);

// The request's PackageActions checked against the org and the method's
// RequiredPackageActions (spec 2.8): 010 / 200 as package_actions.h says.
Result<std::vector<PackageActionUse>> check_request_package_actions(const OperationContext& op,
                                                                    const ResolvedMethod& method);

// Stages the records the actions create (a Gift Aid declaration) for the
// payer, in the operation's transaction.
void stage_package_actions(OperationContext& op, const std::vector<PackageActionUse>& uses,
                           const std::string& contact, const std::string& account);

// Pre-checks that need no records: amount and currency of a block.
Result<Money> resolve_amount(const OrgConfig& config, const nlohmann::json& amount,
                             const std::string& currency, const std::string& path);

// CampaignId (spec 2.3): a malformed id is error 200; a well-formed id that
// names no campaign leaves the record unlinked and adds a note saying why.
Result<std::string> resolve_campaign(OperationContext& op);

// What every operation reads beside its own blocks: CampaignId (spec 2.3),
// the root CrmFields for the inbound report and OneTime.CrmFields for the
// installment (spec 2.1). Their errors are appended to `errors`.
struct CommonParameters {
  std::string campaign;  // "" when absent or naming no campaign
  nlohmann::json report_crm = nlohmann::json::object();
  nlohmann::json installment_crm = nlohmann::json::object();
};
CommonParameters resolve_common_parameters(OperationContext& op, ApiErrors& errors);

// A new installment record (not yet staged): amounts, payer, method, links.
Record new_installment(OperationContext& op, const Money& amount, const ResolvedMethod& method,
                       const std::string& contact_id, const std::string& account_id,
                       const std::string& campaign_id);

// Opens a hosted payment session for the installment when the processor needs
// the payer's action; returns the RedirectURL ("" when none is needed).
std::string open_session_if_hosted(OperationContext& op, const ResolvedMethod& method,
                                   const Record& installment, const std::string& recurring_id);

// Stages the inbound report with its final status (guided matching rules of
// the processing type, review reasons) and queues the paymentIntent events.
// `created_events` go between paymentIntent.created and the final event.
void finish_inbound_report(OperationContext& op, Record report,
                           std::vector<DomainEvent> created_events);

// The inbound report's common fields for this request.
Record new_inbound_report(OperationContext& op, const nlohmann::json& crm_values);

DomainEvent installment_event(OperationContext& op, const char* type, const Record& installment);

// The four operations.
Result<IntentResult> new_one_time_payment(OperationContext& op);
Result<IntentResult> pay_existing_installment(OperationContext& op);
Result<IntentResult> new_recurring_payment(OperationContext& op);
Result<IntentResult> update_recurring_payment(OperationContext& op);

}  // namespace fake_org
