// New one-time payment and pay existing installment (spec 4.1).
#include "bank_parameters.h"
#include "collection_run.h"
#include "collections.h"
#include "fields.h"
#include "payer.h"
#include "payment_intent_ops.h"
#include "recurring_ops.h"
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
// without a hosted page) has its mandate given with the request (issue 5:
// "the mandate is created at once"): an Active mandate signed today and the
// contact's payment profile holding the account, in the request's
// transaction. The scheduler collects the installment through that mandate on
// its due date (collection_run.h).
void attach_inline_mandate(OperationContext& op, const ResolvedMethod& method, Record& inst,
                           const std::string& contact, const std::string& account) {
  if (!collected_inline(*method.method, *method.processor)) return;
  RecurringMethod rm{method, {}, {}, {}};
  Record profile = upsert_payment_profile(op, rm, contact, account);  // staged
  Record mandate = new_mandate(op, rm, contact, account, ConnectorKind::kNative, "");
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
  auto campaign = resolve_campaign(op);
  collect(errors, campaign);
  auto report_crm = crm_values(op, req.crm_fields, objects::kInboundReport, "CrmFields");
  collect(errors, report_crm);
  auto inst_crm =
      crm_values(op, req.one_time->crm_fields, objects::kInstallment, "OneTime.CrmFields");
  collect(errors, inst_crm);
  if (!errors.empty()) return errors;

  auto payer = resolve_payer(*req.payer, PayerContext{op.config, op.tx, op.org.ids(), op.now});
  if (!payer.ok()) return payer.errors();
  op.review_reasons = payer->review_reasons;
  stage_package_actions(op, actions, payer->contact_id, payer->account_id);

  Record inst =
      new_installment(op, *amount, *method, payer->contact_id, payer->account_id, *campaign);
  for (const auto& [k, v] : inst_crm->items()) inst.fields[k] = v;
  attach_inline_mandate(op, *method, inst, payer->contact_id, payer->account_id);
  std::string redirect = open_session_if_hosted(op, *method, inst, "");
  if (!redirect.empty()) inst.fields[fields::installment::kPayUrl] = redirect;
  Record report = new_inbound_report(op, *report_crm);
  inst.fields[fields::installment::kInboundReport] = report.id;
  link_report(report, inst, payer->contact_id, payer->account_id, *campaign, *method);
  op.tx.put(inst);
  finish_inbound_report(op, std::move(report),
                        {installment_event(op, event_type::kInstallmentCreated, inst)});
  return IntentResult{intent_response_body(op, *method, redirect), op.payment_intent_id};
}

Result<IntentResult> pay_existing_installment(OperationContext& op) {
  namespace f = fields::installment;
  const auto& req = op.req;
  const std::string& given = req.one_time->id;
  auto found = find_by_id_or_guid(op.tx, given, "OneTime.Id", "installment");
  if (!found.ok()) return found.errors();
  RecordPtr inst = *found;
  if (inst->object != objects::kInstallment)
    return make_error(
        error_code::kInvalidData, "OneTime.Id",
        "OneTime.Id '" + given + "' is a " + inst->object + " record, not an installment");
  const auto* open = inst->get(f::kAmountOpen);
  if (!open || !open->is_number() || open->get<double>() <= 0)
    return make_error(error_code::kInvalidData, "OneTime.Id",
                      "Installment " + inst->id + " has no open amount (status " +
                          inst->text(f::kStatus) +
                          "); only an installment with an open amount can be paid (spec 2.4)");

  // Without a PaymentMethod block the installment's own method is used.
  PaymentMethodInput method_in;
  if (req.payment_method) {
    method_in = *req.payment_method;
  } else {
    method_in.name = inst->text(f::kMethod);
    method_in.processor = inst->text(f::kProcessor);
    method_in.target = inst->text(f::kTarget);
    // An inline direct debit collects through the installment's mandate,
    // which holds the account: nothing to ask again. Without a usable mandate
    // the processor's parameters are missing (011) as for a new payment.
    if (auto mandate = op.tx.get(inst->text(f::kMandate)))
      method_in.parameters_on_file = mandate->text(fields::mandate::kStatus) != "Inactive";
  }
  ApiErrors errors;
  auto method = resolve_payment_method(op.config, method_in);
  collect(errors, method);
  // The account of a new inline mandate is checked as for a new payment.
  if (method.ok() && req.payment_method) collect(errors, validate_bank_parameters(*method));
  auto report_crm = crm_values(op, req.crm_fields, objects::kInboundReport, "CrmFields");
  collect(errors, report_crm);
  auto inst_crm =
      crm_values(op, req.one_time->crm_fields, objects::kInstallment, "OneTime.CrmFields");
  collect(errors, inst_crm);
  auto campaign = resolve_campaign(op);
  collect(errors, campaign);
  if (!errors.empty()) return errors;

  Record updated = *inst;
  updated.modified = op.now;
  auto& x = updated.fields;
  for (const auto& [k, v] : inst_crm->items()) x[k] = v;
  x[f::kMethod] = method->method->name;
  x[f::kProcessor] = method->processor->name;
  if (method->target)
    x[f::kTarget] = method->target->name;
  else
    x.erase(f::kTarget);
  x[f::kPaymentIntentId] = op.payment_intent_id;  // the intent now paying it
  if (!campaign->empty()) x[f::kCampaign] = *campaign;
  if (!req.webhook_url.empty()) x[f::kWebhookUrl] = req.webhook_url;
  x[f::kSuccessUrl] = req.success_url;
  x[f::kFailureUrl] = req.failure_url;
  // Another method or processor cannot collect through the installment's
  // mandate and profile: the payment creates its own.
  if (inst->text(f::kMethod) != method->method->name ||
      inst->text(f::kProcessor) != method->processor->name) {
    x.erase(f::kMandate);
    x.erase(f::kPaymentProfile);
  }
  // New account data for an inline direct debit: a mandate of its own
  // (without a PaymentMethod block the installment keeps the one it has).
  if (req.payment_method)
    attach_inline_mandate(op, *method, updated, inst->text(f::kContact), inst->text(f::kAccount));
  std::string redirect = open_session_if_hosted(op, *method, updated, "");
  if (!redirect.empty()) x[f::kPayUrl] = redirect;
  // The installment's one-off inline mandate, when this payment replaces it
  // (docs/decisions.md, installment transitions): Inactive once the hosted
  // page collects (a payer who abandons the page keeps it), at once when a
  // new inline mandate or a method without a page takes over. Either way the
  // clock no longer collects through it.
  if (const std::string old = inst->text(f::kMandate);
      !old.empty() && old != updated.text(f::kMandate)) {
    if (op.session)
      op.session->superseded_mandate_id = old;
    else
      deactivate_one_off_mandate(op.tx, old, op.now);
  }

  const bool reopened = reopen_for_collection(op, *method, updated);

  Record report = new_inbound_report(op, *report_crm);
  x[f::kInboundReport] = report.id;
  link_report(report, updated, inst->text(f::kContact), inst->text(f::kAccount),
              campaign->empty() ? inst->text(f::kCampaign) : *campaign, *method);
  op.tx.put(updated);
  std::vector<DomainEvent> events;
  if (reopened && updated.text(f::kStatus) != inst->text(f::kStatus))
    events.push_back(installment_event(op, event_type::kInstallmentStatusChange, updated));
  finish_inbound_report(op, std::move(report), std::move(events));
  return IntentResult{intent_response_body(op, *method, redirect), op.payment_intent_id};
}

}  // namespace fake_org
