#include "payment_method_resolution.h"

#include "util/ascii.h"

#include <algorithm>
#include <functional>
#include <set>

#include "domain/banking/bank_parameters.h"
#include "domain/core/clock.h"
#include "util/email.h"
#include "util/json_text.h"
#include "util/shapes.h"

namespace fake_org {

namespace {
template <typename T, typename F>
std::string listed_names(const std::vector<T>& items, F name) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + name(i);
  return out.empty() ? "(none)" : out;
}

std::string activated_methods(const OrgConfig& config) {
  std::vector<const PaymentMethodDef*> active;
  for (const auto& m : config.payment_methods)
    if (m.active) active.push_back(&m);
  return listed_names(active, [](const auto* m) { return m->name; });
}

// Parameter names are matched case-insensitively: "Key spelling is as the
// processor requires" (spec 2.6), so a wrong case is reported, not ignored.
const nlohmann::json* find_param(const nlohmann::json& params, const std::string& name,
                                 std::string* actual) {
  if (auto it = params.find(name); it != params.end()) {
    *actual = name;
    return &*it;
  }
  return nullptr;
}

ApiErrors check_parameters(const std::vector<ParameterDef>& defs, const nlohmann::json& given,
                           const std::string& path, const char* missing_code,
                           const std::string& owner) {
  ApiErrors errors;
  for (const auto& def : defs) {
    std::string actual;
    const nlohmann::json* v = find_param(given, def.name, &actual);
    bool empty = !v || v->is_null() || (v->is_string() && v->get<std::string>().empty());
    if (empty) {
      if (!def.required) continue;
      std::string hint;
      for (const auto& [k, _] : given.items())
        if (ascii_lower(k) == ascii_lower(def.name))
          hint = " (found '" + k + "': parameter names are case-sensitive)";
      errors.push_back(make_error(missing_code, path + "." + def.name,
                                  path + "." + def.name + " is required by " + owner + hint +
                                      (def.description.empty() ? "" : ": " + def.description)));
      continue;
    }
    std::string problem = parameter_type_problem(def, *v);
    if (!problem.empty())
      errors.push_back(make_error(error_code::kInvalidData, path + "." + def.name,
                                  path + "." + def.name + " " + problem));
  }
  return errors;
}
// Keys of a parameter map that nothing reads: typos ("Ibann") would
// otherwise pass silently (decisions row 12). `also` accepts names the fake
// reads beyond the declared ones.
ApiErrors unknown_parameters(const std::vector<ParameterDef>& defs, const nlohmann::json& given,
                             const std::string& path, const std::string& owner,
                             const std::function<bool(const std::string&)>& also) {
  ApiErrors errors;
  if (!given.is_object()) return errors;
  for (const auto& [key, _] : given.items()) {
    bool known = also && also(key);
    std::string hint;
    for (const auto& def : defs) {
      if (def.name == key) known = true;
      if (ascii_lower(def.name) == ascii_lower(key)) hint = def.name;
    }
    if (known) continue;
    // The case-only slip of a required parameter is already its missing error.
    bool reported = false;
    for (const auto& def : defs)
      if (def.required && def.name == hint && !given.contains(def.name)) reported = true;
    if (reported) continue;
    std::string accepted = listed_names(defs, [](const auto& d) { return d.name; });
    errors.push_back(make_error(
        error_code::kInvalidData, path + "." + key,
        path + "." + key + " is not a parameter of " + owner +
            (hint.empty() ? "" : " (did you mean " + hint + "? names are case-sensitive)") +
            "; it accepts: " + accepted));
  }
  return errors;
}

// What the fake reads from PaymentMethod.Parameters beyond the processor's
// declared parameters: a bank method's account and address data
// (bank_parameters.h), and the mandate and profile parameters of update rule 3.
bool read_beyond_declared(const PaymentMethodDef& method, const std::string& key) {
  const auto& bank = bank_parameter_keys();
  if (method.kind == MethodKind::kBank && std::find(bank.begin(), bank.end(), key) != bank.end())
    return true;
  if (key == "MandateReference" || key == "SignatureDate") return true;
  return key.rfind("Mandate.", 0) == 0 || key.rfind("PaymentProfile.", 0) == 0;
}

}  // namespace

std::string parameter_type_problem(const ParameterDef& def, const nlohmann::json& v) {
  const std::string& t = def.data_type;
  if (v.is_object() || v.is_array()) return "must be a single value, got " + text::json_text(v);
  // One rule for every parameter: the JSON type of its DataType (numbers may
  // also be numeric strings, as amounts).
  if (t == "Boolean")
    return v.is_boolean() ? "" : "must be true or false, got " + text::json_text(v);
  if (t == "Number" || t == "Integer" || t == "Decimal") {
    // As amounts (spec 2.4): a number or a numeric string.
    if (v.is_number() || (v.is_string() && shapes::decimal(v.get_ref<const std::string&>(), false)))
      return "";
    return "must be a number, got " + text::json_text(v);
  }
  if (!v.is_string()) return "must be a string (DataType " + t + "), got " + text::json_text(v);
  const std::string& text = v.get_ref<const std::string&>();
  if (t == "Date")
    return parse_date(text) ? "" : "must be a date YYYY-MM-DD, got " + text::json_text(v);
  if (t == "Email") {
    return email::valid(text) ? "" : "must be an email address, got " + text::json_text(v);
  }
  std::vector<std::string> allowed = def.values;
  if (t == "Enum")
    for (const auto& o : def.options) allowed.push_back(o.value);
  if ((t == "Picklist" || t == "Enum") && !allowed.empty()) {
    for (const auto& a : allowed)
      if (a == text) return "";
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    return "must be one of " + list + ", got " + text::json_text(v);
  }
  return "";
}

