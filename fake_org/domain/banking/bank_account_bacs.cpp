// Bacs Direct Debit account format (error 201).
//
// Checked: the sort code has 6 digits and the account number 8, once spaces
// and dashes are dropped ("12-34-56", "12 34 56", "1234 5678"); neither may be
// all zeros. Not checked: Vocalink's modulus checking (it needs the
// weight table published by Vocalink and changes several times a year), nor
// the 6/7/9/10-digit account conversions, which the payer's bank applies
// before the number reaches a direct-debit instruction.
#include <string>

#include "bank_account.h"

namespace fake_org {

std::string digits_without_separators(const std::string& raw, char* bad) {
  std::string out;
  for (char c : raw) {
    if (c == ' ' || c == '-') continue;
    if (c < '0' || c > '9') {
      *bad = c;
      return "";
    }
    out += c;
  }
  return out;
}

bool all_zero_digits(const std::string& digits) {
  return digits.find_first_not_of('0') == std::string::npos;
}

namespace {

std::string check_part(const std::string& raw, std::size_t length, const char* what,
                       const char* example) {
  const std::string shown = "'" + raw + "'";
  char bad = '\0';
  const std::string digits = digits_without_separators(raw, &bad);
  if (bad != '\0') {
    return std::string(what) + " " + shown + " contains '" + std::string(1, bad) +
           "'; only digits, spaces and dashes are allowed (e.g. " + example + ")";
  }
  if (digits.empty()) {
    return std::string(what) + " is missing; send " + std::to_string(length) + " digits (e.g. " +
           example + ")";
  }
  if (digits.size() != length) {
    return std::string(what) + " " + shown + " has " + std::to_string(digits.size()) +
           " digits; a UK " + what + " has exactly " + std::to_string(length) + " (e.g. " +
           example + ")";
  }
  if (all_zero_digits(digits)) {
    return std::string(what) + " " + shown + " is all zeros and identifies no account";
  }
  return "";
}

}  // namespace

ApiErrors validate_bacs_account(const BankAccountInput& in) {
  ApiErrors errors;
  if (auto problem = check_part(in.sort_code, 6, "sort code", "12-34-56"); !problem.empty()) {
    problem[0] = 'S';
    errors.push_back(make_error(error_code::kBacsInvalid, bank_field::kSortCode, problem));
  }
  if (auto problem = check_part(in.account_number, 8, "account number", "12345678");
      !problem.empty()) {
    problem[0] = 'A';
    errors.push_back(make_error(error_code::kBacsInvalid, bank_field::kAccountNumber, problem));
  }
  return errors;
}

}  // namespace fake_org
