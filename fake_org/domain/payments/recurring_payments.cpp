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

#include "collection_run.h"
#include "connectors.h"
#include "domain/banking/bank_parameters.h"
#include "domain/config/crm_fields.h"
#include "domain/core/fields.h"
#include "domain/payers/payer.h"
#include "domain/payments/internal/payment_intent_ops.h"
#include "domain/payments/internal/recurring_ops.h"
#include "views.h"

namespace fake_org {

namespace {

// CrmFields of Recurring for the connector's object(s): with a schedule object
// the keys with the connector's prefix ("GiftCommitment.") go to the
// recurring record, the rest to the schedule (spec 2.1).
struct RecurringCrm {
  nlohmann::json main = nlohmann::json::object();
  nlohmann::json schedule = nlohmann::json::object();
};

Result<RecurringCrm> recurring_crm(const OperationContext& op, const SourceConnectorDef& conn,
                                   const nlohmann::json& crm) {
  const std::string path = "Recurring.CrmFields";
  const ConnectorDescriptor& d = descriptor(conn);
  const ObjectDef* main = op.config.object(conn.recurring_object);
  if (!main)
    return make_error(error_code::kUncategorised, path,
                      "The org has no object " + conn.recurring_object);
  RecurringCrm out;
  if (!d.has_schedule()) {
    auto check = check_crm_fields(crm, *main, path, &op.config);
    if (!check.ok()) return check.errors;
    out.main = check.values;
    return out;
  }
  const ObjectDef* sched = op.config.object(conn.schedule_object);
  if (!sched)
    return make_error(error_code::kUncategorised, path,
                      "The org has no object " + conn.schedule_object);
  const std::string prefix = d.schedule.record_crm_prefix;
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

// What a setup asks, checked before anything is staged.
struct SetupInput {
  RecurringMethod method;
  Money amount;
  Date start;
  std::optional<Date> end;
  std::optional<Money> first;  // the initial payment of OneTime
  CommonParameters common;
  RecurringCrm crm;
};

ApiErrors check_frequency(const SourceConnectorDef& conn, const std::string& frequency) {
  const auto& allowed = conn.frequencies;
  if (allowed.empty() || std::find(allowed.begin(), allowed.end(), frequency) != allowed.end())
    return {};
  std::string list;
  for (const auto& f : allowed) list += (list.empty() ? "" : ", ") + f;
  return {make_error(error_code::kInvalidData, "Recurring.Frequency",
                     "Recurring.Frequency '" + frequency + "' is not allowed by source connector " +
                         conn.name + "; allowed: " + list)};
}

// Recurring.StartDate and EndDate, the end after the start.
void check_dates(const RecurringInput& rin, ApiErrors& errors, SetupInput& out) {
  auto start = check_date(rin.start_date, "Recurring.StartDate");
  collect(errors, start);
  if (start.ok()) out.start = *start;
  if (rin.end_date.empty()) return;
  auto e = check_date(rin.end_date, "Recurring.EndDate");
  collect(errors, e);
  if (!e.ok()) return;
  out.end = *e;
  if (start.ok() && !(*start < *e))
    errors.push_back(make_error(error_code::kInvalidData, "Recurring.EndDate",
                                "Recurring.EndDate " + rin.end_date +
                                    " must be after Recurring.StartDate " + rin.start_date));
}

// OneTime.Amount, the initial payment, in the recurring payment's currency.
void check_first_payment(const OperationContext& op, const Money& amount, ApiErrors& errors,
                         SetupInput& out) {
  const auto& one_time = op.req.one_time;
  if (!one_time || !one_time->amount) return;
  std::string cur = one_time->currency.empty() ? amount.currency : one_time->currency;
  auto a = resolve_amount(op.config, *one_time->amount, cur, "OneTime.Amount");
  collect(errors, a);
  if (!a.ok()) return;
  if (a->currency != amount.currency)
    errors.push_back(make_error(error_code::kInvalidData, "OneTime.CurrencyISOCode",
                                "OneTime.CurrencyISOCode " + a->currency +
                                    " differs from the recurring payment's currency " +
                                    amount.currency));
  out.first = *a;
}

Result<SetupInput> check_setup(OperationContext& op, const SourceConnectorDef& conn) {
  const RecurringInput& rin = *op.req.recurring;
  SetupInput in;
  ApiErrors errors;
  auto resolved = resolve_recurring_method(op, "setup");
  collect(errors, resolved);
  auto amount = resolve_amount(op.config, *rin.amount, rin.currency, "Recurring.Amount");
  collect(errors, amount);
  if (resolved.ok() && amount.ok())
    collect(errors, validate_scheme_currency(resolved->method, amount->currency,
                                             "Recurring.CurrencyISOCode"));
  collect(errors, check_frequency(conn, rin.frequency));
  check_dates(rin, errors, in);
  if (amount.ok()) check_first_payment(op, *amount, errors, in);
  in.common = resolve_common_parameters(op, errors);
  auto crm = recurring_crm(op, conn, rin.crm_fields);
  collect(errors, crm);
  if (!errors.empty()) return errors;
  in.method = *resolved;
  in.amount = *amount;
  in.crm = *crm;
  return in;
}

// A setup's value for `v`; nullopt when it writes nothing.
std::optional<nlohmann::json> setup_value(const OperationContext& op, const SetupInput& in,
                                          const SetupValue& v) {
  using From = SetupValue::From;
  switch (v.from) {
    case From::kText:
      return v.text;
    case From::kToday:
      return format_date(date_of(op.now));
    case From::kStartDate:
      return format_date(in.start);
    case From::kEndDate:
      if (!in.end) return std::nullopt;
      return format_date(*in.end);
    case From::kAmount:
      return in.amount.to_json_number();
    case From::kByEnd:
      return in.end ? v.text : v.open_text;
  }
  return std::nullopt;
}

void write_setup_values(const OperationContext& op, const SetupInput& in,
                        const std::vector<SetupValue>& values, FieldMap& x) {
  for (const auto& v : values)
    if (auto value = setup_value(op, in, v)) x[v.field] = *value;
}

// Amount, frequency and dates of the series.
void write_terms(const ConnectorDescriptor& d, const OperationContext& op, const SetupInput& in,
                 FieldMap& x) {
  x[d.terms.amount] = in.amount.to_json_number();
  x[d.terms.frequency] = op.req.recurring->frequency;
  if (d.terms.interval) x[d.terms.interval] = 1;
  x[d.terms.start_date] = format_date(in.start);
  if (in.end) x[d.terms.end_date] = format_date(*in.end);
}

// The new recurring record and, when the connector has one, its schedule
// (not staged).
struct NewSeries {
  Record record;
  std::optional<Record> schedule;
};

NewSeries new_series(OperationContext& op, const SourceConnectorDef& conn, const SetupInput& in,
                     const std::string& contact, const std::string& account) {
  const ConnectorDescriptor& d = descriptor(conn);
  const std::string& campaign = in.common.campaign;
  NewSeries out{new_record(op, conn.recurring_object, "a0R", d.name_prefix), std::nullopt};
  Record& rec = out.record;
  auto& x = rec.fields;
  x[fields::kCurrency] = in.amount.currency;
  if (!d.has_schedule()) write_terms(d, op, in, x);
  x[d.next_due] = format_date(in.start);
  x[d.status] = d.active_status;
  if (d.contact && !contact.empty()) x[d.contact] = contact;
  if (!account.empty()) x[d.account] = account;
  if (!campaign.empty()) x[d.campaign] = campaign;
  write_setup_values(op, in, d.record_setup, x);
  if (d.has_schedule()) {
    out.schedule =
        new_record(op, conn.schedule_object, d.schedule.key_prefix, d.schedule.name_prefix);
    auto& y = out.schedule->fields;
    y[d.schedule.record_link] = rec.id;
    write_terms(d, op, in, y);
    write_setup_values(op, in, d.schedule.setup, y);
    y[d.schedule.payment_method] = schedule_payment_method(in.method.method);
    if (!campaign.empty()) y[d.schedule.campaign] = campaign;
    y[fields::kCurrency] = in.amount.currency;
    for (const auto& [k, v] : in.crm.schedule.items()) y[k] = v;
    x[d.schedule.current] = out.schedule->id;
  }
  namespace r = fields::recurring;
  const ResolvedMethod& method = in.method.method;
  x[r::kMethod] = method.method->name;
  x[r::kProcessor] = method.processor->name;
  if (method.target) x[r::kTarget] = method.target->name;
  x[r::kSourceConnector] = conn.name;
  x[r::kPaymentIntentId] = op.payment_intent_id;
  for (const auto& [k, v] : in.crm.main.items()) x[k] = v;
  return out;
}

}  // namespace

Result<IntentResult> new_recurring_payment(OperationContext& op) {
  const SourceConnectorDef& conn = *op.settings.connector;
  const ConnectorDescriptor& d = descriptor(conn);
  auto input = check_setup(op, conn);
  if (!input.ok()) return input.errors();
  const ResolvedMethod* method = &input->method.method;
  const std::string& campaign = input->common.campaign;

  auto payer =
      resolve_payer(*op.req.payer, PayerContext{op.config, op.tx, op.org.ids(), op.now,
                                                d.payer_needs_account, d.creates_households});
  if (!payer.ok()) return payer.errors();
  op.review_reasons = payer->review_reasons;
  stage_package_actions(op, input->method.actions, payer->contact_id, payer->account_id);
  const std::string& contact = payer->contact_id;
  const std::string& account = payer->account_id;

  NewSeries series = new_series(op, conn, *input, contact, account);
  Record& rec = series.record;
  Record profile = upsert_payment_profile(op, input->method, contact, account);
  Record mandate = new_mandate(op, input->method, contact, account, &d, rec.id);
  mandate.fields[fields::mandate::kPaymentProfile] = profile.id;
  rec.fields[fields::recurring::kMandate] = mandate.id;
  rec.fields[fields::recurring::kPaymentProfile] = profile.id;
  // Out of the collection index until a hosted page activates the mandate.
  rec.awaiting_payer = mandate.text(fields::mandate::kStatus) == "Pending";

  std::optional<Record> inst;
  if (input->first)
    inst = new_initial_installment(op, *input->first, *method, contact, account, campaign,
                                   input->common.installment_crm, conn, rec,
                                   series.schedule ? &*series.schedule : nullptr, mandate, profile);
  std::string redirect =
      open_recurring_session(op, *method, inst ? &*inst : nullptr, rec.id, input->amount.currency);
  if (!redirect.empty()) {
    rec.fields[fields::recurring::kSetupUrl] = redirect;
    if (inst) inst->fields[fields::installment::kPayUrl] = redirect;
  }
  if (d.pending_while_payer_acts)
    rec.fields[d.status] = redirect.empty() ? d.active_status : "Pending";

  Record report = new_recurring_report(op, input->common.report_crm, rec, contact, account,
                                       campaign, *method, inst ? &*inst : nullptr);
  if (series.schedule) op.tx.put(*series.schedule);
  // Collectable from today (a hosted page's series: from the day it is paid).
  if (!rec.awaiting_payer) start_collecting(op.config, op.tx, rec, date_of(op.now));
  op.tx.put(rec);
  op.tx.put(mandate);
  return finish_recurring_intent(op, std::move(report), std::move(inst), *method, redirect);
}

}  // namespace fake_org
