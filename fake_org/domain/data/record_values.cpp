#include "record_values.h"

#include <algorithm>
#include <optional>

#include "domain/core/clock.h"
#include "domain/core/fields.h"
#include "domain/core/ids.h"
#include "domain/org/standard_records.h"
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
  if (text::utf8_length(s) > static_cast<size_t>(std::max(f.length, 0)))
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

// Adds one to a string of decimal digits.
void increment(std::string& digits) {
  for (size_t i = digits.size(); i-- > 0;) {
    if (digits[i] != '9') {
      ++digits[i];
      return;
    }
    digits[i] = '0';
  }
  digits.insert(digits.begin(), '1');
}

// "59.97000000000001" at scale 2 is "59.97": the platform rounds extra
// decimals half up (away from zero) rather than refusing them, and a
// JavaScript client's float arithmetic sends such values.
std::string round_to_scale(const std::string& s, int scale) {
  const bool negative = s[0] == '-';
  std::string digits = s.substr(negative || s[0] == '+' ? 1 : 0);
  const size_t dot = digits.find('.');
  std::string whole = digits.substr(0, dot);
  std::string fraction = dot == std::string::npos ? "" : digits.substr(dot + 1);
  const size_t keep = static_cast<size_t>(std::max(scale, 0));
  if (fraction.size() > keep) {
    const bool up = fraction[keep] >= '5';
    fraction.resize(keep);
    std::string all = whole + fraction;
    if (up) increment(all);
    whole = all.substr(0, all.size() - keep);
    fraction = all.substr(all.size() - keep);
  }
  whole.erase(0, std::min(whole.find_first_not_of('0'), whole.size()));
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  const bool zero = whole.empty() && fraction.empty();
  return (negative && !zero ? "-" : "") + (whole.empty() ? "0" : whole) +
         (fraction.empty() ? "" : "." + fraction);
}

// The platform's int fields (a number of scale 0) are 32-bit.
bool outside_int(const FieldDef& f, const std::string& rounded) {
  if (f.type != FieldType::kNumber || f.scale != 0) return false;
  const bool negative = rounded[0] == '-';
  const std::string digits = rounded.substr(negative ? 1 : 0);
  const std::string limit = negative ? "2147483648" : "2147483647";
  return digits.size() > limit.size() || (digits.size() == limit.size() && digits > limit);
}

ValueCheck check_number(const FieldDef& f, const std::string& s) {
  if (s.size() > 400 || !shapes::decimal(s, true))
    return refuse(code::kInvalidTypeOnField, "a number");
  const std::string rounded = round_to_scale(s, f.scale);
  const size_t start = rounded[0] == '-' ? 1 : 0;
  const size_t dot = std::min(rounded.find('.'), rounded.size());
  const size_t whole = rounded[start] == '0' ? 0 : dot - start;
  const int whole_max = std::max(f.precision - f.scale, 0);
  if (static_cast<int>(whole) > whole_max || outside_int(f, rounded))
    return refuse(
        code::kNumberOutsideValidRange,
        "a number of at most " + std::to_string(whole_max) + " digits before the decimal point");
  if (dot == rounded.size() && whole <= 18) return accept(std::stoll(rounded));
  return accept(std::stod(rounded));
}

// The platform writes an instant as 2027-01-05T08:11:12.123+0000 and takes
// that back on a write, as it takes Z and +00:00, with or without the
// milliseconds; stored in the org's one form (UTC, milliseconds, Z).
std::optional<std::string> datetime_value(const std::string& s) {
  auto at = parse_iso8601(s);
  const size_t n = s.size();
  if (!at && n >= 5 && (s[n - 5] == '+' || s[n - 5] == '-')) {
    bool digits = true;
    for (size_t i = n - 4; i < n; ++i) digits = digits && shapes::is_digit(s[i]);
    if (digits) at = parse_iso8601(s.substr(0, n - 2) + ":" + s.substr(n - 2));
  }
  if (!at) return std::nullopt;
  return format_iso8601(*at);
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
      if (auto v = datetime_value(s)) return accept(std::move(*v));
      return refuse(code::kInvalidTypeOnField,
                    "an ISO 8601 date-time such as 2027-01-31T09:00:00.000+0000");
    case FieldType::kReference:
      return check_reference(config, f, s, exists, missing_reference);
  }
  return accept(s);
}

