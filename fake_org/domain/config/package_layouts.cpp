#include "package_layouts.h"

#include "org_config_json.h"

namespace fake_org::package_layout {

namespace {

using nlohmann::json;

json image(const std::string& url) {
  return {{"svg", url}};
}

// The package's spelling of spec 2.6's rule: `unsupported` for a processor
// that takes no recurring payments (and for one whose rule is `No`).
const char* initial_payment(const ProcessorDef& p) {
  if (!p.supports_recurring) return "unsupported";
  switch (p.initial_payment_on_recurring) {
    case InitialPayment::kRequired:
      return "required";
    case InitialPayment::kOptional:
      return "optional";
    case InitialPayment::kNo:
      return "unsupported";
  }
  return "optional";
}

// A processor's parameter: the spec layout, with an Enum's choices.
json processor_parameter(const ParameterDef& p) {
  json j = {{"Name", p.name},
            {"DataType", p.data_type},
            {"Required", p.required},
            {"Description", p.description}};
  if (!p.values.empty()) j["Values"] = p.values;
  if (!p.options.empty()) {
    json options = json::array();
    for (const auto& o : p.options) {
      json oj = {{"value", o.value}, {"label", o.label.empty() ? o.value : o.label}};
      if (!o.image.empty()) oj["image"] = image(o.image);
      options.push_back(std::move(oj));
    }
    j["Enum"] = std::move(options);
  }
  return j;
}

json processor(const ProcessorDef& p) {
  json params = json::array();
  for (const auto& d : p.parameters) params.push_back(processor_parameter(d));
  json j = {{"Name", p.name},
            {"IsDefault", p.is_default},
            {"InitialPaymentOnRecurring", initial_payment(p)},
            {"SupportsRecurring", p.supports_recurring},
            {"RequiresPayerAction", p.hosted_page},
            {"Targets", p.targets},
            {"Parameters", std::move(params)},
            {"RequiredPackageActions", p.required_package_actions}};
  if (!p.image.empty()) j["image"] = image(p.image);
  return j;
}

// A package action's parameter: lower-camel keys, `required` only when true.
json action_parameter(const ParameterDef& p) {
  json j = {{"name", p.name}, {"dataType", p.data_type}};
  if (p.required) j["required"] = true;
  if (!p.description.empty()) j["description"] = p.description;
  if (!p.values.empty()) j["values"] = p.values;
  return j;
}

}  // namespace

json payment_methods_body(const OrgConfig& config) {
  json methods = json::array();
  for (const auto& m : config.payment_methods) {
    if (!m.active) continue;
    json processors = json::array();
    for (const auto& p : m.processors) processors.push_back(processor(p));
    json mj = {{"Name", m.name}, {"Processors", std::move(processors)}};
    if (!m.image.empty()) mj["image"] = image(m.image);
    methods.push_back(std::move(mj));
  }
  return {{"PaymentMethods", std::move(methods)}};
}

json source_connectors_body(const OrgConfig& config) {
  json connectors = json::array();
  for (const auto& c : config.source_connectors) {
    json cj = c;
    cj["IsDefault"] = c.is_default ? "true" : "false";
    connectors.push_back(std::move(cj));
  }
  return {{"SourceConnectors", std::move(connectors)}};
}

json package_actions_body(const OrgConfig& config) {
  json packages = json::array();
  for (const auto& pkg : config.packages) {
    json actions = json::array();
    for (const auto& a : pkg.actions) {
      json params = json::array();
      for (const auto& p : a.parameters) params.push_back(action_parameter(p));
      json aj = {{"name", a.name}, {"Parameters", std::move(params)}};
      if (!a.description.empty()) aj["description"] = a.description;
      actions.push_back(std::move(aj));
    }
    packages.push_back({{"PackageName", pkg.name}, {"actions", std::move(actions)}});
  }
  return {{"ResponseCode", "001"}, {"IsSuccess", true}, {"PackageActions", std::move(packages)}};
}

json payment_intent_created(const OrgConfig& config, json spec_body) {
  if (config.org.response_style != ResponseStyle::kPackage) return spec_body;
  json j = {{"Id", spec_body.at("Id")}};
  if (auto it = spec_body.find("RedirectURL"); it != spec_body.end()) j["RedirectURL"] = *it;
  return j;
}

json decimal_amount(const json& amount) {
  return amount.is_number() ? json(amount.get<double>()) : amount;
}

std::string pay_link_page(const OrgConfig& config, const std::string& guid) {
  if (config.org.pay_link_page.empty() || guid.empty()) return "";
  return config.org.pay_link_page + "?id=" + guid;
}

}  // namespace fake_org::package_layout
