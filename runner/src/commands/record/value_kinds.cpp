#include "commands/record/value_kinds.h"

#include "util/ascii.h"
#include "util/luhn.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>

namespace runner::record {
namespace {

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

// prefix, separator, token: "cs_" + random, "CPM-" + random or digits.
const std::regex& prefixed_re() {
  static const std::regex re("^([A-Za-z][A-Za-z0-9]{0,11})([_-])([A-Za-z0-9]+)$");
  return re;
}
// Autonumbers need 4 digits, so "ERR-200" style codes stay enums.
const std::regex& autonumber_re() {
  static const std::regex re("^[A-Za-z][A-Za-z0-9]{0,11}-[0-9]{4,}$");
  return re;
}

bool opaque_id_shape(const std::string& v) {
  std::smatch m;
  if (!std::regex_match(v, m, prefixed_re())) return false;
  return high_entropy(m[3].str());
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
  const std::string k = fake_org::ascii_lower(key);
  if (k == "access_token" || k == "refresh_token" || k == "id_token" || k == "signature")
    return ValueKind::kToken;
  if (std::regex_match(value, pi_re())) return ValueKind::kPaymentIntentId;
  if (std::regex_match(value, guid_re())) return ValueKind::kGuid;
  if (record_id_shape(value)) return ValueKind::kRecordId;
  if (std::regex_match(value, autonumber_re())) return ValueKind::kAutoNumber;
  if (opaque_id_shape(value)) return ValueKind::kOpaqueId;
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
  return k == ValueKind::kPaymentIntentId || k == ValueKind::kRecordId || k == ValueKind::kGuid ||
         k == ValueKind::kOpaqueId || k == ValueKind::kAutoNumber;
}

bool high_entropy(const std::string& t) {
  if (t.size() < 8) return false;
  size_t digits = 0, letters = 0, transitions = 0, consonants = 0, longest = 0;
  std::set<char> distinct;
  int last = 0;  // 1 letter, 2 digit
  char prev = 0;
  for (char c : t) {
    const auto u = static_cast<unsigned char>(c);
    if (!std::isalnum(u)) return false;
    distinct.insert(static_cast<char>(std::tolower(u)));
    const int cls = std::isdigit(u) ? 2 : 1;
    if (cls == 2)
      ++digits;
    else
      ++letters;
    if (last && cls != last) ++transitions;
    last = cls;
    // Consonant runs; a lower-to-upper hump starts a new word ("FirstName").
    const bool consonant = cls == 1 && std::string("aeiouAEIOU").find(c) == std::string::npos;
    if (!consonant)
      consonants = 0;
    else if (std::islower(static_cast<unsigned char>(prev)) && std::isupper(u))
      consonants = 1;
    else
      ++consonants;
    longest = std::max(longest, consonants);
    prev = c;
  }
  // Letters and digits interleaved ("tr2gfpkfb407"), not a word and a number ("Transfer1").
  if (digits && letters && transitions >= 2) return true;
  // A long number (a reference, epoch milliseconds).
  if (!letters) return t.size() >= 10;
  // Long, varied, and with a run of four consonants no word has
  // ("hqhqzbcoycszbtxfak92"); random base 36 almost always has one.
  if (t.size() >= 12 && distinct.size() >= 8 && longest >= 4) return true;
  // Random base 36 without a digit or such a run turns up too (CI met
  // "qezaponizbamcayisvfu"): sixteen lower-case letters and more, ten of them
  // distinct, are no name an API answers with (names are camel case or split).
  const bool lower = std::all_of(
      t.begin(), t.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); });
  return lower && t.size() >= 16 && distinct.size() >= 10;
}

