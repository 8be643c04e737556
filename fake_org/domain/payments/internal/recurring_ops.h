#pragma once
// Internal to the recurring operations (recurring_payments.cpp,
// recurring_update.cpp): the steps a setup and an update share
// (recurring_ops.cpp).
#include <optional>
#include <string>

#include "domain/payments/connectors.h"
#include "payment_intent_ops.h"

namespace fake_org {

// PaymentMethod of a setup or update ("setup" / "update"), checked for
// recurring: 200 when the processor cannot do recurring, 201..206 for bad
// bank data, 010 for the initial payment rule (spec 2.6) naming rule, method
// and processor.
// The package actions of the request are checked here too (spec 2.8).
//
// Spec 4.1 rule 3: PaymentMethod.Parameters may carry optional additional
// parameters for the related records: "MandateReference" (up to 35
// characters, SEPA's limit) and "SignatureDate" (YYYY-MM-DD, not in the
// future) of a mandate signed elsewhere, and "Mandate.<field>" /
// "PaymentProfile.<field>" for the writable fields of those objects (as
// CrmFields: unknown or system fields are 200 naming the object).
struct RecurringMethod {
  ResolvedMethod method;
  std::vector<PackageActionUse> actions;
  nlohmann::json mandate_fields = nlohmann::json::object();  // field -> value
  nlohmann::json profile_fields = nlohmann::json::object();
};
Result<RecurringMethod> resolve_recurring_method(const OperationContext& op,
                                                 const std::string& verb);

// A new mandate (not staged): Pending when the payer acts on a hosted page,
// Active otherwise.
// `extra` (RecurringMethod::mandate_fields) is written over the defaults.
// It authorises the series of `connector`'s record `recurring_id`; a one-time
// inline direct debit (no connector, empty id) links no series.
Record new_mandate(OperationContext& op, const RecurringMethod& method, const std::string& contact,
                   const std::string& account, const ConnectorDescriptor* connector,
                   const std::string& recurring_id);

// The contact's active profile for method + processor, updated with the bank
// data of PaymentMethod.Parameters, or a new one; staged. Parameters naming
// another bank account (IBAN, sort code, account, clearing or routing number
// differing from the stored one, spacing and case aside) make a new profile
// and leave the old one with its data, inactive (decisions row 26).
// RecurringMethod::profile_fields are written last.
Record upsert_payment_profile(OperationContext& op, const RecurringMethod& method,
                              const std::string& contact, const std::string& account);

// The inbound report of a recurring operation (not staged).
Record new_recurring_report(OperationContext& op, const nlohmann::json& report_crm,
                            const Record& recurring, const std::string& contact,
                            const std::string& account, const std::string& campaign,
                            const ResolvedMethod& method, const Record* installment);

// The end of a setup or update once the recurring record, its schedule and
// mandate are staged: the initial installment (when there is one) is linked to
// the report and staged with its installment.created event, the report is
// filed, and the response body built.
IntentResult finish_recurring_intent(OperationContext& op, Record report,
                                     std::optional<Record> installment,
                                     const ResolvedMethod& method, const std::string& redirect);

// RedirectURL for a hosted processor ("" otherwise), with or without installment.
std::string open_recurring_session(OperationContext& op, const ResolvedMethod& method,
                                   const Record* installment, const std::string& recurring_id,
                                   const std::string& currency);

// A new record of `object` with id, GUID, Name and default record type.
Record new_record(OperationContext& op, const std::string& object, const char* fallback_prefix,
                  const std::string& name_prefix);

// The gift commitment schedule's PaymentMethod picklist value for a method.
std::string schedule_payment_method(const ResolvedMethod& m);

// The first installment of a setup or update, linked to the recurring record.
Record new_initial_installment(OperationContext& op, const Money& amount,
                               const ResolvedMethod& method, const std::string& contact,
                               const std::string& account, const std::string& campaign,
                               const nlohmann::json& crm, const SourceConnectorDef& conn,
                               const Record& recurring, const Record* schedule,
                               const Record& mandate, const Record& profile);

}  // namespace fake_org
