// US ACH debit account data (no spec code: 201 to 206 name European schemes,
// so a bad US account is the generic 200, its `field` naming the parameter;
// docs/decisions.md).
//
// Checked: the ABA routing number has exactly 9 digits, is not all zeros and
// passes the ABA check digit (weights 3, 7, 1 repeated; the weighted sum is a
// multiple of 10). The account number has 4 to 17 digits (NACHA's DFI account
// number field is 17 characters; US banks issue digits only), not all zeros.
// Not checked: whether the routing number is assigned (the Federal Reserve's
// E-Payments directory is licensed and changes daily) nor its Fed district
// prefix. Spaces and dashes are dropped as payers copy them from cheques.
#include <string>

#include "bank_account.h"

namespace fake_org {
namespace {

std::string routing_problem(const std::string& raw) {
  const std::string shown = "RoutingNumber '" + raw + "'";
  char bad = '\0';
  const std::string d = digits_without_separators(raw, &bad);
  if (bad != '\0')
    return shown + " contains '" + std::string(1, bad) +
           "'; an ABA routing number has 9 digits (e.g. 011000015)";
  if (d.empty()) return "RoutingNumber is missing; send the 9-digit ABA routing number";
  if (d.size() != 9)
    return shown + " has " + std::to_string(d.size()) +
           " digits; an ABA routing number has exactly 9 (e.g. 011000015)";
  if (all_zero_digits(d)) return shown + " is all zeros and identifies no bank";
  if (!aba_checksum_ok(d))
    return shown + " fails the ABA check digit (3-7-1 weights); check for a typo";
  return "";
}

std::string account_problem(const std::string& raw) {
  const std::string shown = "AccountNumber '" + raw + "'";
  char bad = '\0';
  const std::string d = digits_without_separators(raw, &bad);
  if (bad != '\0')
    return shown + " contains '" + std::string(1, bad) +
           "'; a US bank account number has only digits";
  if (d.empty()) return "AccountNumber is missing; send the bank account number (4 to 17 digits)";
  if (d.size() < 4 || d.size() > 17)
    return shown + " has " + std::to_string(d.size()) +
           " digits; a US bank account number has 4 to 17";
  if (all_zero_digits(d)) return shown + " is all zeros and identifies no account";
  return "";
}

}  // namespace

bool aba_checksum_ok(std::string_view nine_digits) {
  if (nine_digits.size() != 9) return false;
  static constexpr int kWeights[] = {3, 7, 1, 3, 7, 1, 3, 7, 1};
  int sum = 0;
  for (std::size_t i = 0; i < 9; ++i) {
    const char c = nine_digits[i];
    if (c < '0' || c > '9') return false;
    sum += kWeights[i] * (c - '0');
  }
  return sum % 10 == 0;
}

ApiErrors validate_ach_account(const BankAccountInput& in) {
  ApiErrors errors;
  if (auto p = routing_problem(in.routing_number); !p.empty())
    errors.push_back(make_error(error_code::kInvalidData, bank_field::kRoutingNumber, p));
  if (auto p = account_problem(in.account_number); !p.empty())
    errors.push_back(make_error(error_code::kInvalidData, bank_field::kAccountNumber, p));
  return errors;
}

}  // namespace fake_org
