// Swedish clearing and account numbers (error 206), after Bankgirot's
// "Bankernas kontonummeruppbyggnad":
// - type 1: 4-digit clearing + 7-digit account; mod 11 (weights 1..10 from the
//   right, 1 again for an 11th digit) over the last 3 clearing digits + account
//   (comment 1) or over all 4 clearing digits + account (comment 2);
// - type 2 comment 1: 10-digit account, mod 10 (Luhn) over the account;
// - type 2 comment 2 (Handelsbanken): 9-digit account, mod 11 over the account;
// - type 2 comment 3 (Swedbank 8xxx, Plusgirot): up to 10 digits, mod 10.
// Swedbank's 8xxx clearing numbers may carry a 5th digit, itself a mod 10 check
// over the first four. An all-zero account passes every check digit and is
// refused separately.
#include <string>

#include "bank_account.h"

namespace fake_org {
namespace {

struct ClearingRange {
  int from, to;
  const char* bank;
  int type, comment;
};

constexpr ClearingRange kClearing[] = {
    {1100, 1199, "Nordea", 1, 1},
    {1200, 1399, "Danske Bank", 1, 1},
    {1400, 2099, "Nordea", 1, 1},
    {2300, 2399, "Ålandsbanken", 1, 2},
    {2400, 2499, "Danske Bank", 1, 1},
    {3000, 3299, "Nordea", 1, 1},
    {3300, 3300, "Nordea (personkonto)", 2, 1},
    {3301, 3399, "Nordea", 1, 1},
    {3400, 3409, "Länsförsäkringar Bank", 1, 1},
    {3410, 3781, "Nordea", 1, 1},
    {3782, 3782, "Nordea (personkonto)", 2, 1},
    {3783, 3999, "Nordea", 1, 1},
    {4000, 4999, "Nordea", 1, 2},
    {5000, 5999, "SEB", 1, 1},
    {6000, 6999, "Handelsbanken", 2, 2},
    {7000, 7999, "Swedbank", 1, 1},
    {8000, 8999, "Swedbank", 2, 3},
    {9020, 9029, "Länsförsäkringar Bank", 1, 2},
    {9040, 9049, "Citibank", 1, 2},
    {9060, 9069, "Länsförsäkringar Bank", 1, 1},
    {9070, 9079, "Multitude Bank", 1, 1},
    {9100, 9109, "Nordnet Bank", 1, 2},
    {9120, 9124, "SEB", 1, 1},
    {9130, 9149, "SEB", 1, 1},
    {9150, 9169, "Skandiabanken", 1, 2},
    {9170, 9179, "IKANO Bank", 1, 1},
    {9180, 9189, "Danske Bank", 2, 1},
    {9190, 9199, "DNB Bank", 1, 2},
    {9230, 9239, "Marginalen Bank", 1, 1},
    {9250, 9259, "SBAB", 1, 1},
    {9260, 9269, "DNB Bank", 1, 2},
    {9270, 9279, "ICA Banken", 1, 1},
    {9280, 9289, "Resurs Bank", 1, 1},
    {9300, 9349, "Swedbank (formerly Sparbanken Öresund)", 2, 1},
    {9390, 9399, "Landshypotek", 1, 2},
    {9400, 9449, "Forex Bank", 1, 1},
    {9460, 9469, "Santander Consumer Bank", 1, 1},
    {9470, 9479, "BNP Paribas", 1, 2},
    {9500, 9549, "Nordea (Plusgirot)", 2, 3},
    {9550, 9569, "Avanza Bank", 1, 2},
    {9570, 9579, "Sparbanken Syd", 2, 1},
    {9580, 9589, "Aion Bank", 1, 1},
    {9590, 9599, "Erik Penser", 1, 2},
    {9630, 9639, "Lån & Spar Bank Sverige", 1, 1},
    {9640, 9649, "NOBA Bank Group", 1, 2},
    {9650, 9659, "MedMera Bank", 1, 2},
    {9660, 9669, "Svea Bank", 1, 2},
    {9670, 9679, "JAK Medlemsbank", 1, 2},
    {9680, 9689, "BlueStep Finans", 1, 1},
    {9700, 9709, "Ekobanken", 1, 2},
    {9710, 9719, "Lunar Bank", 1, 2},
    {9750, 9759, "Northmill Bank", 1, 2},
    {9780, 9789, "Klarna Bank", 1, 2},
    {9880, 9889, "Riksgälden", 1, 2},
    {9890, 9899, "Riksgälden", 2, 1},
    {9960, 9969, "Nordea (Plusgirot)", 2, 3},
};

const ClearingRange* range_for(int clearing) {
  for (const auto& r : kClearing) {
    if (clearing >= r.from && clearing <= r.to) return &r;
  }
  return nullptr;
}

bool all_digits(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

// Spaces, dashes and dots are how these numbers are usually printed.
std::string strip_separators(const std::string& raw) {
  std::string out;
  for (char c : raw) {
    if (c != ' ' && c != '-' && c != '.') out += c;
  }
  return out;
}

// Luhn: from the right, every second digit doubled (digit sum), total % 10 == 0.
bool mod10_ok(const std::string& digits) {
  int sum = 0;
  bool twice = false;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it, twice = !twice) {
    int d = *it - '0';
    if (twice) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 == 0;
}

// Weights 1, 2, ..., 10 from the right, and 1 for an 11th digit.
bool mod11_ok(const std::string& digits) {
  int sum = 0;
  int weight = 1;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    sum += (*it - '0') * weight;
    weight = weight == 10 ? 1 : weight + 1;
  }
  return sum % 11 == 0;
}

ApiError clearing_error(const std::string& message) {
  return make_error(error_code::kSwedishAccountInvalid, bank_field::kClearingNumber, message);
}

ApiError account_error(const std::string& message) {
  return make_error(error_code::kSwedishAccountInvalid, bank_field::kAccountNumber, message);
}

// What is wrong with the clearing number's digits (separators stripped), if anything.
std::optional<ApiError> clearing_format_error(const std::string& clearing,
                                              const std::string& shown_clearing) {
  if (clearing.empty()) {
    return clearing_error(
        "Clearing number is missing; send the 4-digit clearing number "
        "(5 digits for Swedbank's 8xxx-x series)");
  }
  if (!all_digits(clearing)) {
    return clearing_error("Clearing number " + shown_clearing + " may contain only digits");
  }
  const bool swedbank_five = clearing.size() == 5 && clearing[0] == '8';
  if (clearing.size() != 4 && !swedbank_five) {
    return clearing_error("Clearing number " + shown_clearing + " has " +
                          std::to_string(clearing.size()) +
                          " digits; Swedish clearing numbers have 4 (5 only in Swedbank's "
                          "8xxx-x series)");
  }
  if (swedbank_five && !mod10_ok(clearing)) {
    return clearing_error("Clearing number " + shown_clearing +
                          ": the fifth digit of a Swedbank 8xxx-x clearing number is a mod-10 "
                          "check digit and does not match " +
                          clearing.substr(0, 4));
  }
  return std::nullopt;
}

std::optional<ApiError> account_length_error(const std::string& account,
                                             const std::string& shown_account,
                                             const std::string& clearing, const SwedishBank& bank) {
  std::size_t min_length = 7, max_length = 7;
  if (bank.type == 2) {
    if (bank.comment == 1) min_length = max_length = 10;
    if (bank.comment == 2) min_length = max_length = 9;
    if (bank.comment == 3) min_length = 1, max_length = 10;
  }
  if (account.size() >= min_length && account.size() <= max_length) return std::nullopt;
  const std::string expected = min_length == max_length ? std::to_string(max_length)
                                                        : "at most " + std::to_string(max_length);
  std::string message = "Account number " + shown_account + " has " +
                        std::to_string(account.size()) + " digits; accounts at " + bank.name +
                        " (clearing " + clearing.substr(0, 4) + ") have " + expected +
                        " digits after the clearing number";
  if (bank.comment == 3 && clearing.size() == 4 && account.size() == max_length + 1) {
    message +=
        "; if the first digit is the clearing number's fifth digit, send it with the "
        "clearing number";
  }
  return account_error(message);
}

// What is wrong with the account number's digits (separators stripped) at
// this bank, before its check digit, if anything.
std::optional<ApiError> account_format_error(const std::string& account,
                                             const std::string& shown_account,
                                             const std::string& clearing, const SwedishBank& bank) {
  if (account.empty()) {
    return account_error("Account number is missing for clearing number " + clearing + " (" +
                         bank.name + ")");
  }
  if (!all_digits(account)) {
    return account_error("Account number " + shown_account +
                         " may contain only digits, spaces, dashes and dots");
  }
  if (auto e = account_length_error(account, shown_account, clearing, bank)) return e;
  if (account.find_first_not_of('0') == std::string::npos) {
    return account_error("Account number " + shown_account + " is all zeros");
  }
  return std::nullopt;
}

std::optional<ApiError> check_digit_error(const std::string& account,
                                          const std::string& shown_account,
                                          const std::string& clearing, const SwedishBank& bank) {
  bool ok = false;
  std::string rule;
  if (bank.type == 1) {
    const std::string digits =
        (bank.comment == 1 ? clearing.substr(1, 3) : clearing.substr(0, 4)) + account;
    ok = mod11_ok(digits);
    rule = bank.comment == 1 ? "mod 11 over the last three clearing digits and the account number"
                             : "mod 11 over the clearing number and the account number";
  } else if (bank.comment == 2) {
    ok = mod11_ok(account);
    rule = "mod 11 over the account number";
  } else {
    ok = mod10_ok(account);
    rule = "mod 10 over the account number";
  }
  if (ok) return std::nullopt;
  return account_error("Account number " + shown_account + " with clearing number " +
                       clearing.substr(0, 4) + " (" + bank.name + ") fails the check digit (" +
                       rule + "): a digit is mistyped or the clearing number is wrong");
}

}  // namespace

std::optional<SwedishBank> swedish_bank_for_clearing(std::string_view clearing) {
  if (clearing.size() < 4) return std::nullopt;
  int value = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    if (clearing[i] < '0' || clearing[i] > '9') return std::nullopt;
    value = value * 10 + (clearing[i] - '0');
  }
  const ClearingRange* r = range_for(value);
  if (r == nullptr) return std::nullopt;
  return SwedishBank{r->bank, r->type, r->comment};
}

ApiErrors validate_swedish_account(const BankAccountInput& in) {
  const std::string clearing = strip_separators(in.clearing_number);
  const std::string account = strip_separators(in.account_number);
  const std::string shown_clearing = "'" + in.clearing_number + "'";
  const std::string shown_account = "'" + in.account_number + "'";
  if (auto e = clearing_format_error(clearing, shown_clearing)) return {*e};
  const std::optional<SwedishBank> bank = swedish_bank_for_clearing(clearing);
  if (!bank) {
    return {clearing_error("Clearing number " + clearing.substr(0, 4) +
                           " is not assigned to any bank in Bankgirot's clearing number table")};
  }
  if (auto e = account_format_error(account, shown_account, clearing, *bank)) return {*e};
  if (auto e = check_digit_error(account, shown_account, clearing, *bank)) return {*e};
  return {};
}

}  // namespace fake_org