namespace {

const ParameterDef& statement_description_parameter() {
  static const ParameterDef def{
      "description", "String", false, "Text on the payer's bank statement (spec 2.6)", {}, {}, {}};
  return def;
}

}  // namespace

Result<ResolvedMethod> resolve_payment_method(const OrgConfig& config,
                                              const PaymentMethodInput& in) {
  ResolvedMethod r;
  r.method = config.payment_method(in.name);
  if (!r.method || !r.method->active)
    return make_error(error_code::kInvalidData, "PaymentMethod.Name",
                      "PaymentMethod.Name '" + in.name + "' is " +
                          (r.method ? "configured in this org but not activated"
                                    : "not an activated payment method of this org") +
                          "; available: " + activated_methods(config));
  if (in.processor.empty()) {
    r.processor = r.method->default_processor();
    if (!r.processor)
      return make_error(
          error_code::kNoDefault, "PaymentMethod.Processor",
          "PaymentMethod.Processor is not given and the org has no default processor for " +
              r.method->name + "; name one of: " +
              listed_names(r.method->processors, [](const auto& p) { return p.name; }));
  } else {
    r.processor = r.method->processor(in.processor);
    if (!r.processor)
      return make_error(
          error_code::kInvalidData, "PaymentMethod.Processor",
          "PaymentMethod.Processor '" + in.processor + "' is not configured for " + r.method->name +
              "; available: " +
              listed_names(r.method->processors, [](const auto& p) { return p.name; }));
  }
  if (in.target.empty()) {
    r.target = r.processor->default_target();
    if (!r.target && !r.processor->targets.empty())
      return make_error(
          error_code::kNoDefault, "PaymentMethod.Target",
          "PaymentMethod.Target is not given and " + r.processor->name +
              " has no default target for " + r.method->name + "; name one of: " +
              listed_names(r.processor->targets, [](const auto& t) { return t.name; }));
  } else {
    r.target = r.processor->target(in.target);
    if (!r.target)
      return make_error(
          error_code::kInvalidData, "PaymentMethod.Target",
          "PaymentMethod.Target '" + in.target + "' is not a target of " + r.processor->name +
              " for " + r.method->name + "; available: " +
              listed_names(r.processor->targets, [](const auto& t) { return t.name; }));
  }
  r.parameters = in.parameters;
  r.parameters_given = in.parameters_given;
  if (in.parameters_on_file) return r;
  const std::string owner = "processor " + r.processor->name + " for " + r.method->name;
  // Spec 2.6's general parameter, the bank statement text, applies to every
  // method, declared by the processor or not.
  std::vector<ParameterDef> defs = r.processor->parameters;
  const ParameterDef& general = statement_description_parameter();
  if (std::none_of(defs.begin(), defs.end(),
                   [&general](const ParameterDef& d) { return d.name == general.name; }))
    defs.push_back(general);
  ApiErrors errors = check_parameters(defs, r.parameters, "PaymentMethod.Parameters",
                                      error_code::kMissingProcessorParameter, owner);
  const PaymentMethodDef& method = *r.method;
  ApiErrors unknown = unknown_parameters(
      defs, r.parameters, "PaymentMethod.Parameters", owner,
      [&method](const std::string& key) { return read_beyond_declared(method, key); });
  errors.insert(errors.end(), unknown.begin(), unknown.end());
  if (!errors.empty()) return errors;
  return r;
}

nlohmann::json ResolvedSettings::echo() const {
  nlohmann::json j = nlohmann::json::object();
  j["SourceConnector"] = connector->name;
  j["ProcessingType"] = processing_type->name;
  return j;
}

Result<ResolvedSettings> resolve_settings(const OrgConfig& config,
                                          const PaymentIntentRequest& req) {
  ResolvedSettings s;
  ApiErrors errors;
  if (req.source_connector.empty()) {
    s.connector = config.default_source_connector();
    if (!s.connector)
      errors.push_back(
          make_error(error_code::kNoDefault, "Settings.SourceConnector",
                     "Settings.SourceConnector is not given and the org has no default source "
                     "connector"));
  } else {
    s.connector = config.source_connector(req.source_connector);
    if (!s.connector)
      errors.push_back(make_error(
          error_code::kInvalidData, "Settings.SourceConnector",
          "Settings.SourceConnector '" + req.source_connector +
              "' is not configured in this org; available: " +
              listed_names(config.source_connectors, [](const auto& c) { return c.name; })));
  }
  std::string pt = req.processing_type.empty() ? "Default" : req.processing_type;
  s.processing_type = config.processing_type(pt);
  if (!s.processing_type)
    errors.push_back(make_error(
        error_code::kInvalidData, "Settings.ProcessingType",
        "Settings.ProcessingType '" + pt +
            "' is not an inbound report subtype of this org (create it first, "
            "spec 2.7); available: " +
            listed_names(config.processing_types, [](const auto& p) { return p.name; })));
  if (s.connector) {
    const std::string owner = "source connector " + s.connector->name;
    ApiErrors p = check_parameters(s.connector->parameters, req.source_connector_parameters,
                                   "Settings.SourceConnectorParameters",
                                   error_code::kMissingSourceConnectorParameter, owner);
    errors.insert(errors.end(), p.begin(), p.end());
    ApiErrors unknown = unknown_parameters(s.connector->parameters, req.source_connector_parameters,
                                           "Settings.SourceConnectorParameters", owner, nullptr);
    errors.insert(errors.end(), unknown.begin(), unknown.end());
  }
  if (!errors.empty()) return errors;
  return s;
}

}  // namespace fake_org