std::string shape_of(const std::string& text) {
  static const std::regex run("[A-Za-z0-9]{12,}");
  std::string out;
  size_t last = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), run); it != std::sregex_iterator();
       ++it) {
    const std::string r = it->str();
    // Camel-case words ("PartiallyPaid") keep their letters: they are names.
    const bool upper = std::any_of(
        r.begin(), r.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)); });
    const bool digit = std::any_of(
        r.begin(), r.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    out += text.substr(last, it->position() - last);
    out += upper && !digit ? r : "<" + std::to_string(r.size()) + ">";
    last = it->position() + it->length();
  }
  return out + text.substr(last);
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
    case ValueKind::kOpaqueId:
      return "^[A-Za-z][A-Za-z0-9]{0,11}[_-][A-Za-z0-9]{8,}$";
    case ValueKind::kAutoNumber:
      return "^[A-Za-z][A-Za-z0-9]{0,11}-[0-9]{4,}$";
    case ValueKind::kToken:
    case ValueKind::kPlain:
      break;
  }
  return "";
}

// The prefix and separator are letters, digits, '_' or '-': literal in a regex.
std::string value_regex(ValueKind k, const std::string& value) {
  std::smatch m;
  if (k == ValueKind::kOpaqueId && std::regex_match(value, m, prefixed_re()))
    return "^" + m[1].str() + m[2].str() + "[A-Za-z0-9]+$";
  if (k == ValueKind::kAutoNumber && std::regex_match(value, m, prefixed_re()))
    return "^" + m[1].str() + m[2].str() + "[0-9]+$";
  return kind_regex(k);
}

std::vector<std::string> generated_values_in(const std::string& text) {
  // Candidates are runs of id characters; each is classified on its own.
  static const std::regex token("[A-Za-z0-9_-]+");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), token);
       it != std::sregex_iterator(); ++it) {
    std::string t = it->str();
    // pi_ ids, GUIDs, prefixed ids and autonumbers contain '_' or '-', record ids neither.
    if (std::regex_match(t, pi_re()) || std::regex_match(t, guid_re()) ||
        std::regex_match(t, autonumber_re()) || opaque_id_shape(t)) {
      out.push_back(t);
      continue;
    }
    static const std::regex word("[A-Za-z0-9]+");
    for (auto w = std::sregex_iterator(t.begin(), t.end(), word); w != std::sregex_iterator(); ++w)
      if (record_id_shape(w->str())) out.push_back(w->str());
  }
  return out;
}

std::string normalise_generated(const std::string& text) {
  static const std::regex run("[A-Za-z0-9]+");
  std::string out;
  size_t from = 0;
  // Whole generated values first (they may hold '_' and '-'), then runs.
  for (const auto& g : generated_values_in(text)) {
    size_t at = text.find(g, from);
    if (at == std::string::npos) continue;
    out += text.substr(from, at - from) + "<" + to_string(classify("", g)) + ">";
    from = at + g.size();
  }
  out += text.substr(from);
  std::string result;
  size_t last = 0;
  for (auto it = std::sregex_iterator(out.begin(), out.end(), run); it != std::sregex_iterator();
       ++it) {
    result += out.substr(last, it->position() - last);
    result += high_entropy(it->str()) ? std::string("<token>") : it->str();
    last = it->position() + it->length();
  }
  return result + out.substr(last);
}

std::string to_string(ValueKind k) {
  switch (k) {
    case ValueKind::kPlain:
      return "plain";
    case ValueKind::kPaymentIntentId:
      return "pi";
    case ValueKind::kRecordId:
      return "record-id";
    case ValueKind::kGuid:
      return "guid";
    case ValueKind::kTimestamp:
      return "timestamp";
    case ValueKind::kDate:
      return "date";
    case ValueKind::kUrlWithId:
      return "url-with-id";
    case ValueKind::kUrl:
      return "url";
    case ValueKind::kToken:
      return "token";
    case ValueKind::kOpaqueId:
      return "opaque-id";
    case ValueKind::kAutoNumber:
      return "autonumber";
  }
  return "plain";
}

bool is_secret_key(const std::string& key) {
  static const char* const kSecret[] = {
      "client_secret", "refresh_token", "access_token",  "id_token", "password", "code",
      "code_verifier", "assertion",     "authorization", "secret",   "apikey",   "api_key"};
  const std::string k = fake_org::ascii_lower(key);
  return std::find(std::begin(kSecret), std::end(kSecret), k) != std::end(kSecret);
}