namespace {

// The platform's words where it fixes them (the field's label, then the
// value as sent); elsewhere what the value must be.
std::string platform_message(const FieldDef& f, const ValueCheck& c, const nlohmann::json& value) {
  const std::string label = data::field_label(f);
  const std::string sent = scalar_text(value);
  if (c.code == code::kNumberOutsideValidRange)
    return label + ": value outside of valid range on numeric field: " + sent;
  if (c.code == code::kStringTooLong)
    return label + ": data value too large: " + text::utf8_prefix(sent, 255) +
           " (max length=" + std::to_string(f.length) + ")";
  if (c.code == code::kInvalidEmail) return label + ": invalid email address: " + sent;
  return f.name + ": must be " + c.must + ", found " + text::json_text(value);
}

data::DataError read_only_field(const std::string& shown) {
  return data::data_error(
      code::kInvalidFieldForInsertUpdate,
      "Unable to create/update fields: " + shown +
          ". Please check the security settings of this field and verify that it is "
          "read/write for your profile or permission set.",
      {shown});
}

// OwnerId (a User, kept as given) and RecordTypeId (one of the object's
// record types, kept as its developer name); CreatedById and
// LastModifiedById are the org's own.
void check_system_reference(const OrgConfig& config, const ObjectDef& object, const char* field,
                            const nlohmann::json& value, const RecordExists& exists,
                            nlohmann::json& out, data::DataErrors& errors) {
  const std::string name = field;
  if (name != system_field::kOwnerId && name != system_field::kRecordTypeId)
    return errors.push_back(read_only_field(name));
  const std::string key = name == system_field::kOwnerId ? name : fields::kRecordTypeName;
  if (value.is_null() || (value.is_string() && value.get_ref<const std::string&>().empty())) {
    out[key] = nullptr;  // back to the default: the integration user, the default type
    return;
  }
  const std::string sent = scalar_text(value);
  std::optional<std::string> id;
  if (value.is_string()) id = to_id18(sent);
  if (name == system_field::kRecordTypeId) {
    const RecordTypeDef* type = id ? record_type_by_id(object, *id) : nullptr;
    if (type) {
      out[key] = type->name;
      return;
    }
    return errors.push_back(data::data_error(
        code::kInvalidCrossReference,
        "Record Type ID: this ID value isn't valid for the user: " + sent, {name}));
  }
  FieldDef owner;
  owner.name = name;
  owner.type = FieldType::kReference;
  owner.reference_to = "User";
  ValueCheck c = check_reference(config, owner, sent, exists, "the id of an active user");
  if (c.ok() && value.is_string()) {
    out[key] = std::move(c.value);
    return;
  }
  const bool malformed = !value.is_string() || c.code == code::kMalformedId;
  errors.push_back(data::data_error(malformed ? code::kMalformedId : c.code,
                                    malformed ? "Owner ID: id value of incorrect type: " + sent
                                              : "Owner ID: invalid cross reference id",
                                    {name}));
}

// One field of a body: its problem, if any, else its value into `out`.
void check_one(const OrgConfig& config, const ObjectDef& object, const std::string& name,
               const nlohmann::json& value, const RecordExists& exists, nlohmann::json& out,
               data::DataErrors& errors) {
  const FieldDef* f = object.field(name);
  if (const char* system = f ? nullptr : system_reference_field(object, name))
    return check_system_reference(config, object, system, value, exists, out, errors);
  if (!f && !data::is_system_field(name)) {
    errors.push_back(data::data_error(
        code::kInvalidField, "No such column '" + name + "' on sobject of type " + object.api_name,
        {name}));
    return;
  }
  if (!f || f->system) {
    errors.push_back(read_only_field(f ? f->name : name));
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
  // The platform reads "" as null: it clears a field and fills no required one.
  if (value.is_null() || (value.is_string() && value.get_ref<const std::string&>().empty())) {
    out[f->name] = nullptr;
    return;
  }
  ValueCheck c = check_field_value(config, *f, scalar_text(value), !value.is_string(), exists);
  if (c.ok()) {
    out[f->name] = std::move(c.value);
    return;
  }
  errors.push_back(data::data_error(c.code, platform_message(*f, c, value), {f->name}));
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
