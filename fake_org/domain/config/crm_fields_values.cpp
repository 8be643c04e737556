#include "crm_fields_values.h"

#include <strings.h>

#include <cctype>
#include <cstdlib>
#include <optional>

#include "domain/core/clock.h"
#include "domain/core/ids.h"
#include "util/ascii.h"
#include "util/email.h"
#include "util/json_text.h"
#include "util/text.h"
#include "util/utf8.h"

namespace fake_org::crm_detail {

namespace {

using nlohmann::json;

// ---- text helpers -------------------------------------------------------------

std::string trim(std::string_view s) {
  return std::string(text::trim(s));
}

// Messages echo the client's value; a long one is cut at a character
// boundary so the message stays valid UTF-8 (nlohmann refuses to dump it else).
std::string in_quotes(std::string_view s) {
  constexpr size_t kMax = 60;
  if (s.size() <= kMax) return "'" + std::string(s) + "'";
  size_t cut = kMax;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return "'" + std::string(s.substr(0, cut)) + "...'";
}

std::string shown(const json& v) {
  return v.is_string() ? in_quotes(v.get_ref<const std::string&>()) : in_quotes(text::json_text(v));
}

using text::join;

// ---- one value ------------------------------------------------------------------

Checked refuse(std::string reason) {
  return Checked{json(), std::move(reason)};
}
Checked accept(json value) {
  return Checked{std::move(value), {}};
}

Checked check_length(std::string text, int max) {
  size_t n = text::utf8_length(text);
  if (max > 0 && n > static_cast<size_t>(max))
    return refuse("is too long: " + std::to_string(n) + " characters, at most " +
                  std::to_string(max) + " allowed");
  return accept(json(std::move(text)));
}

Checked check_email(const FieldDef& f, const std::string& s) {
  // Email fields hold at most 80 characters on the platform whatever the fixture says.
  int max = f.length > 0 && f.length < 80 ? f.length : 80;
  Checked c = check_length(s, max);
  if (!c.reason.empty()) return c;
  if (auto p = email::problem(s))
    return refuse("must be an email address like name@example.org: " + in_quotes(s) + " " + *p);
  return c;
}

// Digits with the usual separators, an optional leading '+', and an optional
// extension ("x12", "ext. 12"); at least 3 digits before the extension.
Checked check_phone(const FieldDef& f, const std::string& s) {
  Checked c = check_length(s, f.length);
  if (!c.reason.empty()) return c;
  const std::string why =
      "must be a phone number (digits, spaces, + - ( ) . / and an extension like x12): " +
      in_quotes(s);
  int digits = 0;
  size_t i = 0;
  for (; i < s.size(); ++i) {
    char ch = s[i];
    if (std::isdigit(static_cast<unsigned char>(ch))) {
      ++digits;
    } else if (ch == '+') {
      if (i != 0) return refuse(why + " has a '+' that is not at the start");
    } else if (ch == 'x' || ch == 'X' || ch == 'e' || ch == 'E') {
      break;  // the extension
    } else if (std::string_view(" -().//").find(ch) == std::string_view::npos) {
      return refuse(why + " has the character '" + std::string(1, ch) + "'");
    }
  }
  if (digits < 3) return refuse(why + " has fewer than 3 digits");
  if (i == s.size()) return c;
  std::string ext;
  for (char ch : s.substr(i))
    ext += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (std::string_view p : {"ext.", "ext", "x"})
    if (ext.compare(0, p.size(), p) == 0) {
      ext.erase(0, p.size());
      break;
    }
  ext = trim(ext);
  bool ok = !ext.empty();
  for (char ch : ext) ok = ok && std::isdigit(static_cast<unsigned char>(ch));
  if (!ok) return refuse(why + " has an extension that is not 'x' or 'ext' and digits");
  return c;
}

bool valid_host(std::string_view host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    for (char c : host.substr(1, host.size() - 2))
      if (!std::isxdigit(static_cast<unsigned char>(c)) && c != ':' && c != '.') return false;
    return host.size() > 2;
  }
  if (host.empty() || host.front() == '.' || host.back() == '.') return false;
  for (char c : host)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') return false;
  return host.find("..") == std::string_view::npos;
}

Checked check_url(const FieldDef& f, const std::string& s) {
  Checked c = check_length(s, f.length);
  if (!c.reason.empty()) return c;
  // Written only for a refusal: quoting the URL cost more than checking it.
  const auto refuse_url = [&s](const char* problem) {
    return refuse("must be an absolute http or https URL: " + in_quotes(s) + problem);
  };
  std::string_view rest = s;
  if (rest.size() > 7 && iequals(rest.substr(0, 7), "http://"))
    rest.remove_prefix(7);
  else if (rest.size() > 8 && iequals(rest.substr(0, 8), "https://"))
    rest.remove_prefix(8);
  else
    return refuse_url(" does not start with http:// or https://");
  for (char ch : s)
    if (static_cast<unsigned char>(ch) <= 0x20 || ch == 0x7f) return refuse_url(" has a space");
  std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
  if (size_t at = authority.rfind('@'); at != std::string_view::npos)
    authority.remove_prefix(at + 1);
  std::string_view host = authority;
  size_t colon = authority.rfind(':');
  if (colon != std::string_view::npos && authority.find(']', colon) == std::string_view::npos) {
    host = authority.substr(0, colon);
    std::string_view port = authority.substr(colon + 1);
    bool ok = !port.empty() && port.size() <= 5;
    for (char ch : port)
      if (!std::isdigit(static_cast<unsigned char>(ch))) ok = false;
    if (!ok || std::atoi(std::string(port).c_str()) > 65535)
      return refuse_url(" has an invalid port");
  }
  if (!valid_host(host)) return refuse_url(" has no valid host name");
  return c;
}

// A decimal number as digit strings: no leading zeros before the point and no
// trailing zeros after it, so digit counts match the platform's precision rules.
struct Decimal {
  bool negative = false;
  std::string whole;     // "" for zero
  std::string fraction;  // "" when integral
};

// "12.50", "-3", and (when allow_exponent, for JSON floats) "1e+21".
std::optional<Decimal> parse_decimal(std::string_view s, bool allow_exponent) {
  size_t i = 0;
  Decimal d;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) d.negative = s[i++] == '-';
  std::string digits;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) digits += s[i++];
  size_t whole_len = digits.size();
  if (whole_len == 0) return std::nullopt;
  if (i < s.size() && s[i] == '.') {
    ++i;
    size_t before = digits.size();
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) digits += s[i++];
    if (digits.size() == before) return std::nullopt;
  }
  long exponent = 0;
  if (allow_exponent && i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool neg = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
    size_t start = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && exponent < 100000)
      exponent = exponent * 10 + (s[i++] - '0');
    if (i == start) return std::nullopt;
    if (neg) exponent = -exponent;
  }
  if (i != s.size() || exponent > 1000 || exponent < -1000) return std::nullopt;
  long point = static_cast<long>(whole_len) + exponent;
  if (point <= 0) {
    d.fraction = std::string(static_cast<size_t>(-point), '0') + digits;
  } else if (static_cast<size_t>(point) >= digits.size()) {
    d.whole = digits + std::string(static_cast<size_t>(point) - digits.size(), '0');
  } else {
    d.whole = digits.substr(0, static_cast<size_t>(point));
    d.fraction = digits.substr(static_cast<size_t>(point));
  }
  size_t first = d.whole.find_first_not_of('0');
  d.whole.erase(0, first == std::string::npos ? d.whole.size() : first);
  while (!d.fraction.empty() && d.fraction.back() == '0') d.fraction.pop_back();
  if (d.whole.empty() && d.fraction.empty()) d.negative = false;
  return d;
}

