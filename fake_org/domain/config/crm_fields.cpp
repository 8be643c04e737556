#include "crm_fields.h"

#include <strings.h>

#include "crm_fields_values.h"
#include "util/ascii.h"
#include "util/json_text.h"

namespace fake_org {

namespace {

using nlohmann::json;

bool ends_with_ci(std::string_view s, std::string_view suffix) {
  return s.size() > suffix.size() && iequals(s.substr(s.size() - suffix.size()), suffix);
}

std::string entry_path(std::string_view path, std::string_view key) {
  return std::string(path) + "." + std::string(key);
}

void add_error(CrmFieldsCheck& out, std::string_view path, std::string_view key,
               const std::string& text) {
  std::string where = entry_path(path, key);
  out.errors.push_back(make_error(error_code::kInvalidData, where, where + ": " + text));
}

const json& as_fields(const json& crm, std::string_view path, ApiErrors& errors) {
  static const json kEmpty = json::object();
  if (crm.is_null()) return kEmpty;
  if (!crm.is_object()) {
    errors.push_back(make_error(error_code::kInvalidData, std::string(path),
                                std::string(path) +
                                    " must be an object mapping field API names to values, not " +
                                    crm.type_name()));
    return kEmpty;
  }
  return crm;
}

}  // namespace

std::string crm_value_text(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return "";
  return text::json_text(value);
}

void check_crm_field(std::string_view key, std::string_view field_name, const json& value,
                     const ObjectDef& object, std::string_view path, const OrgConfig* config,
                     CrmFieldsCheck& out) {
  const FieldDef* f = object.field(field_name);
  if (!f) {
    add_error(
        out, path, key,
        "no field " + std::string(field_name) + " exists on " + object.api_name + " in this org");
    return;
  }
  // Named for an error only: most fields have none.
  const auto name = [&] { return object.api_name + "." + f->name; };
  if (f->system) {
    add_error(out, path, key, name() + " is set by the org and cannot be written");
    return;
  }
  if (out.values.contains(f->name)) {
    add_error(out, path, key, name() + " is given more than once");
    return;
  }
  crm_detail::Checked c = crm_detail::check_value(object, *f, value, config);
  if (!c.reason.empty()) {
    add_error(out, path, key, name() + " " + c.reason);
    return;
  }
  out.values[f->name] = std::move(c.value);
}

CrmFieldsCheck check_crm_fields(const json& crm, const ObjectDef& object, std::string_view path,
                                const OrgConfig* config) {
  CrmFieldsCheck out;
  for (const auto& [key, value] : as_fields(crm, path, out.errors).items())
    check_crm_field(key, key, value, object, path, config, out);
  return out;
}

PersonAccountFields split_person_account_fields(const json& crm, const OrgConfig& config,
                                                std::string_view path) {
  PersonAccountFields out;
  const ObjectDef* account = config.object(objects::kAccount);
  const ObjectDef* contact = config.object(objects::kContact);
  if (!account || !contact) {
    out.errors.push_back(make_error(error_code::kUncategorised, std::string(path),
                                    "the org defines no Account or Contact object"));
    return out;
  }
  // One check collects both sides so errors stay in the order the keys sort.
  CrmFieldsCheck acc, con;
  ApiErrors errors;
  for (const auto& [key, value] : as_fields(crm, path, errors).items()) {
    std::string_view k = key;
    CrmFieldsCheck* side = &acc;
    const ObjectDef* object = account;
    std::string name = key;
    if (ends_with_ci(k, "__pc")) {
      side = &con, object = contact, name = key.substr(0, key.size() - 4) + "__c";
    } else if (ends_with_ci(k, "__c")) {
      if (!account->field(k) && contact->field(k)) {
        std::string hint = key.substr(0, key.size() - 1) + "pc";
        add_error(acc, path, key,
                  "no field " + key + " exists on Account; a person account's custom contact " +
                      "fields end in __pc (" + hint + ")");
        side = nullptr;
      }
    } else if (iequals(k, "FirstName") || iequals(k, "LastName") || iequals(k, "Salutation")) {
      side = &con, object = contact;
    } else if (k.size() > 6 && iequals(k.substr(0, 6), "Person") && contact->field(k.substr(6))) {
      side = &con, object = contact, name = key.substr(6);
    } else if (iequals(k, "Name")) {
      add_error(acc, path, key,
                "Account.Name of a person account is its FirstName and LastName; send those");
      side = nullptr;
    } else if (!account->field(k) && contact->field(k)) {
      add_error(acc, path, key,
                "no field " + key +
                    " exists on Account; a person account's contact fields are "
                    "prefixed Person (Person" +
                    key + ")");
      side = nullptr;
    }
    if (side) check_crm_field(key, name, value, *object, path, &config, *side);
    for (auto* c : {&acc, &con}) {
      for (auto& e : c->errors) errors.push_back(std::move(e));
      c->errors.clear();
    }
  }
  out.account = std::move(acc.values);
  out.contact = std::move(con.values);
  out.errors = std::move(errors);
  return out;
}

}  // namespace fake_org
