#include "commands/explore/facts.h"

#include <set>

#include "net/http_types.h"

namespace runner::explore {

namespace {

// A member's truth: `true` or the text "true" (real orgs answer both), else false.
bool explore_truth(const nlohmann::json& o, const char* key) {
  const auto it = o.find(key);
  if (it == o.end()) return false;
  if (it->is_boolean()) return it->get<bool>();
  return it->is_string() && it->get<std::string>() == "true";
}

std::string explore_text(const nlohmann::json& o, const char* key) {
  const auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : "";
}

bool explore_has_required_parameter(const nlohmann::json& processor) {
  for (const auto& p : parameter_facts(processor.value("Parameters", nlohmann::json())))
    if (p.required) return true;
  return false;
}

std::vector<std::string> explore_texts(const nlohmann::json& list) {
  std::vector<std::string> out;
  if (!list.is_array()) return out;
  for (const auto& v : list)
    if (v.is_string())
      out.push_back(v.get<std::string>());
    else if (v.is_object() && v.contains("Name") && v["Name"].is_string())
      out.push_back(v["Name"].get<std::string>());
  return out;
}

// The processor's targets and its optional parameters.
void explore_processor_facts(const nlohmann::json& processor, MethodFact& f) {
  f.targets = explore_texts(processor.value("Targets", nlohmann::json()));
  for (auto& p : parameter_facts(processor.value("Parameters", nlohmann::json())))
    if (!p.required) f.parameters.push_back(std::move(p));
}

}  // namespace

std::vector<ParameterFact> parameter_facts(const nlohmann::json& list) {
  std::vector<ParameterFact> out;
  if (!list.is_array()) return out;
  for (const auto& p : list) {
    if (!p.is_object()) continue;
    ParameterFact f;
    f.name = explore_text(p, "Name");
    if (f.name.empty()) f.name = explore_text(p, "name");
    f.type = explore_text(p, "DataType");
    if (f.type.empty()) f.type = explore_text(p, "dataType");
    f.required = explore_truth(p, "Required") || explore_truth(p, "required");
    for (const char* key : {"Values", "values"})
      for (const auto& v : explore_texts(p.value(key, nlohmann::json()))) f.values.push_back(v);
    if (p.contains("Enum") && p["Enum"].is_array())
      for (const auto& o : p["Enum"])
        if (o.is_object() && o.contains("value") && o["value"].is_string())
          f.values.push_back(o["value"].get<std::string>());
    if (!f.name.empty()) out.push_back(std::move(f));
  }
  return out;
}

TargetFacts facts_from_payment_methods(const nlohmann::json& body, TargetFacts base) {
  base.methods.clear();
  if (!body.is_object() || !body.contains("PaymentMethods") || !body["PaymentMethods"].is_array())
    return base;
  for (const auto& m : body["PaymentMethods"]) {
    if (!m.is_object() || !m.contains("Name") || !m["Name"].is_string()) continue;
    const auto procs = m.find("Processors");
    if (procs == m.end() || !procs->is_array() || procs->empty()) continue;
    const nlohmann::json* chosen = nullptr;
    for (const auto& p : *procs)
      if (p.is_object() && (!chosen || explore_truth(p, "IsDefault"))) chosen = &p;
    if (!chosen || !chosen->contains("Name") || !(*chosen)["Name"].is_string()) continue;
    if (explore_has_required_parameter(*chosen) ||
        !explore_texts(chosen->value("RequiredPackageActions", nlohmann::json())).empty())
      continue;
    MethodFact f;
    f.name = m["Name"].get<std::string>();
    f.processor = (*chosen)["Name"].get<std::string>();
    // The spec's layout (SupportsRecurring, InitialPaymentonRecurring:
    // Required) and the package's (InitialPaymentOnRecurring: required,
    // optional or unsupported).
    const std::string spec_rule = explore_text(*chosen, "InitialPaymentonRecurring");
    const std::string package_rule = explore_text(*chosen, "InitialPaymentOnRecurring");
    f.recurring = explore_truth(*chosen, "SupportsRecurring") ||
                  (!package_rule.empty() && package_rule != "unsupported");
    f.initial_required = spec_rule == "Required" || package_rule == "required";
    explore_processor_facts(*chosen, f);
    base.methods.push_back(std::move(f));
  }
  return base;
}

TargetFacts facts_from_source_connectors(const nlohmann::json& body, TargetFacts base) {
  if (!body.is_object() || !body.contains("SourceConnectors") ||
      !body["SourceConnectors"].is_array())
    return base;
  for (const auto& c : body["SourceConnectors"]) {
    if (!c.is_object() || !explore_truth(c, "IsDefault") || !c.contains("Frequencies") ||
        !c["Frequencies"].is_array())
      continue;
    std::vector<std::string> f;
    for (const auto& v : c["Frequencies"])
      if (v.is_string()) f.push_back(v.get<std::string>());
    if (!f.empty()) base.frequencies = f;
    base.connector = explore_text(c, "Name");
    base.connector_parameters = parameter_facts(c.value("Parameters", nlohmann::json()));
    const std::string object = explore_text(c, "RecurringObject");
    if (!object.empty()) base.recurring_object = object;
  }
  return base;
}

namespace {

// Person account fields on Account (the person's name, Person...): a real
// org refuses them on a business account, which the explorer creates.
bool explore_person_field(const std::string& name) {
  static const std::set<std::string> names = {"FirstName", "LastName", "MiddleName", "Suffix",
                                              "Salutation"};
  return names.count(name) > 0 || name.rfind("Person", 0) == 0;
}

}  // namespace

TargetFacts facts_from_describe(const nlohmann::json& body, TargetFacts base) {
  base.account_fields.clear();
  base.account_external_id.clear();
  if (!body.is_object() || !body.contains("fields") || !body["fields"].is_array()) return base;
  for (const auto& f : body["fields"]) {
    if (!f.is_object()) continue;
    const std::string type = explore_text(f, "type");
    const std::string name = explore_text(f, "name");
    if (type == "string" && explore_truth(f, "externalId") && base.account_external_id.empty())
      base.account_external_id = name;
    if ((type != "string" && type != "textarea") || name.empty() || name == "Name" ||
        explore_person_field(name) || !explore_truth(f, "createable") ||
        !explore_truth(f, "updateable") || explore_truth(f, "calculated") ||
        !f.contains("length") || !f["length"].is_number_unsigned())
      continue;
    base.account_fields.push_back({name, f["length"].get<size_t>()});
  }
  return base;
}

TargetFacts fetch_facts(Target& target, const std::string& fixture, std::string& error) {
  TargetFacts facts;
  try {
    Scenario probe;
    probe.name = "explore: target facts";
    probe.file = "explore";
    probe.fixture = fixture;
    std::unique_ptr<OrgSession> org = target.open(probe);
    facts.api_version = org->config().api_version;
    HttpRequest req;
    req.method = "GET";
    req.url = org->url_for("/PaymentMethods");
    SentRequest sent = org->send(req, true, Millis(30000));
    if (sent.response.status != 200) {
      error = "GET /PaymentMethods answered " + std::to_string(sent.response.status);
      return facts;
    }
    facts = facts_from_payment_methods(nlohmann::json::parse(sent.response.body, nullptr, false),
                                       facts);
    if (facts.methods.empty()) error = "the target has no payment method without parameters";
    req.url = org->url_for("/SourceConnector");
    sent = org->send(req, true, Millis(30000));
    if (sent.response.status == 200)
      facts = facts_from_source_connectors(
          nlohmann::json::parse(sent.response.body, nullptr, false), facts);
    req.url = org->url_for("/services/data/v" + facts.api_version + "/sobjects/Account/describe");
    sent = org->send(req, true, Millis(30000));
    if (sent.response.status == 200)
      facts = facts_from_describe(nlohmann::json::parse(sent.response.body, nullptr, false), facts);
    fetch_catalogue_facts(*org, facts);
  } catch (const std::exception& e) {
    error = std::string("target ") + target.describe() + ": " + e.what();
  }
  return facts;
}

}  // namespace runner::explore
