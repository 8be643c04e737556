#pragma once
// Internal to the recurring operations (recurring_payments.cpp,
// recurring_update.cpp): the steps a setup and an update share.
#include <string>

#include "payment_intent_ops.h"

namespace fake_org {

// The installment's / mandate's lookup to the connector's recurring object.
const char* installment_link_field(ConnectorKind kind);
const char* mandate_link_field(ConnectorKind kind);

// A new mandate (not staged): Pending when the payer acts on a hosted page,
// Active otherwise.
Record new_mandate(OperationContext& op, const ResolvedMethod& method, const std::string& contact,
                   const std::string& account, ConnectorKind kind, const std::string& recurring_id);

// The contact's active profile for method + processor, updated with the bank
// data of PaymentMethod.Parameters, or a new one; staged.
Record upsert_payment_profile(OperationContext& op, const ResolvedMethod& method,
                              const std::string& contact, const std::string& account);

// The inbound report of a recurring operation (not staged).
Record new_recurring_report(OperationContext& op, const nlohmann::json& report_crm,
                            const Record& recurring, const std::string& contact,
                            const std::string& account, const std::string& campaign,
                            const ResolvedMethod& method, const Record* installment);

// RedirectURL for a hosted processor ("" otherwise), with or without installment.
std::string open_recurring_session(OperationContext& op, const ResolvedMethod& method,
                                   const Record* installment, const std::string& recurring_id,
                                   const std::string& currency);

// 200 when the processor cannot do recurring; 201..206 for bad bank data.
ApiErrors check_recurring_method(const ResolvedMethod& method);
// The initial payment rule (spec 2.6): 010 naming rule, method and processor.
ApiErrors check_one_time_for_recurring(const ResolvedMethod& method,
                                       const PaymentIntentRequest& req, const std::string& verb);

// The first installment of a setup or update, linked to the recurring record.
Record new_initial_installment(OperationContext& op, const Money& amount,
                               const ResolvedMethod& method, const std::string& contact,
                               const std::string& account, const std::string& campaign,
                               const nlohmann::json& crm, const SourceConnectorDef& conn,
                               const Record& recurring, const Record* schedule,
                               const Record& mandate, const Record& profile);

}  // namespace fake_org