Checked check_number(const FieldDef& f, const json& v) {
  std::optional<Decimal> d;
  if (v.is_number_integer() || v.is_number_unsigned()) {
    d = parse_decimal(text::json_text(v), false);
  } else if (v.is_number_float()) {
    d = parse_decimal(text::json_text(v), true);
    if (!d) return refuse("must be a finite number, got " + text::json_text(v));
  } else if (v.is_string()) {
    // The spec's rule for amounts (2.4: a number or a numeric string) holds
    // for every number field.
    d = parse_decimal(trim(v.get_ref<const std::string&>()), false);
    if (!d) return refuse("must be a number such as 12.50: " + shown(v) + " is not one");
  } else {
    return refuse("must be a number or a numeric string, got " + shown(v) + " (" +
                  std::string(v.type_name()) + ")");
  }
  int whole_max = f.precision - f.scale;
  if (static_cast<int>(d->whole.size()) > whole_max)
    return refuse("has " + std::to_string(d->whole.size()) +
                  " digits before the decimal point, at most " + std::to_string(whole_max) +
                  " allowed (precision " + std::to_string(f.precision) + ", scale " +
                  std::to_string(f.scale) + ")");
  if (static_cast<int>(d->fraction.size()) > f.scale)
    return refuse("has " + std::to_string(d->fraction.size()) +
                  " digits after the decimal point, at most " + std::to_string(f.scale) +
                  " allowed");
  std::string text = (d->negative ? "-" : "") + (d->whole.empty() ? "0" : d->whole);
  if (d->fraction.empty() && d->whole.size() <= 18)
    return accept(json(static_cast<int64_t>(std::strtoll(text.c_str(), nullptr, 10))));
  if (!d->fraction.empty()) text += "." + d->fraction;
  return accept(json(std::strtod(text.c_str(), nullptr)));
}

