// New recurring payment and update of an existing one (spec 2.5, 2.6, 4.1).
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

template <typename T>
void collect(ApiErrors& errors, const Result<T>& r) {
  if (!r.ok()) errors.insert(errors.end(), r.errors().begin(), r.errors().end());
}

Record new_record(OperationContext& op, const std::string& object, const char* fallback_prefix,
                  const std::string& name_prefix) {
  const ObjectDef* def = op.config.object(object);
  Record r;
  r.object = object;
  r.id = op.org.ids().record_id(def ? def->key_prefix : fallback_prefix);
  r.guid = op.org.ids().guid();
  r.created = r.modified = op.now;
  if (!def || def->field(fields::kName)) r.fields[fields::kName] = name_prefix + r.id.substr(9, 6);
  r.fields[fields::kGuid] = r.guid;
  if (def && def->default_record_type())
    r.fields[fields::kRecordTypeName] = def->default_record_type()->name;
  return r;
}

// The schedule's PaymentMethod picklist (Salesforce Fundraising's values).
std::string schedule_payment_method(const ResolvedMethod& m) {
  if (m.method->bank_scheme != BankScheme::kNone) return "Direct Debit";
  std::string n = m.method->name;
  if (n.find("Card") != std::string::npos || n.find("card") != std::string::npos)
    return "Credit Card";
  if (n == "PayPal") return "PayPal";
  if (n == "ACH") return "ACH";
  return "Other";
}

const char* bank_scheme_name(BankScheme s) {
  switch (s) {
    case BankScheme::kSepa:
      return "SEPA";
    case BankScheme::kBacs:
      return "Bacs";
    case BankScheme::kAutogiro:
      return "Autogiro";
    case BankScheme::kNone:
      break;
  }
  return "None";
}

