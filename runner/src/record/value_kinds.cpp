#include "record/value_kinds.h"

#include <algorithm>
#include <cctype>
#include <regex>

namespace runner::record {
namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Record ids need a digit and a letter, so words of 15 or 18 letters
// ("PaymentIntentIds") and long numbers are not taken for ids.
bool record_id_shape(const std::string& v) {
  if (v.size() != 15 && v.size() != 18) return false;
  bool digit = false, alpha = false;
  for (char c : v) {
    if (std::isdigit(static_cast<unsigned char>(c)))
      digit = true;
    else if (std::isalpha(static_cast<unsigned char>(c)))
      alpha = true;
    else
      return false;
  }
  return digit && alpha;
}

const std::regex& guid_re() {
  static const std::regex re(
      "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$");
  return re;
}
const std::regex& pi_re() {
  static const std::regex re("^pi_[A-Za-z0-9]+$");
  return re;
}
const std::regex& timestamp_re() {
  static const std::regex re(
      "^[0-9]{4}-[0-9]{2}-[0-9]{2}[T "
      "][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?$");
  return re;
}
const std::regex& date_re() {
  static const std::regex re("^[0-9]{4}-[0-9]{2}-[0-9]{2}$");
  return re;
}

bool luhn(const std::string& digits) {
  int sum = 0;
  bool twice = false;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    int d = *it - '0';
    if (twice) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
    twice = !twice;
  }
  return sum % 10 == 0;
}

// ISO 13616 check: move the first four characters to the end, letters to
// numbers, mod 97 must be 1.
bool iban_valid(const std::string& v) {
  static const std::regex re("^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$");
  if (!std::regex_match(v, re)) return false;
  const std::string r = v.substr(4) + v.substr(0, 4);
  int mod = 0;
  for (char c : r) {
    int n = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : c - 'A' + 10;
    mod = n >= 10 ? (mod * 100 + n) % 97 : (mod * 10 + n) % 97;
  }
  return mod == 1;
}

}  // namespace

ValueKind classify(const std::string& key, const std::string& value) {
  const std::string k = lower(key);
  if (k == "access_token" || k == "refresh_token" || k == "id_token" || k == "signature")
    return ValueKind::kToken;
  if (std::regex_match(value, pi_re())) return ValueKind::kPaymentIntentId;
  if (std::regex_match(value, guid_re())) return ValueKind::kGuid;
  if (record_id_shape(value)) return ValueKind::kRecordId;
  if (std::regex_match(value, timestamp_re())) return ValueKind::kTimestamp;
  if (k == "issued_at" && !value.empty() && std::all_of(value.begin(), value.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
      }))
    return ValueKind::kTimestamp;
  if (std::regex_match(value, date_re())) return ValueKind::kDate;
  if (value.rfind("http://", 0) == 0 || value.rfind("https://", 0) == 0)
    return generated_values_in(value).empty() ? ValueKind::kUrl : ValueKind::kUrlWithId;
  return ValueKind::kPlain;
}

bool is_generated(ValueKind k) {
  return k == ValueKind::kPaymentIntentId || k == ValueKind::kRecordId || k == ValueKind::kGuid;
}

std::string kind_regex(ValueKind k) {
  switch (k) {
    case ValueKind::kPaymentIntentId:
      return "^pi_[A-Za-z0-9]+$";
    case ValueKind::kRecordId:
      return "^[A-Za-z0-9]{15}([A-Za-z0-9]{3})?$";
    case ValueKind::kGuid:
      return "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";
    case ValueKind::kTimestamp:
      return "^[0-9]{4}-[0-9]{2}-[0-9]{2}T|^[0-9]+$";
    case ValueKind::kDate:
      return "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";
    case ValueKind::kUrl:
    case ValueKind::kUrlWithId:
      return "^https?://";
    case ValueKind::kToken:
    case ValueKind::kPlain:
      break;
  }
  return "";
}

std::vector<std::string> generated_values_in(const std::string& text) {
  // Candidates are runs of id characters; each is classified on its own.
  static const std::regex token("[A-Za-z0-9_-]+");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), token);
       it != std::sregex_iterator(); ++it) {
    std::string t = it->str();
    // pi_ ids and GUIDs contain '_' and '-', record ids neither.
    if (std::regex_match(t, pi_re()) || std::regex_match(t, guid_re())) {
      out.push_back(t);
      continue;
    }
    static const std::regex word("[A-Za-z0-9]+");
    for (auto w = std::sregex_iterator(t.begin(), t.end(), word); w != std::sregex_iterator(); ++w)
      if (record_id_shape(w->str())) out.push_back(w->str());
  }
  return out;
}

bool is_secret_key(const std::string& key) {
  static const char* const kSecret[] = {
      "client_secret", "refresh_token", "access_token",  "id_token", "password", "code",
      "code_verifier", "assertion",     "authorization", "secret",   "apikey",   "api_key"};
  const std::string k = lower(key);
  return std::find(std::begin(kSecret), std::end(kSecret), k) != std::end(kSecret);
}

bool is_card_number(const std::string& key, const std::string& value) {
  const std::string k = lower(key);
  std::string digits;
  for (char c : value) {
    if (std::isdigit(static_cast<unsigned char>(c)))
      digits += c;
    else if (c != ' ' && c != '-')
      return false;
  }
  if (digits.size() < 13 || digits.size() > 19) return false;
  return k.find("card") != std::string::npos || k == "pan" || luhn(digits);
}

bool is_account_number(const std::string& key, const std::string& value) {
  const std::string k = lower(key);
  if (value.empty()) return false;
  if (k == "iban" || k.find("accountnumber") != std::string::npos ||
      k.find("account_number") != std::string::npos)
    return true;
  return iban_valid(value);
}

bool is_enum_like(const std::string& key, const std::string& value) {
  const std::string k = lower(key);
  if (k.find("message") != std::string::npos || k.find("description") != std::string::npos)
    return false;
  if (value.empty() || value.size() > 40) return false;
  if (classify(key, value) != ValueKind::kPlain) return false;
  if (std::count(value.begin(), value.end(), ' ') > 3) return false;
  static const std::regex re("^[A-Za-z0-9][A-Za-z0-9_. /-]*$");
  return std::regex_match(value, re);
}

}  // namespace runner::record
