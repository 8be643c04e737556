// Steps a recurring setup (recurring_payments.cpp) and an update
// (recurring_update.cpp) share: records of the connector, mandate, payment
// profile, initial payment rule, initial installment, inbound report.
#include "domain/payments/internal/recurring_ops.h"

#include <cctype>

#include "domain/banking/bank_parameters.h"
#include "domain/config/crm_fields.h"
#include "domain/core/fields.h"
#include "views.h"

namespace fake_org {

Record new_record(OperationContext& op, const std::string& object, const char* fallback_prefix,
                  const std::string& name_prefix) {
  const ObjectDef* def = op.config.object(object);
  Record r;
  r.object = object;
  r.id = op.org.ids().record_id(def ? def->key_prefix : fallback_prefix);
  r.guid = op.org.ids().guid();
  r.created = r.modified = op.now;
  if (!def || def->field(fields::kName)) r.fields[fields::kName] = name_prefix + r.id.substr(9, 6);
  if (def && def->default_record_type())
    r.fields[fields::kRecordTypeName] = def->default_record_type()->name;
  return r;
}

// The schedule's PaymentMethod picklist (Salesforce Fundraising's values).
std::string schedule_payment_method(const ResolvedMethod& m) {
  // By the fixture's method kind (card / bank / wallet), not its name.
  if (m.method->bank_scheme != BankScheme::kNone) return "Direct Debit";
  if (m.method->kind == MethodKind::kCard) return "Credit Card";
  const std::string& n = m.method->name;
  if (n == "PayPal") return "PayPal";
  if (n == "ACH") return "ACH";
  return "Other";
}

namespace {

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

}  // namespace

Record new_mandate(OperationContext& op, const RecurringMethod& rm, const std::string& contact,
                   const std::string& account, const ConnectorDescriptor* connector,
                   const std::string& recurring_id) {
  const ResolvedMethod& method = rm.method;
  namespace f = fields::mandate;
  Record m = new_record(op, objects::kMandate, "a0D", "MD-");
  auto& x = m.fields;
  const bool pending = method.processor->hosted_page;
  x[f::kStatus] = pending ? "Pending" : "Active";
  if (!contact.empty()) x[f::kContact] = contact;
  if (!account.empty()) x[f::kAccount] = account;
  // A one-time inline direct debit has a mandate of its own, with no series.
  if (connector && !recurring_id.empty()) x[connector->mandate_link] = recurring_id;
  x[f::kMethod] = method.method->name;
  x[f::kProcessor] = method.processor->name;
  if (method.target) x[f::kTarget] = method.target->name;
  x[f::kBankScheme] = bank_scheme_name(method.method->bank_scheme);
  // A bank debit (a European scheme or US ACH) has a mandate reference and
  // a signature date; a card mandate keeps a token instead.
  if (method.method->kind == MethodKind::kBank) {
    x[f::kReference] = "CPM-" + op.org.ids().random_base36(16);
    if (!pending) x[f::kSignatureDate] = format_date(date_of(op.now));
  } else if (!pending) {
    x[f::kToken] = "tok_" + op.org.ids().random_base36(20);
  }
  x[f::kPaymentIntentId] = op.payment_intent_id;
  for (const auto& [k, v] : rm.mandate_fields.items()) x[k] = v;
  return m;
}

namespace {

namespace fpp = fields::payment_profile;

// PaymentMethod.Parameters -> profile field, the bank account's identity first.
constexpr std::pair<const char*, const char*> kAccountIdentity[] = {
    {"IBAN", fpp::kIban},
    {"SortCode", fpp::kSortCode},
    {"AccountNumber", fpp::kAccountNumber},
    {"ClearingNumber", fpp::kClearingNumber},
    {"RoutingNumber", fpp::kRoutingNumber}};
constexpr std::pair<const char*, const char*> kAccountDetails[] = {
    {"BIC", fpp::kBic}, {"AccountHolderName", fpp::kAccountHolderName}};

// "60-16-13", "60 16 13" and "601613" are one sort code: 601613.
std::string account_key(std::string_view v) {
  std::string out;
  for (char c : v)
    if (c != ' ' && c != '-') out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// True when Parameters name another bank account than the profile holds: a
// part of the account's identity is sent and differs from the stored one. A
// part the profile lacks is filled in, not "another account" (a hosted page's
// profile, a card profile); BIC and holder name are details of one account.
bool names_another_account(const Record& profile, const nlohmann::json& params) {
  for (const auto& [param, field] : kAccountIdentity) {
    std::string sent = account_key(param_text(params, param));
    std::string stored = account_key(profile.text(field));
    if (!sent.empty() && !stored.empty() && sent != stored) return true;
  }
  return false;
}

}  // namespace

Record upsert_payment_profile(OperationContext& op, const RecurringMethod& rm,
                              const std::string& contact, const std::string& account) {
  const ResolvedMethod& method = rm.method;
  namespace f = fields::payment_profile;
  Record p;
  bool found = false;
  if (!contact.empty()) {
    // The index holds the contact's profiles of this method and processor
    // (a handful: one active, the accounts replaced before it inactive).
    for (const auto& id : op.tx.find(index_name::kProfileByContactMethod,
                                     {contact, method.method->name, method.processor->name})) {
      auto r = op.tx.get(id);
      if (!r) continue;
      auto active = r->get(f::kActive);
      if (!active || !active->is_boolean() || !active->get<bool>()) continue;
      if (names_another_account(*r, method.parameters)) {
        // A new bank account gets a new profile; the old one keeps
        // the old account's data (its mandates still name it) and is
        // deactivated, so the contact has one active profile per method and
        // processor (decisions row 26).
        Record old = *r;
        old.modified = op.now;
        old.fields[f::kActive] = false;
        op.tx.put(std::move(old));
        break;
      }
      p = *r;
      p.modified = op.now;
      found = true;
      break;
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
  // Account numbers are stored in their electronic form (no spaces or
  // dashes, upper case), as a PSP keeps them: "8424-4" is clearing number
  // 84244, and an IBAN typed in groups of four would not fit its 34
  // characters. BIC and holder name are kept as sent.
  for (const auto& [param, field] : kAccountIdentity) {
    std::string v = account_key(param_text(method.parameters, param));
    if (!v.empty()) p.fields[field] = v;
  }
  for (const auto& [param, field] : kAccountDetails) {
    std::string v = param_text(method.parameters, param);
    if (!v.empty()) p.fields[field] = v;
  }
  for (const auto& [k, v] : rm.profile_fields.items()) p.fields[k] = v;
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

IntentResult finish_recurring_intent(OperationContext& op, Record report,
                                     std::optional<Record> installment,
                                     const ResolvedMethod& method, const std::string& redirect) {
  std::vector<DomainEvent> created;
  if (installment) {
    installment->fields[fields::installment::kInboundReport] = report.id;
    op.tx.put(*installment);
    created.push_back(installment_event(op, event_type::kInstallmentCreated, *installment));
  }
  finish_inbound_report(op, std::move(report), std::move(created));
  return IntentResult{intent_response_body(op, method, redirect), op.payment_intent_id};
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

namespace {

// 200 when the processor cannot do recurring; 201..206 for bad bank data.
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

// Spec 4.1 rule 3: the additional parameters for mandate and profile.
ApiErrors related_record_fields(const OperationContext& op, const nlohmann::json& params,
                                RecurringMethod& out) {
  static const std::string mandate_prefix = "Mandate.", profile_prefix = "PaymentProfile.";
  const std::string path = "PaymentMethod.Parameters";
  const ObjectDef* mandate = op.config.object(objects::kMandate);
  const ObjectDef* profile = op.config.object(objects::kPaymentProfile);
  CrmFieldsCheck m, p;
  ApiErrors errors;
  for (const auto& [key, value] : params.items()) {
    if (key.rfind(mandate_prefix, 0) == 0 && mandate)
      check_crm_field(key, key.substr(mandate_prefix.size()), value, *mandate, path, &op.config, m);
    else if (key.rfind(profile_prefix, 0) == 0 && profile)
      check_crm_field(key, key.substr(profile_prefix.size()), value, *profile, path, &op.config, p);
  }
  if (auto ref = param_text(params, "MandateReference"); !ref.empty()) {
    if (ref.size() > 35)
      errors.push_back(make_error(
          error_code::kInvalidData, path + ".MandateReference",
          path + ".MandateReference '" + ref + "' is longer than 35 characters (the SEPA limit)"));
    else
      m.values[fields::mandate::kReference] = ref;
  }
  if (auto signed_on = param_text(params, "SignatureDate"); !signed_on.empty()) {
    auto d = parse_date(signed_on);
    if (!d || date_of(op.now) < *d)
      errors.push_back(make_error(
          error_code::kInvalidData, path + ".SignatureDate",
          path + ".SignatureDate '" + signed_on + "' must be a date YYYY-MM-DD, today or earlier"));
    else
      m.values[fields::mandate::kSignatureDate] = format_date(*d);
  }
  collect(errors, m.errors);
  collect(errors, p.errors);
  out.mandate_fields = m.values;
  out.profile_fields = p.values;
  return errors;
}

}  // namespace

Result<RecurringMethod> resolve_recurring_method(const OperationContext& op,
                                                 const std::string& verb) {
  auto method = resolve_payment_method(op.config, *op.req.payment_method);
  if (!method.ok()) return method.errors();
  ApiErrors errors = check_recurring_method(*method);
  collect(errors, check_initial_payment(*method, op.req, verb));
  auto actions = check_request_package_actions(op, *method);
  collect(errors, actions);
  RecurringMethod out{*method, {}, {}, {}};
  collect(errors, related_record_fields(op, method->parameters, out));
  if (!errors.empty()) return errors;
  out.actions = *actions;
  return out;
}

Record new_initial_installment(OperationContext& op, const Money& amount,
                               const ResolvedMethod& method, const std::string& contact,
                               const std::string& account, const std::string& campaign,
                               const nlohmann::json& crm, const SourceConnectorDef& conn,
                               const Record& recurring, const Record* schedule,
                               const Record& mandate, const Record& profile) {
  Record inst = new_installment(op, amount, method, contact, account, campaign);
  for (const auto& [k, v] : crm.items()) inst.fields[k] = v;
  const ConnectorDescriptor& d = descriptor(conn);
  inst.fields[d.installment_link] = recurring.id;
  if (schedule) inst.fields[d.schedule.installment_link] = schedule->id;
  inst.fields[fields::installment::kMandate] = mandate.id;
  inst.fields[fields::installment::kPaymentProfile] = profile.id;
  return inst;
}

}  // namespace fake_org
