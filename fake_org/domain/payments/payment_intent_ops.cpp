// Steps every payment-intent operation shares (one-time, pay installment,
// recurring setup and update), so each rule is written once.
#include "domain/payments/internal/payment_intent_ops.h"

#include "domain/config/crm_fields.h"
#include "domain/core/ids.h"

namespace fake_org {

Result<nlohmann::json> crm_values(const OperationContext& op, const nlohmann::json& crm,
                                  const std::string& object, const std::string& path) {
  const ObjectDef* def = op.config.object(object);
  if (!def) return make_error(error_code::kUncategorised, path, "The org has no object " + object);
  auto check = check_crm_fields(crm, *def, path, &op.config);
  if (!check.ok()) return check.errors;
  return check.values;
}

CommonParameters resolve_common_parameters(OperationContext& op, ApiErrors& errors) {
  CommonParameters out;
  auto campaign = resolve_campaign(op);
  collect(errors, campaign);
  if (campaign.ok()) out.campaign = *campaign;
  auto report_crm = crm_values(op, op.req.crm_fields, objects::kInboundReport, "CrmFields");
  collect(errors, report_crm);
  if (report_crm.ok()) out.report_crm = *report_crm;
  if (op.req.one_time) {
    auto inst_crm =
        crm_values(op, op.req.one_time->crm_fields, objects::kInstallment, "OneTime.CrmFields");
    collect(errors, inst_crm);
    if (inst_crm.ok()) out.installment_crm = *inst_crm;
  }
  return out;
}

nlohmann::json intent_response_body(const OperationContext& op, const ResolvedMethod& method,
                                    const std::string& redirect_url) {
  nlohmann::json body = nlohmann::json::object();
  body["Id"] = op.payment_intent_id;
  body["PaymentMethod"] = method.echo();
  body["Settings"] = op.settings.echo();
  if (!redirect_url.empty()) body["RedirectURL"] = redirect_url;
  return body;
}

Result<RecordPtr> find_by_id_or_guid(const Transaction& tx, const std::string& given,
                                     const std::string& path, const std::string& what) {
  RecordPtr found;
  if (is_guid(given)) {
    found = tx.get_by_guid(given);
  } else if (auto id18 = to_id18(given)) {
    found = tx.get(*id18);
  } else {
    return make_error(error_code::kInvalidData, path,
                      path + " '" + given + "' is neither a record id nor a GUID of any " + what);
  }
  if (!found)
    return make_error(error_code::kInvalidData, path,
                      "No " + what + " found with id '" + given + "'", ErrorKind::kNotFound);
  return found;
}

Result<std::vector<PackageActionUse>> check_request_package_actions(const OperationContext& op,
                                                                    const ResolvedMethod& method) {
  return check_package_actions(op.config, op.req.package_actions, method.method->name,
                               *method.processor);
}

void stage_package_actions(OperationContext& op, const std::vector<PackageActionUse>& uses,
                           const std::string& contact, const std::string& account) {
  const PackageActionOwner owner{contact, account, op.payment_intent_id};
  for (const auto& use : uses)
    if (auto r = package_action_record(op.config, op.org.ids(), op.now, use, owner)) op.tx.put(*r);
}

}  // namespace fake_org
