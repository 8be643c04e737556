// New recurring payment (spec 2.5, 2.6, 4.1).
//
// Decisions (docs/decisions.md):
// - The initial payment rule (spec 2.6) is the processor's
//   InitialPaymentonRecurring; a violation is 010 naming rule, method and
//   processor. On update it applies to the processor changed to: Required needs
//   OneTime with Amount, No refuses OneTime.
// - A mandate is created with every setup and update: Pending while the payer
//   must act on a hosted page, Active otherwise (inline direct debit: signed
//   today). An update deactivates the previous mandate at once (Inactive,
//   deactivation date today).
// - Payment profiles: one active profile per contact + method + processor; a
//   new setup or update with the same combination updates it (bank data from
//   PaymentMethod.Parameters).
// - A hosted processor without an initial installment (none in the shipped
//   fixtures) opens a setup session for amount 0 without installment; its
//   RedirectURL is also the recurring record's SetupUrl.
// - The native recurring payment is Pending while a RedirectURL is open and
//   Active otherwise; recurring donations and gift commitments start Active.
#include <algorithm>

#include "bank_parameters.h"
#include "collection_run.h"
#include "crm_fields.h"
#include "fields.h"
#include "payer.h"
#include "payment_intent_ops.h"
#include "recurring_ops.h"
#include "views.h"

