#include "views.h"

#include "domain/config/package_layouts.h"
#include "domain/core/fields.h"
#include "domain/store/record.h"

namespace fake_org {

nlohmann::json record_ref(const Org& org, const Record& r) {
  nlohmann::json j = {{"Url", org.record_url(r)}, {"Type", r.object}, {"Id", r.id}};
  if (r.object == objects::kContact || r.object == objects::kAccount)
    j["Name"] = r.text(fields::kName);
  // Spec 2.10/2.11: empty fields are omitted, never shown as "".
  if (r.object == objects::kInstallment) {
    std::string status = r.text(fields::installment::kStatus);
    if (!status.empty()) j["Status"] = status;
  }
  return j;
}

std::string record_type_name(const OrgConfig& config, const Record& r) {
  std::string rt = r.text(fields::kRecordTypeName);
  if (!rt.empty()) return rt;
  // A record seeded or created before its object had record types.
  if (const ObjectDef* def = config.object(r.object))
    if (const RecordTypeDef* d = def->default_record_type()) return d->name;
  return "Master";
}

namespace {
void put_ref(nlohmann::json& into, const char* key, const Org& org, const RecordReader& records,
             const std::string& id) {
  if (id.empty()) return;
  if (auto r = records.get(id)) into[key] = record_ref(org, *r);
}

nlohmann::json number_or_zero(const Record& r, const char* field) {
  auto v = r.get(field);
  return v && v->is_number() ? *v : nlohmann::json(0);
}
}  // namespace

nlohmann::json payment_intent_view(const Org& org, const RecordReader& records,
                                   const Record& report) {
  namespace f = fields::inbound_report;
  nlohmann::json j = {{"Id", report.text(f::kPaymentIntentId)},
                      {"Status", report.text(f::kStatus)}};
  nlohmann::json payer = nlohmann::json::object();
  put_ref(payer, "Contact", org, records, report.text(f::kContact));
  put_ref(payer, "Account", org, records, report.text(f::kAccount));
  j["Payer"] = payer;
  put_ref(j, "OneTime", org, records, report.text(f::kInstallment));
  put_ref(j, "Recurring", org, records, report.text(f::kRecurringId));
  return j;
}

namespace {

// One payment of an installment: spec 2.10's fields; in the package's
// layout the read adds the payment's `Target`, and a webhook carries only
// `Id`, `Amount` and `CollectionDate`.
nlohmann::json payment_item(const Org& org, const Record& p, const std::string& inst_target,
                            bool extras) {
  namespace pf = fields::payment;
  const bool package = org.config().org.response_style == ResponseStyle::kPackage;
  nlohmann::json pj = nlohmann::json::object();
  if (!package || extras) pj = {{"Url", org.record_url(p)}, {"Type", p.object}};
  pj["Id"] = p.id;
  if (!package || extras) {
    put_text(pj, "PaymentProcessor", p, pf::kProcessor);
    put_text(pj, "PaymentMethod", p, pf::kMethod);
  }
  if (package && extras) {
    const std::string target = p.text(pf::kTarget);
    if (!target.empty() || !inst_target.empty())
      pj["Target"] = target.empty() ? inst_target : target;
  }
  put_text(pj, "CollectionDate", p, pf::kCollectionDate);
  pj["Amount"] = number_or_zero(p, pf::kAmount);
  if (package) pj["Amount"] = package_layout::decimal_amount(pj["Amount"]);
  return pj;
}

// Spec 2.10's fields, with the read endpoint's two extras when `extras`;
// the package's layout (decisions 68) when the org answers in it.
nlohmann::json installment_body(const Org& org, const RecordReader& records, const Record& inst,
                                bool extras) {
  namespace f = fields::installment;
  const OrgConfig& config = org.config();
  const bool package = config.org.response_style == ResponseStyle::kPackage;
  nlohmann::json j = nlohmann::json::object();
  if (!package || extras) j = {{"Url", org.record_url(inst)}, {"Type", inst.object}};
  j["Id"] = inst.id;
  if (extras && !inst.guid.empty()) j["GUID"] = inst.guid;
  put_text(j, "Target", inst, f::kTarget);
  put_text(j, "Status", inst, f::kStatus);
  j["RecordTypeName"] = record_type_name(config, inst);
  put_text(j, "PayUrl", inst, f::kPayUrl);
  if (package && extras) {
    const std::string page = package_layout::pay_link_page(config, inst.guid);
    if (!page.empty()) j["PayLinkPage"] = page;
  }
  nlohmann::json payments = nlohmann::json::array();
  for (const auto& id : records.find(index_name::kPaymentByInstallment, {inst.id}))
    if (auto p = records.get(id))
      payments.push_back(payment_item(org, *p, inst.text(f::kTarget), extras));
  j["Payments"] = payments;
  put_text(j, "PaymentProcessor", inst, f::kProcessor);
  put_text(j, "PaymentMethod", inst, f::kMethod);
  put_text(j, "PaymentIntentId", inst, f::kPaymentIntentId);
  j["AmountOpen"] = number_or_zero(inst, f::kAmountOpen);
  j["Amount"] = number_or_zero(inst, f::kAmount);
  if (package) {
    j["AmountOpen"] = package_layout::decimal_amount(j["AmountOpen"]);
    j["Amount"] = package_layout::decimal_amount(j["Amount"]);
  }
  if (extras) put_text(j, "CurrencyISOCode", inst, fields::kCurrency);
  return j;
}

}  // namespace

nlohmann::json installment_view(const Org& org, const RecordReader& records, const Record& inst) {
  return installment_body(org, records, inst, true);
}

nlohmann::json installment_webhook_view(const Org& org, const RecordReader& records,
                                        const Record& inst) {
  return installment_body(org, records, inst, false);
}

void put_text(nlohmann::json& into, const char* key, const Record& r, const char* field) {
  std::string v = r.text(field);
  if (!v.empty()) into[key] = v;
}

void add_payment_lookup_indexes(std::vector<IndexSpec>& out) {
  out.push_back({index_name::kReportByIntent,
                 objects::kInboundReport,
                 {fields::inbound_report::kPaymentIntentId},
                 false});
  out.push_back({index_name::kInstallmentByIntent,
                 objects::kInstallment,
                 {fields::installment::kPaymentIntentId},
                 false});
  out.push_back({index_name::kPaymentByInstallment,
                 objects::kPayment,
                 {fields::payment::kInstallment},
                 false});
  out.push_back({index_name::kProfileByContactMethod,
                 objects::kPaymentProfile,
                 {fields::payment_profile::kContact, fields::payment_profile::kMethod,
                  fields::payment_profile::kProcessor},
                 false});
}

}  // namespace fake_org
