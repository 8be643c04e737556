#include "record_values.h"

#include <algorithm>

#include "domain/core/clock.h"
#include "domain/core/ids.h"
#include "sobject_describe.h"
#include "util/email.h"
#include "util/json_text.h"
#include "util/shapes.h"
#include "util/text.h"
#include "util/utf8.h"

namespace fake_org {

namespace {

namespace code = data::code;

ValueCheck accept(nlohmann::json v) {
  return ValueCheck{std::move(v), {}, {}};
}
ValueCheck refuse(const char* code, std::string must) {
  return ValueCheck{nlohmann::json(), code, std::move(must)};
}

bool listed(const FieldDef& f, const std::string& value) {
  return std::find(f.picklist_values.begin(), f.picklist_values.end(), value) !=
         f.picklist_values.end();
}

ValueCheck check_text(const FieldDef& f, const std::string& s) {
  if (static_cast<int>(s.size()) > f.length)
    return refuse(code::kStringTooLong, "at most " + std::to_string(f.length) + " characters");
  if (f.type == FieldType::kEmail)
    if (auto problem = email::problem(s))
      return refuse(code::kInvalidEmail,
                    "an email address like name@example.org (it " + *problem + ")");
  return accept(s);
}

ValueCheck check_multipicklist(const FieldDef& f, const std::string& s) {
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(';', start);
    std::string item = s.substr(start, end == std::string::npos ? end : end - start);
    if (!listed(f, item))
      return refuse(code::kRestrictedPicklist,
                    "values from " + text::join(f.picklist_values) + " separated by ';'");
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return accept(s);
}

ValueCheck check_number(const FieldDef& f, const std::string& s) {
  if (s.size() > 40 || !shapes::decimal(s, true))
    return refuse(code::kInvalidTypeOnField, "a number");
  auto dot = s.find('.');
  int scale = dot == std::string::npos ? 0 : static_cast<int>(s.size() - dot - 1);
  if (scale > f.scale)
    return refuse(code::kInvalidTypeOnField,
                  "a number with at most " + std::to_string(f.scale) + " decimals");
  if (dot == std::string::npos && s.size() < 19) return accept(std::stoll(s));
  return accept(std::stod(s));
}

ValueCheck check_reference(const OrgConfig& config, const FieldDef& f, const std::string& s,
                           const RecordExists& exists, std::string_view missing) {
  auto id = to_id18(s);
  const ObjectDef* target = config.object(f.reference_to);
  if (!id) return refuse(code::kMalformedId, "a 15- or 18-character record id");
  if (target && id->compare(0, 3, target->key_prefix) != 0)
    return refuse(code::kInvalidCrossReference,
                  "the id of a " + f.reference_to + " record (prefix " + target->key_prefix + ")");
  if (exists && !exists(*id)) return refuse(code::kInvalidCrossReference, std::string(missing));
  return accept(*id);
}

}  // namespace

std::string scalar_text(const nlohmann::json& v) {
  if (v.is_null()) return "";
  return v.is_string() ? v.get<std::string>() : text::json_text(v);
}

ValueCheck check_field_value(const OrgConfig& config, const FieldDef& f, const std::string& s,
                             bool plain, const RecordExists& exists,
                             std::string_view missing_reference) {
  switch (f.type) {
    case FieldType::kText:
    case FieldType::kTextArea:
    case FieldType::kPhone:
    case FieldType::kUrl:
    case FieldType::kEmail:
      return check_text(f, s);
    case FieldType::kPicklist:
      if (!listed(f, s))
        return refuse(code::kRestrictedPicklist, "one of " + text::join(f.picklist_values));
      return accept(s);
    case FieldType::kMultiPicklist:
      return check_multipicklist(f, s);
    case FieldType::kNumber:
    case FieldType::kCurrency:
    case FieldType::kPercent:
      return check_number(f, s);
    case FieldType::kBoolean:
      if (plain && (s == "true" || s == "false")) return accept(s == "true");
      return refuse(code::kInvalidTypeOnField, "true or false");
    case FieldType::kDate:
      if (!parse_date(s)) return refuse(code::kInvalidTypeOnField, "a date YYYY-MM-DD");
      return accept(s);
    case FieldType::kDateTime:
      if (!parse_iso8601(s))
        return refuse(code::kInvalidTypeOnField,
                      "an ISO 8601 date-time such as 2027-01-31T09:00:00Z");
      return accept(s);
    case FieldType::kReference:
      return check_reference(config, f, s, exists, missing_reference);
  }
  return accept(s);
}

namespace {

// One field of a body: its problem, if any, else its value into `out`.
void check_one(const OrgConfig& config, const ObjectDef& object, const std::string& name,
               const nlohmann::json& value, const RecordExists& exists, nlohmann::json& out,
               data::DataErrors& errors) {
  const FieldDef* f = object.field(name);
  if (!f && !data::is_system_field(name)) {
    errors.push_back(data::data_error(
        code::kInvalidField, "No such column '" + name + "' on sobject of type " + object.api_name,
        {name}));
    return;
  }
  if (!f || f->system) {
    const std::string shown = f ? f->name : name;
    errors.push_back(data::data_error(
        code::kInvalidFieldForInsertUpdate,
        "Unable to create/update fields: " + shown +
            ". Please check the security settings of this field and verify that it is "
            "read/write for your profile or permission set.",
        {shown}));
    return;
  }
  if (value.is_object() || value.is_array()) {
    errors.push_back(data::data_error(code::kJsonParserError,
                                      "Cannot deserialize instance of " +
                                          std::string(data::platform_type(*f)) + " from " +
                                          (value.is_object() ? "START_OBJECT" : "START_ARRAY") +
                                          " value at [field " + f->name + "]",
                                      {f->name}));
    return;
  }
  if (value.is_null()) {
    out[f->name] = nullptr;
    return;
  }
  ValueCheck c = check_field_value(config, *f, scalar_text(value), !value.is_string(), exists);
  if (c.ok()) {
    out[f->name] = std::move(c.value);
    return;
  }
  errors.push_back(data::data_error(
      c.code, f->name + ": must be " + c.must + ", found " + text::json_text(value), {f->name}));
}

}  // namespace

data::DataErrors check_record_body(const OrgConfig& config, const ObjectDef& object,
                                   const nlohmann::json& body, WriteKind kind,
                                   const RecordExists& exists, nlohmann::json& out) {
  out = nlohmann::json::object();
  data::DataErrors errors;
  if (!body.is_object()) {
    errors.push_back(data::data_error(code::kJsonParserError, "The body must be a JSON object of " +
                                                                  object.api_name + " fields"));
    return errors;
  }
  for (const auto& [name, value] : body.items()) {
    if (name == "attributes") continue;
    check_one(config, object, name, value, exists, out, errors);
  }
  std::vector<std::string> missing;
  for (const FieldDef& f : object.fields) {
    if (!data::required_on_create(object, f)) continue;
    const bool absent = !out.contains(f.name) && !body.contains(f.name);
    const bool cleared = out.contains(f.name) && out[f.name].is_null();
    if (cleared || (kind == WriteKind::kCreate && absent)) missing.push_back(f.name);
  }
  if (!missing.empty())
    errors.push_back(data::data_error(code::kRequiredFieldMissing,
                                      "Required fields are missing: [" + text::join(missing) + "]",
                                      missing));
  return errors;
}

}  // namespace fake_org
