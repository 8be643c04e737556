#pragma once
// How records appear in responses and webhook bodies (spec 2.9, 2.10, 4.2,
// 6.3). Reads and webhooks share these, so a webhook never disagrees with
// the read endpoint it stands for.
#include <nlohmann/json.hpp>

#include "domain/config/org_config.h"
#include "domain/org/org.h"
#include "domain/store/record.h"
#include "domain/store/transaction.h"

namespace fake_org {

// {"Url", "Type", "Id"} plus "Name" for contacts and accounts, "Status" for installments.
nlohmann::json record_ref(const Org& org, const Record& r);

// The RecordTypeName every read shows (GET /Installment, /Payment, /Recurring
// and the installment webhooks): the record's own, else its object's default
// record type in the fixture, else "Master", the platform's name for an object
// without record types (the spec's samples show it). One rule, so a read never
// disagrees with another read or a webhook about the same record.
std::string record_type_name(const OrgConfig& config, const Record& r);

// GET /PaymentIntent/{ID} and the data of paymentIntent.* events.
nlohmann::json payment_intent_view(const Org& org, const RecordReader& records,
                                   const Record& report);
// GET /Installment/{ID}: the fields of spec 2.10 plus GUID and CurrencyISOCode
// (4.3 leaves its list open; a reader by GUID wants both).
// `records` is the committed store or the transaction that is changing them.
nlohmann::json installment_view(const Org& org, const RecordReader& records,
                                const Record& installment);
// The data of installment events: exactly spec 2.10's list for the webhook
// body (6.3), the same values as installment_view; empty fields omitted.
nlohmann::json installment_webhook_view(const Org& org, const RecordReader& records,
                                        const Record& installment);

// Index names the domain uses beside the deduplication rules.
namespace index_name {
inline constexpr const char* kReportByIntent = "report.payment_intent";
inline constexpr const char* kInstallmentByIntent = "installment.payment_intent";
inline constexpr const char* kPaymentByInstallment = "payment.installment";
// Payment profiles by contact, method and processor (deduplication, spec 2.12).
inline constexpr const char* kProfileByContactMethod = "profile.contact_method_processor";
}  // namespace index_name

// A field's text under `key`, left out when empty: views omit empty fields
// (spec 2.10).
void put_text(nlohmann::json& into, const char* key, const Record& r, const char* field);

// The lookups above, as the store keeps them (org_modules.cpp adds them to
// every org).
void add_payment_lookup_indexes(std::vector<IndexSpec>& out);

}  // namespace fake_org