std::string param_text(const nlohmann::json& params, const char* name) {
  auto it = params.find(name);
  if (it == params.end() || it->is_null()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

nlohmann::json response_body(const OperationContext& op, const ResolvedMethod& method,
                             const std::string& redirect_url) {
  nlohmann::json body = {{"Id", op.payment_intent_id},
                         {"PaymentMethod", method.echo()},
                         {"Settings", op.settings.echo()}};
  if (!redirect_url.empty()) body["RedirectURL"] = redirect_url;
  return body;
}

// The initial payment rule (spec 2.6) for `method`; `verb` is "setup" or "update".
ApiErrors check_initial_payment(const ResolvedMethod& method, const PaymentIntentRequest& req,
                                const std::string& verb) {
  const InitialPayment rule = method.processor->initial_payment_on_recurring;
  const bool one_time = req.one_time.has_value();
  const std::string who = method.method->name + " with processor " + method.processor->name;
  if (rule == InitialPayment::kRequired && (!one_time || !req.one_time->amount))
    return {make_error(error_code::kMissingCoreParameter, "OneTime.Amount",
                       "A recurring " + verb + " with " + who +
                           " needs an initial payment (InitialPaymentonRecurring = Required, spec "
                           "2.6): add OneTime with Amount")};
  if (rule == InitialPayment::kNo && one_time)
    return {make_error(error_code::kMissingCoreParameter, "OneTime",
                       "A recurring " + verb + " with " + who +
                           " takes no initial payment (InitialPaymentonRecurring = No, spec 2.6): "
                           "remove the OneTime block")};
  if (one_time && !req.one_time->amount)
    return {make_error(error_code::kMissingCoreParameter, "OneTime.Amount",
                       "OneTime needs Amount for the initial payment of a recurring " + verb)};
  return {};
}

Result<Date> check_date(const std::string& text, const std::string& path) {
  auto d = parse_date(text);
  if (!d)
    return make_error(error_code::kInvalidData, path,
                      path + " '" + text + "' is not a date YYYY-MM-DD naming a real calendar day");
  return *d;
}

}  // namespace

// ---- shared with the update ------------------------------------------------

const char* installment_link_field(ConnectorKind kind) {
  switch (kind) {
    case ConnectorKind::kNative:
      return fields::installment::kRecurringPayment;
    case ConnectorKind::kNonprofit:
      return fields::installment::kRecurringDonation;
    case ConnectorKind::kFundraising:
      return fields::installment::kGiftCommitment;
  }
  return fields::installment::kRecurringPayment;
}

const char* mandate_link_field(ConnectorKind kind) {
  switch (kind) {
    case ConnectorKind::kNative:
      return fields::mandate::kRecurringPayment;
    case ConnectorKind::kNonprofit:
      return fields::mandate::kRecurringDonation;
    case ConnectorKind::kFundraising:
      return fields::mandate::kGiftCommitment;
  }
  return fields::mandate::kRecurringPayment;
}

Record new_mandate(OperationContext& op, const ResolvedMethod& method, const std::string& contact,
                   const std::string& account, ConnectorKind kind,
                   const std::string& recurring_id) {
  namespace f = fields::mandate;
  Record m = new_record(op, objects::kMandate, "a0D", "MD-");
  auto& x = m.fields;
  const bool pending = method.processor->hosted_page;
  x[f::kStatus] = pending ? "Pending" : "Active";
  if (!contact.empty()) x[f::kContact] = contact;
  if (!account.empty()) x[f::kAccount] = account;
  x[mandate_link_field(kind)] = recurring_id;
  x[f::kMethod] = method.method->name;
  x[f::kProcessor] = method.processor->name;
  if (method.target) x[f::kTarget] = method.target->name;
  x[f::kBankScheme] = bank_scheme_name(method.method->bank_scheme);
  if (method.method->bank_scheme != BankScheme::kNone) {
    x[f::kReference] = "CPM-" + op.org.ids().random_base36(16);
    if (!pending) x[f::kSignatureDate] = format_date(date_of(op.now));
  } else if (!pending) {
    x[f::kToken] = "tok_" + op.org.ids().random_base36(20);
  }
  x[f::kPaymentIntentId] = op.payment_intent_id;
  return m;
}

Record upsert_payment_profile(OperationContext& op, const ResolvedMethod& method,
                              const std::string& contact, const std::string& account) {
  namespace f = fields::payment_profile;
  Record p;
  bool found = false;
  if (!contact.empty()) {
    for (const auto& id : op.tx.find(index_name::kProfileByContactMethod,
                                     {contact, method.method->name, method.processor->name})) {
      auto r = op.tx.get(id);
      if (!r) continue;
      const auto* active = r->get(f::kActive);
      if (active && active->is_boolean() && active->get<bool>()) {
        p = *r;
        p.modified = op.now;
        found = true;
        break;
      }
    }
  }
  if (!found) {
    p = new_record(op, objects::kPaymentProfile, "a0H", "PP-");
    auto& x = p.fields;
    if (!contact.empty()) x[f::kContact] = contact;
    if (!account.empty()) x[f::kAccount] = account;
    x[f::kMethod] = method.method->name;
    x[f::kProcessor] = method.processor->name;
    x[f::kActive] = true;
    x[f::kToken] = "tok_" + op.org.ids().random_base36(20);
  }
  const std::pair<const char*, const char*> bank[] = {{"IBAN", f::kIban},
                                                      {"BIC", f::kBic},
                                                      {"AccountHolderName", f::kAccountHolderName},
                                                      {"SortCode", f::kSortCode},
                                                      {"AccountNumber", f::kAccountNumber},
                                                      {"ClearingNumber", f::kClearingNumber}};
  for (const auto& [param, field] : bank) {
    std::string v = param_text(method.parameters, param);
    if (!v.empty()) p.fields[field] = v;
  }
  op.tx.put(p);
  return p;
}

Record new_recurring_report(OperationContext& op, const nlohmann::json& report_crm,
                            const Record& recurring, const std::string& contact,
                            const std::string& account, const std::string& campaign,
                            const ResolvedMethod& method, const Record* installment) {
  namespace f = fields::inbound_report;
  Record report = new_inbound_report(op, report_crm);
  auto& x = report.fields;
  x[f::kRecurringId] = recurring.id;
  x[f::kRecurringObject] = recurring.object;
  if (installment) x[f::kInstallment] = installment->id;
  if (!contact.empty()) x[f::kContact] = contact;
  if (!account.empty()) x[f::kAccount] = account;
  if (!campaign.empty()) x[f::kCampaign] = campaign;
  x[f::kMethod] = method.method->name;
  x[f::kProcessor] = method.processor->name;
  if (method.target) x[f::kTarget] = method.target->name;
  return report;
}

std::string open_recurring_session(OperationContext& op, const ResolvedMethod& method,
                                   const Record* installment, const std::string& recurring_id,
                                   const std::string& currency) {
  if (installment) return open_session_if_hosted(op, method, *installment, recurring_id);
  // A setup without initial payment: amount 0, no installment.
  Record stub;
  stub.fields[fields::kCurrency] = currency;
  stub.fields[fields::installment::kAmountOpen] = 0;
  return open_session_if_hosted(op, method, stub, recurring_id);
}

ApiErrors check_recurring_method(const ResolvedMethod& method) {
  ApiErrors errors;
  if (!method.processor->supports_recurring)
    errors.push_back(make_error(error_code::kInvalidData, "PaymentMethod.Processor",
                                method.method->name + " with processor " + method.processor->name +
                                    " does not support recurring payments; GET /PaymentMethods "
                                    "lists the processors of each method"));
  ApiErrors bank = validate_bank_parameters(method);
  errors.insert(errors.end(), bank.begin(), bank.end());
  return errors;
}

ApiErrors check_one_time_for_recurring(const ResolvedMethod& method,
                                       const PaymentIntentRequest& req, const std::string& verb) {
  return check_initial_payment(method, req, verb);
}

Record new_initial_installment(OperationContext& op, const Money& amount,
                               const ResolvedMethod& method, const std::string& contact,
                               const std::string& account, const std::string& campaign,
                               const nlohmann::json& crm, const SourceConnectorDef& conn,
                               const Record& recurring, const Record* schedule,
                               const Record& mandate, const Record& profile) {
  Record inst = new_installment(op, amount, method, contact, account, campaign);
  for (const auto& [k, v] : crm.items()) inst.fields[k] = v;
  inst.fields[installment_link_field(conn.kind)] = recurring.id;
  if (schedule) inst.fields[fields::installment::kGiftCommitmentSchedule] = schedule->id;
  inst.fields[fields::installment::kMandate] = mandate.id;
  inst.fields[fields::installment::kPaymentProfile] = profile.id;
  return inst;
}

// ---- new recurring payment -------------------------------------------------

Result<IntentResult> new_recurring_payment(OperationContext& op) {
  const auto& req = op.req;
  const RecurringInput& rin = *req.recurring;
  const SourceConnectorDef& conn = *op.settings.connector;
  ApiErrors errors;

  auto method = resolve_payment_method(op.config, *req.payment_method);
  collect(errors, method);
  if (method.ok()) {
    ApiErrors more = check_recurring_method(*method);
    errors.insert(errors.end(), more.begin(), more.end());
    more = check_initial_payment(*method, req, "setup");
    errors.insert(errors.end(), more.begin(), more.end());
  }
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
  auto campaign = resolve_campaign(op);
  collect(errors, campaign);
  auto report_crm = crm_values(op, req.crm_fields, objects::kInboundReport, "CrmFields");
  collect(errors, report_crm);
  nlohmann::json inst_crm_values = nlohmann::json::object();
  if (req.one_time) {
    auto inst_crm =
        crm_values(op, req.one_time->crm_fields, objects::kInstallment, "OneTime.CrmFields");
    collect(errors, inst_crm);
    if (inst_crm.ok()) inst_crm_values = *inst_crm;
  }
  auto rec_crm = recurring_crm(op, conn, rin.crm_fields);
  collect(errors, rec_crm);
  if (!errors.empty()) return errors;

  auto payer = resolve_payer(*req.payer, PayerContext{op.config, op.tx, op.org.ids(), op.now});
  if (!payer.ok()) return payer.errors();
  op.review_reasons = payer->review_reasons;
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
        if (!campaign->empty()) x[f::kCampaign] = *campaign;
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
        if (!campaign->empty()) x[f::kCampaign] = *campaign;
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
        if (!campaign->empty()) x[f::kCampaign] = *campaign;
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
        if (!campaign->empty()) y[s::kCampaign] = *campaign;
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

  Record profile = upsert_payment_profile(op, *method, contact, account);
  Record mandate = new_mandate(op, *method, contact, account, conn.kind, rec.id);
  mandate.fields[fields::mandate::kPaymentProfile] = profile.id;
  rec.fields[fields::recurring::kMandate] = mandate.id;
  rec.fields[fields::recurring::kPaymentProfile] = profile.id;

  std::optional<Record> inst;
  if (first)
    inst =
        new_initial_installment(op, *first, *method, contact, account, *campaign, inst_crm_values,
                                conn, rec, schedule ? &*schedule : nullptr, mandate, profile);
  std::string redirect =
      open_recurring_session(op, *method, inst ? &*inst : nullptr, rec.id, amount->currency);
  if (!redirect.empty()) {
    rec.fields[fields::recurring::kSetupUrl] = redirect;
    if (inst) inst->fields[fields::installment::kPayUrl] = redirect;
  }
  if (conn.kind == ConnectorKind::kNative)
    rec.fields[fields::recurring_payment::kStatus] = redirect.empty() ? "Active" : "Pending";

  Record report = new_recurring_report(op, *report_crm, rec, contact, account, *campaign, *method,
                                       inst ? &*inst : nullptr);
  op.tx.put(rec);
  if (schedule) op.tx.put(*schedule);
  op.tx.put(mandate);
  std::vector<DomainEvent> created;
  if (inst) {
    inst->fields[fields::installment::kInboundReport] = report.id;
    op.tx.put(*inst);
    created.push_back(installment_event(op, event_type::kInstallmentCreated, *inst));
  }
  finish_inbound_report(op, std::move(report), std::move(created));
  return IntentResult{response_body(op, *method, redirect), op.payment_intent_id};
}

}  // namespace fake_org
