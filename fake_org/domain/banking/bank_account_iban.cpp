// IBAN structure and check digits (error 202): ISO 13616 with the country
// formats of the SWIFT IBAN registry (release 100) and ISO 7064 mod 97-10.
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string>

#include "bank_account.h"

namespace fake_org {
namespace {

// One registry entry. `bban` is in the registry's notation: "8!n10!n" means
// exactly 8 digits then exactly 10 digits; n = digit, a = upper-case letter,
// c = letter or digit. The bank identifier sits at [bank_start, +bank_length) of the BBAN.
struct IbanFormat {
  const char* country;
  const char* name;
  int length;
  const char* bban;
  int bank_start;
  int bank_length;
};

// Every country of the registry, release 100 (89 entries).
constexpr IbanFormat kFormats[] = {
    {"AD", "Andorra", 24, "4!n4!n12!c", 0, 4},
    {"AE", "United Arab Emirates", 23, "3!n16!n", 0, 3},
    {"AL", "Albania", 28, "8!n16!c", 0, 3},
    {"AT", "Austria", 20, "5!n11!n", 0, 5},
    {"AZ", "Azerbaijan", 28, "4!a20!c", 0, 4},
    {"BA", "Bosnia and Herzegovina", 20, "3!n3!n8!n2!n", 0, 3},
    {"BE", "Belgium", 16, "3!n7!n2!n", 0, 3},
    {"BG", "Bulgaria", 22, "4!a4!n2!n8!c", 0, 4},
    {"BH", "Bahrain", 22, "4!a14!c", 0, 4},
    {"BI", "Burundi", 27, "5!n5!n11!n2!n", 0, 5},
    {"BR", "Brazil", 29, "8!n5!n10!n1!a1!c", 0, 8},
    {"BY", "Belarus", 28, "4!c4!n16!c", 0, 4},
    {"CH", "Switzerland", 21, "5!n12!c", 0, 5},
    {"CR", "Costa Rica", 22, "4!n14!n", 0, 4},
    {"CY", "Cyprus", 28, "3!n5!n16!c", 0, 3},
    {"CZ", "Czechia", 24, "4!n6!n10!n", 0, 4},
    {"DE", "Germany", 22, "8!n10!n", 0, 8},
    {"DJ", "Djibouti", 27, "5!n5!n11!n2!n", 0, 5},
    {"DK", "Denmark", 18, "4!n9!n1!n", 0, 4},
    {"DO", "Dominican Republic", 28, "4!c20!n", 0, 4},
    {"EE", "Estonia", 20, "2!n14!n", 0, 2},
    {"EG", "Egypt", 29, "4!n4!n17!n", 0, 4},
    {"ES", "Spain", 24, "4!n4!n1!n1!n10!n", 0, 4},
    {"FI", "Finland", 18, "3!n11!n", 0, 3},
    {"FK", "Falkland Islands", 18, "2!a12!n", 0, 2},
    {"FO", "Faroe Islands", 18, "4!n9!n1!n", 0, 4},
    {"FR", "France", 27, "5!n5!n11!c2!n", 0, 5},
    {"GB", "United Kingdom", 22, "4!a6!n8!n", 0, 4},
    {"GE", "Georgia", 22, "2!a16!n", 0, 2},
    {"GI", "Gibraltar", 23, "4!a15!c", 0, 4},
    {"GL", "Greenland", 18, "4!n9!n1!n", 0, 4},
    {"GR", "Greece", 27, "3!n4!n16!c", 0, 3},
    {"GT", "Guatemala", 28, "4!c20!c", 0, 4},
    {"HN", "Honduras", 28, "4!a20!n", 0, 4},
    {"HR", "Croatia", 21, "7!n10!n", 0, 7},
    {"HU", "Hungary", 28, "3!n4!n1!n15!n1!n", 0, 3},
    {"IE", "Ireland", 22, "4!a6!n8!n", 0, 4},
    {"IL", "Israel", 23, "3!n3!n13!n", 0, 3},
    {"IQ", "Iraq", 23, "4!a3!n12!n", 0, 4},
    {"IS", "Iceland", 26, "4!n2!n6!n10!n", 0, 2},
    {"IT", "Italy", 27, "1!a5!n5!n12!c", 1, 5},
    {"JO", "Jordan", 30, "4!a4!n18!c", 0, 4},
    {"KW", "Kuwait", 30, "4!a22!c", 0, 4},
    {"KZ", "Kazakhstan", 20, "3!n13!c", 0, 3},
    {"LB", "Lebanon", 28, "4!n20!c", 0, 4},
    {"LC", "Saint Lucia", 32, "4!a24!c", 0, 4},
    {"LI", "Liechtenstein", 21, "5!n12!c", 0, 5},
    {"LT", "Lithuania", 20, "5!n11!n", 0, 5},
    {"LU", "Luxembourg", 20, "3!n13!c", 0, 3},
    {"LV", "Latvia", 21, "4!a13!c", 0, 4},
    {"LY", "Libya", 25, "3!n3!n15!n", 0, 3},
    {"MC", "Monaco", 27, "5!n5!n11!c2!n", 0, 5},
    {"MD", "Moldova", 24, "2!c18!c", 0, 2},
    {"ME", "Montenegro", 22, "3!n13!n2!n", 0, 3},
    {"MK", "North Macedonia", 19, "3!n10!c2!n", 0, 3},
    {"MN", "Mongolia", 20, "4!n12!n", 0, 4},
    {"MR", "Mauritania", 27, "5!n5!n11!n2!n", 0, 5},
    {"MT", "Malta", 31, "4!a5!n18!c", 0, 4},
    {"MU", "Mauritius", 30, "4!a2!n2!n12!n3!n3!a", 0, 6},
    {"NI", "Nicaragua", 28, "4!a20!n", 0, 4},
    {"NL", "Netherlands", 18, "4!a10!n", 0, 4},
    {"NO", "Norway", 15, "4!n6!n1!n", 0, 4},
    {"OM", "Oman", 23, "3!n16!c", 0, 3},
    {"PK", "Pakistan", 24, "4!a16!c", 0, 4},
    {"PL", "Poland", 28, "8!n16!n", 0, 8},
    {"PS", "Palestine", 29, "4!a21!c", 0, 4},
    {"PT", "Portugal", 25, "4!n4!n11!n2!n", 0, 4},
    {"QA", "Qatar", 29, "4!a21!c", 0, 4},
    {"RO", "Romania", 24, "4!a16!c", 0, 4},
    {"RS", "Serbia", 22, "3!n13!n2!n", 0, 3},
    {"RU", "Russia", 33, "9!n5!n15!c", 0, 9},
    {"SA", "Saudi Arabia", 24, "2!n18!c", 0, 2},
    {"SC", "Seychelles", 31, "4!a2!n2!n16!n3!a", 0, 6},
    {"SD", "Sudan", 18, "2!n12!n", 0, 2},
    {"SE", "Sweden", 24, "3!n16!n1!n", 0, 3},
    {"SI", "Slovenia", 19, "5!n8!n2!n", 0, 5},
    {"SK", "Slovakia", 24, "4!n6!n10!n", 0, 4},
    {"SM", "San Marino", 27, "1!a5!n5!n12!c", 1, 5},
    {"SO", "Somalia", 23, "4!n3!n12!n", 0, 4},
    {"ST", "São Tomé and Príncipe", 25, "4!n4!n11!n2!n", 0, 4},
    {"SV", "El Salvador", 28, "4!a20!n", 0, 4},
    {"TL", "Timor-Leste", 23, "3!n14!n2!n", 0, 3},
    {"TN", "Tunisia", 24, "2!n3!n13!n2!n", 0, 2},
    {"TR", "Türkiye", 26, "5!n1!n16!c", 0, 5},
    {"UA", "Ukraine", 29, "6!n19!c", 0, 6},
    {"VA", "Vatican City State", 22, "3!n15!n", 0, 3},
    {"VG", "British Virgin Islands", 24, "4!a16!n", 0, 4},
    {"XK", "Kosovo", 20, "4!n10!n2!n", 0, 2},
    {"YE", "Yemen", 30, "4!a4!n18!c", 0, 4},
};

// Territories that the registry folds into a parent's format. Their accounts
// normally carry the parent's prefix (FR..., GB..., FI...); a few validators and
// banks write the territory's own code, which is accepted with the same format
// so that SEPA/EEA membership can follow the territory.
struct Territory {
  const char* code;
  const char* name;
  const char* parent;
};
constexpr Territory kTerritories[] = {
    {"AX", "Åland Islands", "FI"},
    {"GF", "French Guiana", "FR"},
    {"GP", "Guadeloupe", "FR"},
    {"MQ", "Martinique", "FR"},
    {"RE", "Réunion", "FR"},
    {"PF", "French Polynesia", "FR"},
    {"TF", "French Southern Territories", "FR"},
    {"YT", "Mayotte", "FR"},
    {"NC", "New Caledonia", "FR"},
    {"BL", "Saint Barthélemy", "FR"},
    {"MF", "Saint Martin", "FR"},
    {"PM", "Saint Pierre and Miquelon", "FR"},
    {"WF", "Wallis and Futuna", "FR"},
    {"IM", "Isle of Man", "GB"},
    {"JE", "Jersey", "GB"},
    {"GG", "Guernsey", "GB"},
};

const IbanFormat* format_of(std::string_view country) {
  for (const auto& f : kFormats) {
    if (country == f.country) return &f;
  }
  for (const auto& t : kTerritories) {
    if (country == t.code) return format_of(t.parent);
  }
  return nullptr;
}

bool is_upper(char c) {
  return c >= 'A' && c <= 'Z';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

const char* kind_words(char kind) {
  switch (kind) {
    case 'n':
      return "a digit";
    case 'a':
      return "a letter";
    default:
      return "a letter or digit";
  }
}

bool kind_accepts(char kind, char c) {
  switch (kind) {
    case 'n':
      return is_digit(c);
    case 'a':
      return is_upper(c);
    default:
      return is_digit(c) || is_upper(c);
  }
}

// The registry notation ("8n,10c") group by group: each group's length and
// kind ('n' digits, 'a' upper-case letters, 'c' either); '!' (fixed length)
// changes nothing here.
template <typename F>
void for_each_group(const char* spec, F&& group) {
  const char* p = spec;
  while (*p != '\0') {
    int count = 0;
    while (is_digit(*p)) count = count * 10 + (*p++ - '0');
    if (*p == '!') ++p;
    const char kind = *p++;
    group(count, kind);
  }
}

// The 0-based BBAN offset of the first character that does not fit the
// notation, or npos. `kind` receives what was expected there.
std::size_t bban_mismatch(const char* spec, std::string_view bban, char* kind) {
  std::size_t pos = 0;
  bool found = false;
  for_each_group(spec, [&](int count, char k) {
    for (int i = 0; i < count && !found; ++i, ++pos) {
      if (pos >= bban.size() || !kind_accepts(k, bban[pos])) {
        *kind = k;
        found = true;
        return;
      }
    }
  });
  if (found) return pos;
  return pos == bban.size() ? std::string_view::npos : pos;
}

// The registry notation in words, e.g. "8 digits, then 10 digits".
std::string describe_bban(const char* spec) {
  std::string out;
  for_each_group(spec, [&](int count, char k) {
    if (!out.empty()) out += ", ";
    out += std::to_string(count);
    out += k == 'n' ? " digit" : k == 'a' ? " letter" : " letter-or-digit";
    if (count != 1) out += "s";
  });
  return out;
}

ApiError iban_error(std::string message) {
  return make_error(error_code::kIbanInvalid, bank_field::kIban, std::move(message));
}

}  // namespace

std::string iban_country_name(std::string_view country) {
  for (const auto& f : kFormats) {
    if (country == f.country) return f.name;
  }
  for (const auto& t : kTerritories) {
    if (country == t.code) return t.name;
  }
  return std::string(country);
}

std::string iban_electronic_format(std::string_view iban) {
  std::string out;
  out.reserve(iban.size());
  for (char c : iban) {
    if (c == ' ' || c == '\t') continue;
    out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  // ISO 13616's paper format may print the word IBAN before the number.
  if (out.size() > 4 && out.compare(0, 4, "IBAN") == 0) out.erase(0, 4);
  return out;
}

int iban_length_for_country(std::string_view country) {
  const IbanFormat* f = format_of(country);
  return f ? f->length : 0;
}

bool iban_checksum_ok(std::string_view electronic) {
  if (electronic.size() < 5) return false;
  // Country code and check digits move to the end; letters count as 10..35.
  int remainder = 0;
  for (std::size_t i = 0; i < electronic.size(); ++i) {
    const char c = electronic[(i + 4) % electronic.size()];
    if (is_digit(c)) {
      remainder = (remainder * 10 + (c - '0')) % 97;
    } else if (is_upper(c)) {
      remainder = (remainder * 100 + (c - 'A' + 10)) % 97;
    } else {
      return false;
    }
  }
  return remainder == 1;
}

Result<IbanInfo> check_iban(std::string_view input) {
  const std::string iban = iban_electronic_format(input);
  if (iban.empty()) {
    return iban_error("IBAN is empty: send the account's IBAN, e.g. DE89 3704 0044 0532 0130 00");
  }
  for (std::size_t i = 0; i < iban.size(); ++i) {
    if (!is_digit(iban[i]) && !is_upper(iban[i])) {
      return iban_error("IBAN " + iban + " contains '" + std::string(1, iban[i]) +
                        "' at position " + std::to_string(i + 1) +
                        "; an IBAN has only letters A-Z and digits (spaces are ignored)");
    }
  }
  if (iban.size() < 2 || !is_upper(iban[0]) || !is_upper(iban[1])) {
    return iban_error("IBAN " + iban + " does not start with a two-letter country code");
  }
  const std::string country = iban.substr(0, 2);
  const IbanFormat* format = format_of(country);
  if (format == nullptr) {
    return iban_error("IBAN " + iban + " starts with " + country +
                      ", which is not a country of the SWIFT IBAN registry");
  }
  const std::string name = iban_country_name(country);
  const auto expected = static_cast<std::size_t>(format->length);
  if (iban.size() != expected) {
    return iban_error("IBAN " + iban + " has " + std::to_string(iban.size()) +
                      " characters; an IBAN of " + name + " (" + country + ") has exactly " +
                      std::to_string(expected));
  }
  if (!is_digit(iban[2]) || !is_digit(iban[3])) {
    return iban_error("IBAN " + iban + " has check digits '" + iban.substr(2, 2) +
                      "'; characters 3 and 4 of an IBAN are two digits");
  }
  const std::string bban = iban.substr(4);
  char kind = 'c';
  const std::size_t bad = bban_mismatch(format->bban, bban, &kind);
  if (bad != std::string_view::npos) {
    return iban_error("IBAN " + iban + " does not fit the format of " + name + " (" + country +
                      " + 2 check digits + " + describe_bban(format->bban) + "): character " +
                      std::to_string(bad + 5) + " ('" + std::string(1, bban[bad]) + "') must be " +
                      kind_words(kind));
  }
  const std::string check = iban.substr(2, 2);
  // ISO 7064 only ever produces 02..98; 00, 01 and 99 can pass the remainder
  // test by accident and so are refused on their own.
  if (check == "00" || check == "01" || check == "99") {
    return iban_error("IBAN " + iban + " has check digits " + check +
                      ", which ISO 7064 never produces (valid check digits are 02 to 98)");
  }
  if (!iban_checksum_ok(iban)) {
    return iban_error("IBAN " + iban + " has check digits " + check +
                      " but the ISO 7064 mod-97 check fails: a character is mistyped or two are "
                      "swapped");
  }
  IbanInfo info;
  info.electronic = iban;
  info.country = country;
  info.bank_code = bban.substr(static_cast<std::size_t>(format->bank_start),
                               static_cast<std::size_t>(format->bank_length));
  info.sepa = is_sepa_country(country);
  info.eea = is_eea_country(country);
  return info;
}

std::optional<IbanInfo> parse_iban(std::string_view iban) {
  auto result = check_iban(iban);
  if (!result) return std::nullopt;
  return std::move(result.value());
}

std::vector<std::string> iban_registry_countries() {
  std::vector<std::string> out;
  for (const auto& f : kFormats) out.emplace_back(f.country);
  return out;
}

std::vector<std::string> iban_territory_codes() {
  std::vector<std::string> out;
  for (const auto& t : kTerritories) out.emplace_back(t.code);
  return out;
}

}  // namespace fake_org
