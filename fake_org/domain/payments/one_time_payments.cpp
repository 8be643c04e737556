// New one-time payment and pay existing installment (spec 4.1).
#include "collection_run.h"
#include "collections.h"
#include "connectors.h"
#include "domain/banking/bank_parameters.h"
#include "domain/core/fields.h"
#include "domain/payers/payer.h"
#include "domain/payments/internal/payment_intent_ops.h"
#include "domain/payments/internal/recurring_ops.h"
#include "views.h"

namespace fake_org {

namespace {

void link_report(Record& report, const Record& installment, const std::string& contact,
                 const std::string& account, const std::string& campaign,
                 const ResolvedMethod& method) {
  namespace f = fields::inbound_report;
  report.fields[f::kInstallment] = installment.id;
  if (!contact.empty()) report.fields[f::kContact] = contact;
  if (!account.empty()) report.fields[f::kAccount] = account;
  if (!campaign.empty()) report.fields[f::kCampaign] = campaign;
  report.fields[f::kMethod] = method.method->name;
  report.fields[f::kProcessor] = method.processor->name;
  if (method.target) report.fields[f::kTarget] = method.target->name;
}

// An inline bank debit (bank method, SEPA/Bacs/Autogiro or US ACH, processor
// without a hosted page) has its mandate given with the request (the mandate is
// created at once): an Active mandate signed today and the
// contact's payment profile holding the account, in the request's
// transaction. The scheduler collects the installment through that mandate on
// its due date (collection_run.h).
void attach_inline_mandate(OperationContext& op, const ResolvedMethod& method, Record& inst,
                           const std::string& contact, const std::string& account) {
  if (!collected_inline(*method.method, *method.processor)) return;
  RecurringMethod rm{method, {}, {}, {}};
  Record profile = upsert_payment_profile(op, rm, contact, account);  // staged
  Record mandate = new_mandate(op, rm, contact, account, nullptr, "");
  mandate.fields[fields::mandate::kPaymentProfile] = profile.id;
  op.tx.put(mandate);
  inst.fields[fields::installment::kMandate] = mandate.id;
  inst.fields[fields::installment::kPaymentProfile] = profile.id;
}

// A collection the bank or network rejected left the installment in the
// fixture's failed status with cpm__Failure_Reason__c, out of the clock's
// index. Paid again inline (a new mandate, or the one on file still Active)
// it is open again: the initial status, no failure reason, so the clock
// collects it on its due date, at the next clock move when that has passed
// (docs/decisions.md, installment transitions). True when it was reopened.
// A hosted page instead collects it (Failed -> Collected) when the payer pays.
bool reopen_for_collection(OperationContext& op, const ResolvedMethod& method, Record& inst) {
  namespace f = fields::installment;
  const std::string status = inst.text(f::kStatus);
  const bool failed = inst.has(f::kFailureReason) || status == "Failed" || status == "Cancelled";
  if (!failed || !collected_inline(*method.method, *method.processor)) return false;
  auto mandate = op.tx.get(inst.text(f::kMandate));
  if (!mandate || mandate->text(fields::mandate::kStatus) != "Active") return false;
  inst.fields[f::kStatus] = op.config.org.installment_initial_status;
  inst.fields.erase(f::kFailureReason);
  return true;
}

}  // namespace

Result<IntentResult> new_one_time_payment(OperationContext& op) {
  const auto& req = op.req;
  ApiErrors errors;
  auto method = resolve_payment_method(op.config, *req.payment_method);
  collect(errors, method);
  std::vector<PackageActionUse> actions;
  if (method.ok()) {
    collect(errors, validate_bank_parameters(*method));
    auto checked = check_request_package_actions(op, *method);
    collect(errors, checked);
    if (checked.ok()) actions = *checked;
  }
  auto amount =
      resolve_amount(op.config, *req.one_time->amount, req.one_time->currency, "OneTime.Amount");
  collect(errors, amount);
  if (method.ok() && amount.ok())
    collect(errors, validate_scheme_currency(*method, amount->currency, "OneTime.CurrencyISOCode"));
  const CommonParameters common = resolve_common_parameters(op, errors);
  if (!errors.empty()) return errors;

  const ConnectorDescriptor& d = descriptor(*op.settings.connector);
  auto payer = resolve_payer(*req.payer, PayerContext{op.config, op.tx, op.org.ids(), op.now, false,
                                                      d.creates_households});
  if (!payer.ok()) return payer.errors();
  op.review_reasons = payer->review_reasons;
  stage_package_actions(op, actions, payer->contact_id, payer->account_id);

  Record inst =
      new_installment(op, *amount, *method, payer->contact_id, payer->account_id, common.campaign);
  for (const auto& [k, v] : common.installment_crm.items()) inst.fields[k] = v;
  attach_inline_mandate(op, *method, inst, payer->contact_id, payer->account_id);
  std::string redirect = open_session_if_hosted(op, *method, inst, "");
  if (!redirect.empty()) inst.fields[fields::installment::kPayUrl] = redirect;
  Record report = new_inbound_report(op, common.report_crm);
  inst.fields[fields::installment::kInboundReport] = report.id;
  link_report(report, inst, payer->contact_id, payer->account_id, common.campaign, *method);
  const RecordPtr staged = op.tx.put(std::move(inst));
  finish_inbound_report(op, std::move(report),
                        {installment_event(op, event_type::kInstallmentCreated, *staged)});
  return IntentResult{intent_response_body(op, *method, redirect), op.payment_intent_id};
}

namespace {

namespace fi = fields::installment;

// OneTime.Id: an installment with an open amount (spec 2.4).
Result<RecordPtr> payable_installment(const OperationContext& op) {
  const std::string& given = op.req.one_time->id;
  auto found = find_by_id_or_guid(op.tx, given, "OneTime.Id", "installment");
  if (!found.ok()) return found.errors();
  RecordPtr inst = *found;
  if (inst->object != objects::kInstallment)
    return make_error(
        error_code::kInvalidData, "OneTime.Id",
        "OneTime.Id '" + given + "' is a " + inst->object + " record, not an installment");
  auto open = inst->get(fi::kAmountOpen);
  if (!open || !open->is_number() || open->get<double>() <= 0)
    return make_error(error_code::kInvalidData, "OneTime.Id",
                      "Installment " + inst->id + " has no open amount (status " +
                          inst->text(fi::kStatus) +
                          "); only an installment with an open amount can be paid (spec 2.4)");
  return inst;
}

// Without a PaymentMethod block the installment's own method is used.
PaymentMethodInput method_input(const OperationContext& op, const Record& inst) {
  if (op.req.payment_method) return *op.req.payment_method;
  PaymentMethodInput in;
  in.name = inst.text(fi::kMethod);
  in.processor = inst.text(fi::kProcessor);
  in.target = inst.text(fi::kTarget);
  // An inline direct debit collects through the installment's mandate,
  // which holds the account: nothing to ask again. Without a usable mandate
  // the processor's parameters are missing (011) as for a new payment.
  if (auto mandate = op.tx.get(inst.text(fi::kMandate)))
    in.parameters_on_file = mandate->text(fields::mandate::kStatus) != "Inactive";
  return in;
}

// The installment as this payment leaves it (not staged): its method, the
// intent paying it and where that intent's payer and notifications go.
Record repaid_installment(const OperationContext& op, const Record& inst,
                          const ResolvedMethod& method, const CommonParameters& common) {
  Record updated = inst;
  updated.modified = op.now;
  auto& x = updated.fields;
  for (const auto& [k, v] : common.installment_crm.items()) x[k] = v;
  x[fi::kMethod] = method.method->name;
  x[fi::kProcessor] = method.processor->name;
  if (method.target)
    x[fi::kTarget] = method.target->name;
  else
    x.erase(fi::kTarget);
  x[fi::kPaymentIntentId] = op.payment_intent_id;  // the intent now paying it
  if (!common.campaign.empty()) x[fi::kCampaign] = common.campaign;
  if (!op.req.webhook_url.empty()) x[fi::kWebhookUrl] = op.req.webhook_url;
  x[fi::kSuccessUrl] = op.req.success_url;
  x[fi::kFailureUrl] = op.req.failure_url;
  // Another method or processor cannot collect through the installment's
  // mandate and profile: the payment creates its own.
  if (inst.text(fi::kMethod) != method.method->name ||
      inst.text(fi::kProcessor) != method.processor->name) {
    x.erase(fi::kMandate);
    x.erase(fi::kPaymentProfile);
  }
  return updated;
}

// The installment's one-off inline mandate, when this payment replaces it
// (docs/decisions.md, installment transitions): Inactive once the hosted
// page collects (a payer who abandons the page keeps it), at once when a
// new inline mandate or a method without a page takes over. Either way the
// clock no longer collects through it.
void supersede_mandate(OperationContext& op, const Record& inst, const Record& updated) {
  const std::string old = inst.text(fi::kMandate);
  if (old.empty() || old == updated.text(fi::kMandate)) return;
  if (op.session)
    op.session->superseded_mandate_id = old;
  else
    deactivate_one_off_mandate(op.tx, old, op.now);
}

// The PackageActions block of a payment of an installment, checked as for a
// new payment (decision 35). The processor's required actions only when the
// request names a PaymentMethod: without one the installment keeps the
// method it has, and no new mandate is set up.
Result<std::vector<PackageActionUse>> check_paying_package_actions(const OperationContext& op,
                                                                   const ResolvedMethod& method) {
  if (op.req.payment_method) return check_request_package_actions(op, method);
  ProcessorDef kept = *method.processor;
  kept.required_package_actions.clear();
  return check_package_actions(op.config, op.req.package_actions, method.method->name, kept);
}

}  // namespace

Result<IntentResult> pay_existing_installment(OperationContext& op) {
  auto found = payable_installment(op);
  if (!found.ok()) return found.errors();
  const Record& inst = **found;
  ApiErrors errors;
  auto method = resolve_payment_method(op.config, method_input(op, inst));
  collect(errors, method);
  // The account of a new inline mandate is checked as for a new payment.
  if (method.ok() && op.req.payment_method) {
    collect(errors, validate_bank_parameters(*method));
    collect(errors, validate_scheme_currency(*method,
                                             inst.text(fields::kCurrency).empty()
                                                 ? op.config.org.default_currency
                                                 : inst.text(fields::kCurrency),
                                             "PaymentMethod.Name"));
  }
  std::vector<PackageActionUse> actions;
  if (method.ok()) {
    auto checked = check_paying_package_actions(op, *method);
    collect(errors, checked);
    if (checked.ok()) actions = *checked;
  }
  const CommonParameters common = resolve_common_parameters(op, errors);
  if (!errors.empty()) return errors;
  stage_package_actions(op, actions, inst.text(fi::kContact), inst.text(fi::kAccount));

  Record updated = repaid_installment(op, inst, *method, common);
  // New account data for an inline direct debit: a mandate of its own
  // (without a PaymentMethod block the installment keeps the one it has).
  if (op.req.payment_method)
    attach_inline_mandate(op, *method, updated, inst.text(fi::kContact), inst.text(fi::kAccount));
  std::string redirect = open_session_if_hosted(op, *method, updated, "");
  if (!redirect.empty()) updated.fields[fi::kPayUrl] = redirect;
  supersede_mandate(op, inst, updated);
  const bool reopened = reopen_for_collection(op, *method, updated);

  Record report = new_inbound_report(op, common.report_crm);
  updated.fields[fi::kInboundReport] = report.id;
  link_report(report, updated, inst.text(fi::kContact), inst.text(fi::kAccount),
              common.campaign.empty() ? inst.text(fi::kCampaign) : common.campaign, *method);
  op.tx.put(updated);
  std::vector<DomainEvent> events;
  if (reopened && updated.text(fi::kStatus) != inst.text(fi::kStatus))
    events.push_back(installment_event(op, event_type::kInstallmentStatusChange, updated));
  finish_inbound_report(op, std::move(report), std::move(events));
  return IntentResult{intent_response_body(op, *method, redirect), op.payment_intent_id};
}

}  // namespace fake_org