bool is_card_number(const std::string& key, const std::string& value) {
  const std::string k = fake_org::ascii_lower(key);
  std::string digits;
  for (char c : value) {
    if (std::isdigit(static_cast<unsigned char>(c)))
      digits += c;
    else if (c != ' ' && c != '-')
      return false;
  }
  if (digits.size() < 13 || digits.size() > 19) return false;
  return k.find("card") != std::string::npos || k == "pan" || fake_org::luhn_valid(digits);
}

bool is_account_number(const std::string& key, const std::string& value) {
  const std::string k = fake_org::ascii_lower(key);
  if (value.empty()) return false;
  if (k == "iban" || k.find("accountnumber") != std::string::npos ||
      k.find("account_number") != std::string::npos)
    return true;
  return iban_valid(value);
}

std::vector<std::string> card_numbers_in(const std::string& text) {
  auto digit = [&](size_t i) {
    return i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]));
  };
  // Letters, digits, '_' and '-' make ids: a number touching them is part of one.
  auto word_char = [&](size_t i) {
    const auto c = static_cast<unsigned char>(text[i]);
    return std::isalnum(c) || c == '_' || c == '-';
  };
  static const std::vector<std::vector<size_t>> kPrinted = {
      {4, 4, 4, 4, 3}, {4, 4, 4, 4}, {4, 6, 5}};
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    if (!digit(i)) {
      ++i;
      continue;
    }
    // Digit groups joined by single spaces or dashes: [begin, end) each.
    std::vector<std::pair<size_t, size_t>> groups;
    size_t j = i;
    while (true) {
      const size_t begin = j;
      while (digit(j)) ++j;
      groups.emplace_back(begin, j);
      if (j + 1 < text.size() && (text[j] == ' ' || text[j] == '-') && digit(j + 1)) {
        ++j;
        continue;
      }
      break;
    }
    const bool own_word = (i == 0 || !word_char(i - 1)) && (j >= text.size() || !word_char(j));
    auto digits_of = [&](size_t from, size_t to) {
      std::string d;
      for (size_t g = from; g < to; ++g)
        d += text.substr(groups[g].first, groups[g].second - groups[g].first);
      return d;
    };
    for (size_t k = 0; own_word && k < groups.size();) {
      size_t taken = 0;
      for (const auto& form : kPrinted) {
        if (k + form.size() > groups.size()) continue;
        bool fits = true;
        for (size_t g = 0; g < form.size() && fits; ++g) {
          fits = groups[k + g].second - groups[k + g].first == form[g];
          if (g > 0)  // one separator throughout
            fits = fits && text[groups[k + g].first - 1] == text[groups[k + 1].first - 1];
        }
        if (fits && fake_org::luhn_valid(digits_of(k, k + form.size()))) {
          taken = form.size();
          break;
        }
      }
      const size_t len = groups[k].second - groups[k].first;
      if (!taken && len >= 12 && len <= 19 && fake_org::luhn_valid(digits_of(k, k + 1))) taken = 1;
      if (taken) {
        const size_t begin = groups[k].first, end = groups[k + taken - 1].second;
        out.push_back(text.substr(begin, end - begin));
        k += taken;
      } else {
        ++k;
      }
    }
    i = j;
  }
  return out;
}

bool is_enum_like(const std::string& key, const std::string& value) {
  const std::string k = fake_org::ascii_lower(key);
  if (k.find("message") != std::string::npos || k.find("description") != std::string::npos)
    return false;
  if (value.empty() || value.size() > 40) return false;
  if (classify(key, value) != ValueKind::kPlain) return false;
  if (std::count(value.begin(), value.end(), ' ') > 3) return false;
  static const std::regex re("^[A-Za-z0-9][A-Za-z0-9_. /-]*$");
  return std::regex_match(value, re);
}

}  // namespace runner::record
