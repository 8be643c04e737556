#include "org_config_json.h"

#include "package_layouts.h"

namespace fake_org {

// An Enum parameter (the package's layout) is a Picklist of its values here.
void to_json(nlohmann::json& j, const ParameterDef& p) {
  const bool is_enum = p.data_type == "Enum";
  j = {{"Name", p.name},
       {"DataType", is_enum ? "Picklist" : p.data_type},
       {"Required", p.required},
       {"Description", p.description}};
  std::vector<std::string> values = p.values;
  for (const auto& o : p.options) values.push_back(o.value);
  if (!values.empty()) j["Values"] = values;
}

void to_json(nlohmann::json& j, const TargetDef& t) {
  j = {{"Name", t.name}, {"IsDefault", t.is_default}};
}

void to_json(nlohmann::json& j, const ProcessorDef& p) {
  j = {{"Name", p.name},
       {"IsDefault", p.is_default},
       {"InitialPaymentonRecurring", to_string(p.initial_payment_on_recurring)},
       {"SupportsRecurring", p.supports_recurring},
       {"RequiresPayerAction", p.hosted_page},
       {"Targets", p.targets},
       {"Parameters", p.parameters},
       {"RequiredPackageActions", p.required_package_actions}};
}

void to_json(nlohmann::json& j, const PaymentMethodDef& m) {
  j = {{"Name", m.name}, {"Processors", m.processors}};
}

void to_json(nlohmann::json& j, const SourceConnectorDef& s) {
  j = {{"Name", s.name},
       {"PrettyName", s.pretty_name},
       {"IsDefault", s.is_default},
       {"RecurringObject", s.recurring_object},
       {"Frequencies", s.frequencies}};
  if (!s.schedule_object.empty()) j["ScheduleObject"] = s.schedule_object;
  if (!s.parameters.empty()) j["Parameters"] = s.parameters;
}

void to_json(nlohmann::json& j, const PackageActionDef& a) {
  j = {{"Name", a.name}, {"Description", a.description}, {"Parameters", a.parameters}};
}

void to_json(nlohmann::json& j, const PackageDef& p) {
  j = {{"Name", p.name}, {"Description", p.description}, {"Actions", p.actions}};
}

nlohmann::json payment_methods_body(const OrgConfig& config) {
  if (config.org.response_style == ResponseStyle::kPackage)
    return package_layout::payment_methods_body(config);
  nlohmann::json methods = nlohmann::json::array();
  for (const auto& m : config.payment_methods)
    if (m.active) methods.push_back(m);
  return {{"PaymentMethods", std::move(methods)}};
}

nlohmann::json source_connectors_body(const OrgConfig& config) {
  if (config.org.response_style == ResponseStyle::kPackage)
    return package_layout::source_connectors_body(config);
  return {{"SourceConnectors", config.source_connectors}};
}

nlohmann::json package_actions_body(const OrgConfig& config) {
  if (config.org.response_style == ResponseStyle::kPackage)
    return package_layout::package_actions_body(config);
  return {{"Packages", config.packages}};
}

}  // namespace fake_org
