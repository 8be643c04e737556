// New one-time payment and pay existing installment (spec 4.1).
#include "bank_parameters.h"
#include "crm_fields.h"
#include "fields.h"
#include "payer.h"
#include "payment_intent_ops.h"
#include "views.h"

namespace fake_org {

namespace {

nlohmann::json response_body(const OperationContext& op, const ResolvedMethod& method,
                             const std::string& redirect_url) {
  nlohmann::json body = {{"Id", op.payment_intent_id},
                         {"PaymentMethod", method.echo()},
                         {"Settings", op.settings.echo()}};
  if (!redirect_url.empty()) body["RedirectURL"] = redirect_url;
  return body;
}

// CrmFields of a block for `object`; errors carry the block's path.
Result<nlohmann::json> crm_values(const OperationContext& op, const nlohmann::json& crm,
                                  const char* object, const std::string& path) {
  const ObjectDef* def = op.config.object(object);
  if (!def)
    return make_error(error_code::kUncategorised, path,
                      "The org has no object " + std::string(object));
  auto check = check_crm_fields(crm, *def, path, &op.config);
  if (!check.ok()) return check.errors;
  return check.values;
}

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

}  // namespace

Result<IntentResult> new_one_time_payment(OperationContext& op) {
  const auto& req = op.req;
  ApiErrors errors;
  auto method = resolve_payment_method(op.config, *req.payment_method);
  if (!method.ok()) errors.insert(errors.end(), method.errors().begin(), method.errors().end());
  if (method.ok()) {
    ApiErrors bank = validate_bank_parameters(*method);
    errors.insert(errors.end(), bank.begin(), bank.end());
  }
  auto amount =
      resolve_amount(op.config, *req.one_time->amount, req.one_time->currency, "OneTime.Amount");
  if (!amount.ok()) errors.insert(errors.end(), amount.errors().begin(), amount.errors().end());
  auto campaign = resolve_campaign(op);
  if (!campaign.ok())
    errors.insert(errors.end(), campaign.errors().begin(), campaign.errors().end());
  auto report_crm = crm_values(op, req.crm_fields, objects::kInboundReport, "CrmFields");
  if (!report_crm.ok())
    errors.insert(errors.end(), report_crm.errors().begin(), report_crm.errors().end());
  auto inst_crm =
      crm_values(op, req.one_time->crm_fields, objects::kInstallment, "OneTime.CrmFields");
  if (!inst_crm.ok())
    errors.insert(errors.end(), inst_crm.errors().begin(), inst_crm.errors().end());
  if (!errors.empty()) return errors;

  auto payer = resolve_payer(*req.payer, PayerContext{op.config, op.tx, op.org.ids(), op.now});
  if (!payer.ok()) return payer.errors();
  op.review_reasons = payer->review_reasons;

  Record inst =
      new_installment(op, *amount, *method, payer->contact_id, payer->account_id, *campaign);
  for (const auto& [k, v] : inst_crm->items()) inst.fields[k] = v;
  std::string redirect = open_session_if_hosted(op, *method, inst, "");
  if (!redirect.empty()) inst.fields[fields::installment::kPayUrl] = redirect;
  Record report = new_inbound_report(op, *report_crm);
  inst.fields[fields::installment::kInboundReport] = report.id;
  link_report(report, inst, payer->contact_id, payer->account_id, *campaign, *method);
  op.tx.put(inst);
  finish_inbound_report(op, std::move(report),
                        {installment_event(op, event_type::kInstallmentCreated, inst)});
  return IntentResult{response_body(op, *method, redirect), op.payment_intent_id};
}

Result<IntentResult> pay_existing_installment(OperationContext& op) {
  namespace f = fields::installment;
  const auto& req = op.req;
  const std::string& given = req.one_time->id;
  RecordPtr inst;
  if (is_guid(given)) {
    inst = op.tx.get_by_guid(given);
  } else if (auto id18 = to_id18(given)) {
    inst = op.tx.get(*id18);
  } else {
    return make_error(
        error_code::kInvalidData, "OneTime.Id",
        "OneTime.Id '" + given + "' is neither a record id nor a GUID of an installment");
  }
  if (!inst)
    return make_error(error_code::kInvalidData, "OneTime.Id",
                      "No installment found with id '" + given + "'", ErrorKind::kNotFound);
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
  }
  ApiErrors errors;
  auto method = resolve_payment_method(op.config, method_in);
  if (!method.ok()) errors.insert(errors.end(), method.errors().begin(), method.errors().end());
  auto report_crm = crm_values(op, req.crm_fields, objects::kInboundReport, "CrmFields");
  if (!report_crm.ok())
    errors.insert(errors.end(), report_crm.errors().begin(), report_crm.errors().end());
  auto inst_crm =
      crm_values(op, req.one_time->crm_fields, objects::kInstallment, "OneTime.CrmFields");
  if (!inst_crm.ok())
    errors.insert(errors.end(), inst_crm.errors().begin(), inst_crm.errors().end());
  auto campaign = resolve_campaign(op);
  if (!campaign.ok())
    errors.insert(errors.end(), campaign.errors().begin(), campaign.errors().end());
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
  std::string redirect = open_session_if_hosted(op, *method, updated, "");
  if (!redirect.empty()) x[f::kPayUrl] = redirect;

  Record report = new_inbound_report(op, *report_crm);
  x[f::kInboundReport] = report.id;
  link_report(report, updated, inst->text(f::kContact), inst->text(f::kAccount),
              campaign->empty() ? inst->text(f::kCampaign) : *campaign, *method);
  op.tx.put(updated);
  finish_inbound_report(op, std::move(report), {});
  return IntentResult{response_body(op, *method, redirect), op.payment_intent_id};
}

}  // namespace fake_org
