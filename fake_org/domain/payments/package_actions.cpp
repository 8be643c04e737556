#include "package_actions.h"

#include "domain/config/crm_fields_values.h"
#include "domain/core/fields.h"
#include "payment_method_resolution.h"
#include "util/json_text.h"

namespace fake_org {

namespace {

// Fields every record an action creates carries when its object has them
// (fixtures/base/standard_objects.yaml, cpm__Gift_Aid_Declaration__c).
constexpr const char* kContactField = "cpm__Contact__c";
constexpr const char* kAccountField = "cpm__Account__c";
constexpr const char* kIntentField = "cpm__Payment_Intent_Id__c";
constexpr const char* kActiveField = "cpm__Active__c";

template <typename T, typename Name>
std::string names_of(const std::vector<T>& items, Name name) {
  std::string list;
  for (const auto& i : items) list += (list.empty() ? "" : ", ") + name(i);
  return list.empty() ? "none" : list;
}

// A value the record's field cannot hold (longer than its length, a picklist
// value it lacks) would fail the insert in a real org (STRING_TOO_LONG): 200,
// as for CrmFields and the root parameters the org stores.
void check_stored_value(const OrgConfig& config, const PackageActionDef& action,
                        const ParameterDef& def, const nlohmann::json& value,
                        const std::string& path, ApiErrors& errors) {
  if (action.creates_object.empty() || def.field.empty()) return;
  const ObjectDef* object = config.object(action.creates_object);
  const FieldDef* field = object ? object->field(def.field) : nullptr;
  if (!field) return;
  const crm_detail::Checked c =
      crm_detail::check_value(*object, *field, package_parameter_value(def, value), &config);
  if (!c.reason.empty())
    errors.push_back(make_error(error_code::kInvalidData, path,
                                path + " is stored in " + action.creates_object + "." + def.field +
                                    ", and the value " + c.reason));
}

void check_parameters(const OrgConfig& config, const PackageActionDef& action,
                      const std::string& qualified, const nlohmann::json& params,
                      const std::string& path, ApiErrors& errors) {
  for (const auto& [key, value] : params.items()) {
    bool known = false;
    for (const auto& def : action.parameters) known = known || def.name == key;
    if (!known)
      errors.push_back(make_error(
          error_code::kInvalidData, path + "." + key,
          "Package action " + qualified + " has no parameter '" + key + "'; its parameters: " +
              names_of(action.parameters, [](const ParameterDef& p) { return p.name; }) +
              " (GET /PackageActions)"));
  }
  for (const auto& def : action.parameters) {
    const std::string p = path + "." + def.name;
    auto it = params.find(def.name);
    const bool absent =
        it == params.end() || it->is_null() || (it->is_string() && it->get<std::string>().empty());
    if (absent) {
      if (def.required)
        errors.push_back(make_error(error_code::kMissingCoreParameter, p,
                                    p + " is required by package action " + qualified + " (" +
                                        def.data_type + "; GET /PackageActions)"));
      continue;
    }
    std::string problem = parameter_type_problem(def, *it);
    if (!problem.empty())
      errors.push_back(make_error(error_code::kInvalidData, p, p + " " + problem));
    else
      check_stored_value(config, action, def, *it, p, errors);
  }
}

}  // namespace

Result<std::vector<PackageActionUse>> check_package_actions(const OrgConfig& config,
                                                            const nlohmann::json& given,
                                                            const std::string& method,
                                                            const ProcessorDef& processor) {
  const std::string root = "PackageActions";
  ApiErrors errors;
  std::vector<PackageActionUse> uses;
  const auto package_names = [&] {
    return names_of(config.packages, [](const PackageDef& p) { return p.name; });
  };
  if (!given.is_null() && !given.is_object())
    return make_error(error_code::kInvalidData, root,
                      "PackageActions must be an object: package name -> action name -> "
                      "parameters, got " +
                          text::json_text(given));
  if (given.is_object()) {
    for (const auto& [pname, actions] : given.items()) {
      const std::string ppath = root + "." + pname;
      const PackageDef* package = config.package(pname);
      if (!package) {
        errors.push_back(make_error(error_code::kInvalidData, ppath,
                                    "The org has no package '" + pname + "'; packages: " +
                                        package_names() + " (GET /PackageActions)"));
        continue;
      }
      if (!actions.is_object()) {
        errors.push_back(make_error(error_code::kInvalidData, ppath,
                                    ppath + " must be an object of action name -> parameters"));
        continue;
      }
      for (const auto& [aname, params] : actions.items()) {
        const std::string apath = ppath + "." + aname;
        const std::string qualified = pname + "." + aname;
        const PackageActionDef* action = package->action(aname);
        if (!action) {
          errors.push_back(make_error(
              error_code::kInvalidData, apath,
              "Package " + pname + " has no action '" + aname + "'; its actions: " +
                  names_of(package->actions, [](const PackageActionDef& a) { return a.name; })));
          continue;
        }
        if (!params.is_object()) {
          errors.push_back(make_error(error_code::kInvalidData, apath,
                                      apath + " must be an object of parameter name -> value"));
          continue;
        }
        check_parameters(config, *action, qualified, params, apath, errors);
        uses.push_back({package, action, params});
      }
    }
  }
  for (const auto& required : processor.required_package_actions) {
    const auto dot = required.find('.');
    const std::string pname = required.substr(0, dot);
    const std::string aname = dot == std::string::npos ? "" : required.substr(dot + 1);
    const bool present = given.is_object() && given.contains(pname) && given[pname].is_object() &&
                         given[pname].contains(aname);
    if (!present)
      errors.push_back(make_error(
          error_code::kMissingCoreParameter, root + "." + required,
          method + " with processor " + processor.name + " requires package action " + required +
              " (RequiredPackageActions in GET /PaymentMethods): add PackageActions {\"" + pname +
              "\": {\"" + aname + "\": {...}}} with the parameters GET /PackageActions lists"));
  }
  if (!errors.empty()) return errors;
  return uses;
}

nlohmann::json package_parameter_value(const ParameterDef& def, const nlohmann::json& value) {
  std::string text = value.is_string() ? value.get<std::string>() : text::json_text(value);
  if (def.data_type == "Boolean") return value.is_boolean() ? value.get<bool>() : text == "true";
  if (def.data_type == "Date") {
    auto d = parse_date(text);
    return d ? nlohmann::json(format_date(*d)) : nlohmann::json(text);
  }
  if ((def.data_type == "Number" || def.data_type == "Integer" || def.data_type == "Decimal") &&
      value.is_string()) {
    // Digits no double holds parse to a discarded value (out_of_range 406
    // without exceptions): the text is kept instead.
    nlohmann::json n = nlohmann::json::parse(text, nullptr, false);
    return n.is_number() ? n : nlohmann::json(text);
  }
  return value;
}

std::optional<Record> package_action_record(const OrgConfig& config, IdGenerator& ids,
                                            TimePoint now, const PackageActionUse& use,
                                            const PackageActionOwner& owner) {
  const std::string& object = use.action->creates_object;
  if (object.empty()) return std::nullopt;
  const ObjectDef* def = config.object(object);
  // The fixture loader checks creates_object; a missing object creates nothing.
  if (!def) return std::nullopt;
  Record r;
  r.object = object;
  r.id = ids.record_id(def->key_prefix);
  r.guid = ids.guid();
  r.created = r.modified = now;
  auto& x = r.fields;
  const auto set = [&](const char* field, const std::string& v) {
    if (!v.empty() && def->field(field)) x[field] = v;
  };
  if (def->field(fields::kName)) x[fields::kName] = use.action->name + "-" + r.id.substr(9, 6);
  set(kContactField, owner.contact);
  set(kAccountField, owner.account);
  set(kIntentField, owner.payment_intent_id);
  if (def->field(kActiveField)) x[kActiveField] = true;
  if (def->default_record_type()) x[fields::kRecordTypeName] = def->default_record_type()->name;
  for (const auto& p : use.action->parameters) {
    auto it = use.parameters.find(p.name);
    if (p.field.empty() || it == use.parameters.end() || it->is_null()) continue;
    x[p.field] = package_parameter_value(p, *it);
  }
  return r;
}

}  // namespace fake_org
