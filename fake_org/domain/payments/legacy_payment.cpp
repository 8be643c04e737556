// POST /Payment and GET /Payment/{ID} (spec 4.7): run the translated request
// through the shared payment-intent operations and answer in the older shape.
#include "legacy_payment.h"

#include <algorithm>
#include <utility>

#include "domain/config/org_config.h"
#include "domain/core/fields.h"
#include "domain/store/record.h"
#include "domain/store/transaction.h"
#include "views.h"

namespace fake_org {

using nlohmann::json;

json legacy_failure_body(const ApiErrors& errors) {
  if (errors.empty())
    return {{"ResponseCode", error_code::kUncategorised},
            {"IsSuccess", false},
            {"Message", "The request failed without a reason; please report this"}};
  // Missing core parameters first, as POST /PaymentIntent orders them.
  ApiErrors sorted = errors;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const ApiError& a, const ApiError& b) { return a.code < b.code; });
  std::string message;
  for (const auto& e : sorted) message += (message.empty() ? "" : "; ") + e.message;
  return {{"ResponseCode", sorted.front().code}, {"IsSuccess", false}, {"Message", message}};
}

json legacy_success_body(const LegacyPaymentRequest& req, const IntentResult& result) {
  const IntentRecords& r = result.records;
  // Deduplicated: an existing record the request did not name by id, found
  // by the org's rules (spec 2.2). A person account's contact reached through
  // AccountId was named, not found.
  const bool contact_dedup = req.allow_deduplication && r.contact_existed &&
                             !req.contact_id_given && !(req.account_id_given && r.person_account);
  const bool account_dedup = req.allow_deduplication && r.account_existed &&
                             !req.account_id_given &&
                             (req.account_fields_given || (r.person_account && contact_dedup));
  json payer = {{"ContactDeduplicated", contact_dedup}, {"AccountDeduplicated", account_dedup}};
  if (!r.contact_id.empty()) payer["ContactId"] = r.contact_id;
  if (!r.account_id.empty()) payer["AccountId"] = r.account_id;

  json method = json::object();
  if (auto it = result.body.find("PaymentMethod"); it != result.body.end())
    for (const char* k : {"Name", "Processor", "Target"})
      if (it->contains(k)) method[k] = (*it)[k];

  json body = {{"ResponseCode", "001"},
               {"IsSuccess", true},
               {"Payer", payer},
               {"PaymentMethod", method},
               {"SourceConnector", result.body.at("Settings").at("SourceConnector")}};
  if (!r.installment_id.empty()) body["Payment"] = {{"InstallmentId", r.installment_id}};
  if (!r.recurring_id.empty()) body["Recurring"] = {{"Id", r.recurring_id}};
  if (auto it = result.body.find("RedirectURL"); it != result.body.end()) body["RedirectURL"] = *it;
  return body;
}

LegacyResult LegacyPayments::create(const json& body, const IntentContext& ctx) {
  auto req = translate_legacy_request(body, org_.config());
  if (!req.ok()) return {legacy_failure_body(req.errors()), ""};
  const json& profile = req->payment_profile;
  // PaymentMethod.PaymentProfile lands on the profile the setup created or
  // updated, in the same transaction (checked against the object already).
  AfterOperation after = [&profile](Transaction& tx, const IntentRecords& records) -> Status {
    if (profile.empty() || records.payment_profile_id.empty()) return ok_status();
    Record p = tx.edit(records.payment_profile_id);
    for (const auto& [k, v] : profile.items()) p.fields[k] = v;
    tx.put(std::move(p));
    return ok_status();
  };
  auto result = intents_.run(req->intent, ctx, after);
  if (!result.ok()) return {legacy_failure_body(to_legacy_errors(result.errors())), ""};
  return {legacy_success_body(*req, *result), result->payment_intent_id};
}

json LegacyPayments::get(std::string_view id_or_guid) const {
  auto rec = org_.find_record(id_or_guid, "installment");
  if (!rec.ok()) return legacy_failure_body(rec.errors());
  const Record& r = **rec;
  const std::string shown(id_or_guid);
  if (r.object != objects::kInstallment) {
    for (const auto& c : org_.config().source_connectors)
      if (r.object == c.recurring_object || r.object == c.schedule_object)
        return legacy_failure_body({make_error(
            error_code::kInvalidData, "ID",
            shown + " is a recurring payment (" + r.object +
                "); GET /Payment reads one-off payments only (spec 4.7): use GET /Recurring/" +
                shown)});
    return legacy_failure_body({make_error(
        error_code::kInvalidData, "ID",
        shown + " is a " + r.object + " record, not an installment of a one-off payment")});
  }
  namespace f = fields::installment;
  json payment = {{"InstallmentId", r.id}, {"Amount", r.fields.value(f::kAmount, json(0))}};
  // Empty fields are omitted (spec 2.10/2.11), never shown as "".
  for (const auto& [key, field] : {std::pair<const char*, const char*>{"Status", f::kStatus},
                                   {"CurrencyISOCode", fields::kCurrency}})
    if (std::string v = r.text(field); !v.empty()) payment[key] = v;
  payment["RecordTypeName"] = record_type_name(org_.config(), r);
  return {{"ResponseCode", "001"}, {"IsSuccess", true}, {"Payment", payment}};
}

}  // namespace fake_org