Checked check_boolean(const json& v) {
  if (v.is_boolean()) return accept(v);
  return refuse("must be the JSON boolean true or false, got " + shown(v) + " (" +
                std::string(v.type_name()) + ")");
}

Checked check_picklist(const FieldDef& f, const std::string& s) {
  if (f.picklist_values.empty()) return check_length(s, 255);  // unrestricted
  for (const auto& p : f.picklist_values)
    if (p == s) return accept(json(s));
  for (const auto& p : f.picklist_values)
    if (iequals(p, s))
      return refuse("does not have the value " + in_quotes(s) + "; did you mean '" + p +
                    "'? (values are case-sensitive)");
  return refuse("must be one of " + join(f.picklist_values, ", ") + "; got " + in_quotes(s));
}

Checked check_multipicklist(const FieldDef& f, const std::string& s) {
  std::vector<std::string> chosen;
  size_t start = 0;
  while (start <= s.size()) {
    size_t semi = s.find(';', start);
    if (semi == std::string::npos) semi = s.size();
    std::string item = trim(std::string_view(s).substr(start, semi - start));
    start = semi + 1;
    if (item.empty()) continue;
    bool known = f.picklist_values.empty();
    for (const auto& p : f.picklist_values) known = known || p == item;
    if (!known)
      return refuse("must be values of " + join(f.picklist_values, ", ") + " separated by ';'; " +
                    in_quotes(item) + " is not one (values are case-sensitive)");
    bool repeated = false;
    for (const auto& c : chosen) repeated = repeated || c == item;
    if (!repeated) chosen.push_back(item);
  }
  if (chosen.empty()) return accept(json());
  return accept(json(join(chosen, ";")));
}