namespace fake_org {

namespace {

// CrmFields of Recurring for the connector's object(s): with the fundraising
// connector "GiftCommitment."-prefixed keys go to the commitment, the rest to
// the schedule (spec 2.1).
struct RecurringCrm {
  nlohmann::json main = nlohmann::json::object();
  nlohmann::json schedule = nlohmann::json::object();
};

Result<RecurringCrm> recurring_crm(const OperationContext& op, const SourceConnectorDef& conn,
                                   const nlohmann::json& crm) {
  const std::string path = "Recurring.CrmFields";
  const ObjectDef* main = op.config.object(conn.recurring_object);
  if (!main)
    return make_error(error_code::kUncategorised, path,
                      "The org has no object " + conn.recurring_object);
  RecurringCrm out;
  if (conn.kind != ConnectorKind::kFundraising) {
    auto check = check_crm_fields(crm, *main, path, &op.config);
    if (!check.ok()) return check.errors;
    out.main = check.values;
    return out;
  }
  const ObjectDef* sched = op.config.object(conn.schedule_object);
  if (!sched)
    return make_error(error_code::kUncategorised, path,
                      "The org has no object " + conn.schedule_object);
  static const std::string prefix = "GiftCommitment.";
  CrmFieldsCheck commitment, schedule;
  for (const auto& [key, value] : crm.items()) {
    if (key.rfind(prefix, 0) == 0)
      check_crm_field(key, key.substr(prefix.size()), value, *main, path, &op.config, commitment);
    else
      check_crm_field(key, key, value, *sched, path, &op.config, schedule);
  }
  ApiErrors errors = commitment.errors;
  errors.insert(errors.end(), schedule.errors.begin(), schedule.errors.end());
  if (!errors.empty()) return errors;
  out.main = commitment.values;
  out.schedule = schedule.values;
  return out;
}

Result<Date> check_date(const std::string& text, const std::string& path) {
  auto d = parse_date(text);
  if (!d)
    return make_error(error_code::kInvalidData, path,
                      path + " '" + text + "' is not a date YYYY-MM-DD naming a real calendar day");
  return *d;
}

}  // namespace

Result<IntentResult> new_recurring_payment(OperationContext& op) {
  const auto& req = op.req;
  const RecurringInput& rin = *req.recurring;
  const SourceConnectorDef& conn = *op.settings.connector;
  ApiErrors errors;

  auto resolved = resolve_recurring_method(op, "setup");
  collect(errors, resolved);
  auto amount = resolve_amount(op.config, *rin.amount, rin.currency, "Recurring.Amount");
  collect(errors, amount);
  if (!conn.frequencies.empty() && std::find(conn.frequencies.begin(), conn.frequencies.end(),
                                             rin.frequency) == conn.frequencies.end()) {
    std::string list;
    for (const auto& f : conn.frequencies) list += (list.empty() ? "" : ", ") + f;
    errors.push_back(make_error(error_code::kInvalidData, "Recurring.Frequency",
                                "Recurring.Frequency '" + rin.frequency +
                                    "' is not allowed by source connector " + conn.name +
                                    "; allowed: " + list));
  }
  auto start = check_date(rin.start_date, "Recurring.StartDate");
  collect(errors, start);
  std::optional<Date> end;
  if (!rin.end_date.empty()) {
    auto e = check_date(rin.end_date, "Recurring.EndDate");
    collect(errors, e);
    if (e.ok()) {
      end = *e;
      if (start.ok() && !(*start < *e))
        errors.push_back(make_error(error_code::kInvalidData, "Recurring.EndDate",
                                    "Recurring.EndDate " + rin.end_date +
                                        " must be after Recurring.StartDate " + rin.start_date));
    }
  }
  std::optional<Money> first;
  if (req.one_time && req.one_time->amount && amount.ok()) {
    std::string cur = req.one_time->currency.empty() ? amount->currency : req.one_time->currency;
    auto a = resolve_amount(op.config, *req.one_time->amount, cur, "OneTime.Amount");
    collect(errors, a);
    if (a.ok()) {
      if (a->currency != amount->currency)
        errors.push_back(make_error(error_code::kInvalidData, "OneTime.CurrencyISOCode",
                                    "OneTime.CurrencyISOCode " + a->currency +
                                        " differs from the recurring payment's currency " +
                                        amount->currency));
      first = *a;
    }
  }
  const CommonParameters common = resolve_common_parameters(op, errors);
  const std::string& campaign = common.campaign;
  auto rec_crm = recurring_crm(op, conn, rin.crm_fields);
  collect(errors, rec_crm);
  if (!errors.empty()) return errors;
  const ResolvedMethod* method = &resolved->method;

  // A gift commitment's DonorId is a required lookup to Account (the person,
  // household or organization account): a contact without one gets a household.
  auto payer = resolve_payer(*req.payer, PayerContext{op.config, op.tx, op.org.ids(), op.now,
                                                      conn.kind == ConnectorKind::kFundraising});
  if (!payer.ok()) return payer.errors();
  op.review_reasons = payer->review_reasons;
  stage_package_actions(op, resolved->actions, payer->contact_id, payer->account_id);
  const std::string& contact = payer->contact_id;
  const std::string& account = payer->account_id;
  const std::string start_text = format_date(*start);
  const std::string end_text = end ? format_date(*end) : "";

  // The recurring record(s) of the connector.
  Record rec = new_record(op, conn.recurring_object, "a0R",
                          conn.kind == ConnectorKind::kNonprofit ? "RD-" : "RP-");
  std::optional<Record> schedule;
  {
    auto& x = rec.fields;
    x[fields::kCurrency] = amount->currency;
    switch (conn.kind) {
      case ConnectorKind::kNative: {
        namespace f = fields::recurring_payment;
        x[f::kAmount] = amount->to_json_number();
        x[f::kFrequency] = rin.frequency;
        x[f::kStartDate] = start_text;
        if (end) x[f::kEndDate] = end_text;
        x[f::kNextCollectionDate] = start_text;
        if (!contact.empty()) x[f::kContact] = contact;
        if (!account.empty()) x[f::kAccount] = account;
        if (!campaign.empty()) x[f::kCampaign] = campaign;
        break;
      }
      case ConnectorKind::kNonprofit: {
        namespace f = fields::recurring_donation;
        x[f::kAmount] = amount->to_json_number();
        x[f::kPeriod] = rin.frequency;
        x[f::kDateEstablished] = format_date(date_of(op.now));
        x[f::kNextPaymentDate] = start_text;
        x[f::kStartDate] = start_text;
        if (end) x[f::kEndDate] = end_text;
        x[f::kOpenEndedStatus] = end ? "Closed" : "Open";
        x[f::kRecurringType] = end ? "Fixed" : "Open";
        x[f::kStatus] = "Active";
        if (!contact.empty()) x[f::kContact] = contact;
        if (!account.empty()) x[f::kOrganization] = account;
        if (!campaign.empty()) x[f::kCampaign] = campaign;
        break;
      }
      case ConnectorKind::kFundraising: {
        namespace f = fields::gift_commitment;
        namespace s = fields::gift_schedule;
        x[f::kStatus] = "Active";
        x[f::kScheduleType] = "Recurring";
        x[f::kEffectiveStartDate] = start_text;
        if (end) x[f::kExpectedEndDate] = end_text;
        x[f::kNextTransactionAmount] = amount->to_json_number();
        x[f::kNextTransactionDate] = start_text;
        if (!account.empty()) x[f::kDonor] = account;
        if (!campaign.empty()) x[f::kCampaign] = campaign;
        schedule = new_record(op, conn.schedule_object, "6cs", "GCS-");
        auto& y = schedule->fields;
        y[s::kCommitment] = rec.id;
        y[s::kAmount] = amount->to_json_number();
        y[s::kPeriod] = rin.frequency;
        y[s::kInterval] = 1;
        y[s::kStartDate] = start_text;
        if (end) y[s::kEndDate] = end_text;
        y[s::kType] = "CreateTransactions";
        y[s::kPaymentMethod] = schedule_payment_method(*method);
        if (!campaign.empty()) y[s::kCampaign] = campaign;
        y[fields::kCurrency] = amount->currency;
        for (const auto& [k, v] : rec_crm->schedule.items()) y[k] = v;
        x[f::kCurrentSchedule] = schedule->id;
        break;
      }
    }
    namespace r = fields::recurring;
    x[r::kMethod] = method->method->name;
    x[r::kProcessor] = method->processor->name;
    if (method->target) x[r::kTarget] = method->target->name;
    x[r::kSourceConnector] = conn.name;
    x[r::kPaymentIntentId] = op.payment_intent_id;
    for (const auto& [k, v] : rec_crm->main.items()) x[k] = v;
  }

  Record profile = upsert_payment_profile(op, *resolved, contact, account);
  Record mandate = new_mandate(op, *resolved, contact, account, conn.kind, rec.id);
  mandate.fields[fields::mandate::kPaymentProfile] = profile.id;
  rec.fields[fields::recurring::kMandate] = mandate.id;
  rec.fields[fields::recurring::kPaymentProfile] = profile.id;
  // Out of the collection index until a hosted page activates the mandate.
  rec.awaiting_payer = mandate.text(fields::mandate::kStatus) == "Pending";

  std::optional<Record> inst;
  if (first)
    inst = new_initial_installment(op, *first, *method, contact, account, campaign,
                                   common.installment_crm, conn, rec,
                                   schedule ? &*schedule : nullptr, mandate, profile);
  std::string redirect =
      open_recurring_session(op, *method, inst ? &*inst : nullptr, rec.id, amount->currency);
  if (!redirect.empty()) {
    rec.fields[fields::recurring::kSetupUrl] = redirect;
    if (inst) inst->fields[fields::installment::kPayUrl] = redirect;
  }
  if (conn.kind == ConnectorKind::kNative)
    rec.fields[fields::recurring_payment::kStatus] = redirect.empty() ? "Active" : "Pending";

  Record report = new_recurring_report(op, common.report_crm, rec, contact, account, campaign,
                                       *method, inst ? &*inst : nullptr);
  if (schedule) op.tx.put(*schedule);
  // Collectable from today (a hosted page's series: from the day it is paid).
  if (!rec.awaiting_payer) start_collecting(op.config, op.tx, rec, date_of(op.now));
  op.tx.put(rec);
  op.tx.put(mandate);
  return finish_recurring_intent(op, std::move(report), std::move(inst), *method, redirect);
}

}  // namespace fake_org
