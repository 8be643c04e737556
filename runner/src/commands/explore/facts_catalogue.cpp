// The facts the bodies' optional members need beyond the payment methods:
// the package actions, the org's currency, a campaign, the record types and
// the CrmFields catalogue, read through the configuration reads and the
// data API, so that they hold on any target (the fake, a sandbox).
#include <sstream>

#include "commands/explore/facts.h"
#include "net/http_types.h"

namespace runner::explore {

namespace {

using nlohmann::json;

std::string catalogue_text(const json& o, const char* key) {
  const auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : "";
}

bool catalogue_truth(const json& o, const char* key) {
  const auto it = o.find(key);
  if (it == o.end()) return false;
  if (it->is_boolean()) return it->get<bool>();
  return it->is_string() && it->get<std::string>() == "true";
}

const json& catalogue_records(const json& answer) {
  static const json none = json::array();
  if (!answer.is_object() || !answer.contains("records") || !answer["records"].is_array())
    return none;
  return answer["records"];
}

// One package's actions, in the spec's layout (Name, Actions) or the
// package's (PackageName, actions, name).
void catalogue_package(const json& p, std::vector<ActionFact>& out) {
  std::string package = catalogue_text(p, "Name");
  if (package.empty()) package = catalogue_text(p, "PackageName");
  for (const char* key : {"Actions", "actions"}) {
    if (package.empty() || !p.contains(key) || !p[key].is_array()) continue;
    for (const auto& a : p[key]) {
      if (!a.is_object()) continue;
      std::string name = catalogue_text(a, "Name");
      if (name.empty()) name = catalogue_text(a, "name");
      if (name.empty()) continue;
      out.push_back({package, name, parameter_facts(a.value("Parameters", json()))});
    }
  }
}

json catalogue_get(OrgSession& org, const std::string& path) {
  HttpRequest req;
  req.method = "GET";
  req.url = org.url_for(path);
  const SentRequest sent = org.send(req, true, Millis(30000));
  if (sent.response.status != 200) return nullptr;
  return json::parse(sent.response.body, nullptr, false);
}

json catalogue_query(OrgSession& org, const std::string& api, const std::string& soql) {
  return catalogue_get(org, "/services/data/v" + api + "/query?q=" + percent_encode(soql));
}

}  // namespace

TargetFacts facts_from_package_actions(const json& body, TargetFacts base) {
  base.package_actions.clear();
  if (!body.is_object()) return base;
  for (const char* key : {"Packages", "PackageActions"})
    if (body.contains(key) && body[key].is_array())
      for (const auto& p : body[key])
        if (p.is_object()) catalogue_package(p, base.package_actions);
  return base;
}

std::vector<FieldFact> text_fields_from_describe(const json& body) {
  std::vector<FieldFact> out;
  if (!body.is_object() || !body.contains("fields") || !body["fields"].is_array()) return out;
  for (const auto& f : body["fields"]) {
    if (!f.is_object()) continue;
    const std::string type = catalogue_text(f, "type");
    const std::string name = catalogue_text(f, "name");
    if ((type != "string" && type != "textarea") || name.empty() ||
        !catalogue_truth(f, "createable") || !catalogue_truth(f, "updateable") ||
        catalogue_truth(f, "calculated") || !f.contains("length") ||
        !f["length"].is_number_unsigned())
      continue;
    out.push_back({name, f["length"].get<size_t>()});
  }
  return out;
}

TargetFacts facts_from_queries(const json& organization, const json& campaigns,
                               const json& record_types, TargetFacts base) {
  for (const auto& r : catalogue_records(organization))
    if (r.is_object()) base.currency = catalogue_text(r, "DefaultCurrencyIsoCode");
  for (const auto& r : catalogue_records(campaigns))
    if (r.is_object() && base.campaign_id.empty()) base.campaign_id = catalogue_text(r, "Id");
  base.account_record_types.clear();
  base.contact_record_types.clear();
  for (const auto& r : catalogue_records(record_types)) {
    if (!r.is_object()) continue;
    const std::string name = catalogue_text(r, "DeveloperName");
    const std::string object = catalogue_text(r, "SobjectType");
    if (name.empty() || catalogue_truth(r, "IsPersonType")) continue;
    if (object == "Account") base.account_record_types.push_back(name);
    if (object == "Contact") base.contact_record_types.push_back(name);
  }
  return base;
}

std::string facts_key(const TargetFacts& f) {
  std::ostringstream k;
  k << f.api_version << "|" << f.account_external_id << "|" << f.connector << "|"
    << f.recurring_object << "|" << f.currency << "|" << f.campaign_id;
  for (const auto& m : f.methods) {
    k << "|m:" << m.name << (m.recurring ? "+" : "-") << m.processor;
    for (const auto& t : m.targets) k << "," << t;
    for (const auto& p : m.parameters) k << ",p" << p.name;
  }
  for (const auto& v : f.frequencies) k << "|f:" << v;
  for (const auto& v : f.account_fields) k << "|a:" << v.name;
  for (const auto& v : f.connector_parameters) k << "|c:" << v.name;
  for (const auto& a : f.package_actions) k << "|p:" << a.package << "." << a.action;
  for (const auto& v : f.account_record_types) k << "|ar:" << v;
  for (const auto& v : f.contact_record_types) k << "|cr:" << v;
  for (const auto& [object, fields] : f.crm_fields)
    for (const auto& v : fields) k << "|" << object << "." << v.name;
  return k.str();
}

void fetch_catalogue_facts(OrgSession& org, TargetFacts& facts) {
  const json actions = catalogue_get(org, "/PackageActions");
  if (!actions.is_null()) facts = facts_from_package_actions(actions, facts);
  const std::string& api = facts.api_version;
  facts = facts_from_queries(
      catalogue_query(org, api, "SELECT DefaultCurrencyIsoCode FROM Organization"),
      catalogue_query(org, api, "SELECT Id FROM Campaign WHERE IsActive = true LIMIT 1"),
      catalogue_query(org, api,
                      "SELECT DeveloperName, SobjectType, IsPersonType FROM RecordType "
                      "WHERE IsActive = true"),
      facts);
  for (const std::string& object :
       {std::string(kInstallmentObject), facts.recurring_object, std::string(kInboundReportObject),
        std::string(kPaymentProfileObject)}) {
    const json describe =
        catalogue_get(org, "/services/data/v" + api + "/sobjects/" + object + "/describe");
    if (!describe.is_null()) facts.crm_fields[object] = text_fields_from_describe(describe);
  }
}

}  // namespace runner::explore