Checked check_reference(const FieldDef& f, const std::string& s, const OrgConfig* config) {
  const std::string target = f.reference_to.empty() ? std::string("record") : f.reference_to;
  auto id18 = to_id18(s);
  if (!id18)
    return refuse("must be a 15- or 18-character " + target + " record id, got " + in_quotes(s));
  if (!config) return accept(json(*id18));
  const ObjectDef* ref = config->object(f.reference_to);
  if (ref && !ref->key_prefix.empty() && id18->compare(0, 3, ref->key_prefix) != 0) {
    std::string other;
    for (const auto& [name, def] : config->objects)
      if (def.key_prefix == id18->substr(0, 3)) other = " (" + name + ")";
    return refuse("must be an id of " + ref->api_name + " (prefix " + ref->key_prefix +
                  "): " + in_quotes(s) + " has the prefix " + id18->substr(0, 3) + other);
  }
  return accept(json(*id18));
}

// What a field takes, for messages about a value of the wrong JSON type.
std::string expected(const FieldDef& f) {
  switch (f.type) {
    case FieldType::kEmail:
      return "an email address";
    case FieldType::kPhone:
      return "a phone number";
    case FieldType::kUrl:
      return "a URL";
    case FieldType::kDate:
      return "a date in the form YYYY-MM-DD";
    case FieldType::kDateTime:
      return "an ISO 8601 date and time";
    case FieldType::kPicklist:
    case FieldType::kMultiPicklist:
      return "a picklist value";
    case FieldType::kReference:
      return "a record id";
    default:
      return "text";
  }
}

// The platform refuses to clear these: every record needs them.
bool required_name_field(const ObjectDef& object, const FieldDef& f) {
  return (object.api_name == objects::kContact && f.name == "LastName") ||
         (object.api_name == objects::kAccount && f.name == "Name");
}

}  // namespace

Checked check_value(const ObjectDef& object, const FieldDef& f, const json& v,
                    const OrgConfig* config) {
  if (v.is_object() || v.is_array())
    return refuse("must be a single value, not " +
                  std::string(v.is_object() ? "an object" : "an array"));
  bool is_empty = v.is_null() || (v.is_string() && trim(v.get_ref<const std::string&>()).empty());
  if (is_empty) {
    if (f.type == FieldType::kBoolean) return accept(json(false));
    if (required_name_field(object, f)) return refuse("is required and cannot be empty");
    return accept(json());
  }
  switch (f.type) {
    case FieldType::kNumber:
    case FieldType::kCurrency:
    case FieldType::kPercent:
      return check_number(f, v);
    case FieldType::kBoolean:
      return check_boolean(v);
    default:
      break;
  }
  // One rule for every field: text-like types take JSON strings only.
  if (!v.is_string())
    return refuse("must be " + expected(f) + " as a JSON string, got " + shown(v) + " (" +
                  std::string(v.type_name()) + ")");
  const std::string s = trim(v.get_ref<const std::string&>());
  switch (f.type) {
    case FieldType::kText:
    case FieldType::kTextArea:
      return check_length(s, f.length);
    case FieldType::kEmail:
      return check_email(f, s);
    case FieldType::kPhone:
      return check_phone(f, s);
    case FieldType::kUrl:
      return check_url(f, s);
    case FieldType::kDate: {
      if (auto d = parse_date(s)) return accept(json(format_date(*d)));
      bool shaped = s.size() == 10 && s[4] == '-' && s[7] == '-';
      return refuse(shaped ? "has " + in_quotes(s) + ", which is not a calendar date"
                           : "must be a date in the form YYYY-MM-DD, got " + in_quotes(s));
    }
    case FieldType::kDateTime:
      if (auto t = parse_iso8601(s)) return accept(json(format_iso8601(*t)));
      return refuse(
          "must be an ISO 8601 date and time with a zone, like 2027-01-31T09:00:00Z; got " +
          in_quotes(s));
    case FieldType::kPicklist:
      return check_picklist(f, s);
    case FieldType::kMultiPicklist:
      return check_multipicklist(f, s);
    case FieldType::kReference:
      return check_reference(f, s, config);
    default:
      return check_length(s, f.length);
  }
}

}  // namespace fake_org::crm_detail
