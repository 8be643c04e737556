#pragma once
// Bank-account validation behind the spec's error codes 201 to 206 (spec 7).
// Pure domain code: the HTTP layer fills BankAccountInput from
// PaymentMethod.Parameters and turns the returned errors into a response.
//
// Sources of the rules:
// - IBAN (202): ISO 13616 structure, the SWIFT IBAN registry (release 100,
//   every country with its length and BBAN structure) and ISO 7064 mod 97-10.
// - SEPA zone (203), EEA (204/205): the EPC list of SEPA scheme countries and
//   territories, including the 2024/2025 accessions (AL, ME, MD, MK, RS).
// - BIC (204): ISO 9362.
// - Bacs (201): sort code and account-number formats (no Vocalink modulus table).
// - Sweden (206): Bankgirot's "Bankernas kontonummeruppbyggnad" (clearing
//   ranges, type 1 comments 1/2, type 2 comments 1/2/3).
// - US ACH (200, no scheme code): ABA routing number check digit (3-7-1).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/core/errors.h"

namespace fake_org {

struct BankAccountInput {
  std::string iban, bic, account_holder;
  std::string sort_code, account_number;  // Bacs; account_number also Sweden
  std::string clearing_number;            // Sweden
  std::string routing_number;             // US ACH (ABA); account_number too
  std::string street, house_number_or_name, postal_code, city;
};

// The `field` of every error names the parameter the client sent.
namespace bank_field {
inline constexpr const char* kIban = "PaymentMethod.Parameters.IBAN";
inline constexpr const char* kBic = "PaymentMethod.Parameters.BIC";
inline constexpr const char* kSortCode = "PaymentMethod.Parameters.SortCode";
inline constexpr const char* kAccountNumber = "PaymentMethod.Parameters.AccountNumber";
inline constexpr const char* kRoutingNumber = "PaymentMethod.Parameters.RoutingNumber";
inline constexpr const char* kClearingNumber = "PaymentMethod.Parameters.ClearingNumber";
inline constexpr const char* kStreet = "PaymentMethod.Parameters.Street";
inline constexpr const char* kHouseNumberOrName = "PaymentMethod.Parameters.HouseNumberOrName";
inline constexpr const char* kPostalCode = "PaymentMethod.Parameters.PostalCode";
inline constexpr const char* kCity = "PaymentMethod.Parameters.City";
}  // namespace bank_field

struct IbanInfo {
  std::string electronic;  // upper case, no spaces: "DE89370400440532013000"
  std::string country;     // the IBAN's own prefix, e.g. "DE"
  std::string bank_code;   // bank identifier at the registry's position
  bool sepa = false;       // inside the SEPA schemes' geographical scope
  bool eea = false;        // EEA member (or EU outermost region)
};

// ---- Account-number text (bank_account_bacs.cpp) ----------------------------

// The digits of `raw` once spaces and dashes are dropped (payers copy numbers
// as printed: "12-34-56", "1234 5678"), or "" with *bad set to the first
// other character.
std::string digits_without_separators(const std::string& raw, char* bad);
bool all_zero_digits(const std::string& digits);

// ---- IBAN (bank_account_iban.cpp) ------------------------------------------

// Print format ("DE89 3704 ..."), an "IBAN " prefix and lower case are accepted.
std::optional<IbanInfo> parse_iban(std::string_view iban);
// Same checks as parse_iban, but a failure says what is wrong (error 202).
Result<IbanInfo> check_iban(std::string_view iban);
// ISO 7064 mod 97-10 over an electronic-format IBAN; false on any non-alphanumeric.
bool iban_checksum_ok(std::string_view electronic);
// Upper case with spaces and a leading "IBAN" removed; no validation.
std::string iban_electronic_format(std::string_view iban);
// The registry's length for a country (territories map to their parent), 0 if none.
int iban_length_for_country(std::string_view country);
// English name of an IBAN country or territory, or the code itself if unknown.
std::string iban_country_name(std::string_view country);
// The 89 country codes of the SWIFT IBAN registry, release 100.
std::vector<std::string> iban_registry_countries();
// Territories whose own code is accepted with their parent's IBAN format.
std::vector<std::string> iban_territory_codes();

// ---- SEPA zone, BIC, SEPA account (bank_account_sepa.cpp) ------------------

bool is_sepa_country(std::string_view country);
bool is_eea_country(std::string_view country);
// ISO 9362: 4 letters, 2-letter country, 2 alphanumerics, optional 3 alphanumerics
// (not starting with X unless "XXX"); 8 or 11 characters, case-insensitive.
bool is_well_formed_bic(std::string_view bic);
// Whether a BIC of bic_country may serve an account whose IBAN is of iban_country.
bool bic_country_matches_iban(std::string_view bic_country, std::string_view iban_country);

ApiErrors validate_sepa_account(const BankAccountInput&);     // 202/203/204/205 (empty = ok)
ApiErrors validate_bacs_account(const BankAccountInput&);     // 201
ApiErrors validate_swedish_account(const BankAccountInput&);  // 206

// ---- US ACH (bank_account_ach.cpp) -------------------------------------------

ApiErrors validate_ach_account(const BankAccountInput&);  // 200, field named
// 9 digits whose 3-7-1 weighted sum is a multiple of 10.
bool aba_checksum_ok(std::string_view nine_digits);

// ---- Sweden (bank_account_sweden.cpp) ---------------------------------------

struct SwedishBank {
  std::string name;
  int type = 0;     // 1 or 2 (Bankgirot's account number type)
  int comment = 0;  // Bankgirot's comment: which check-digit rule applies
};
// The bank for a 4-digit clearing number (a Swedbank 5th check digit is ignored).
std::optional<SwedishBank> swedish_bank_for_clearing(std::string_view clearing);

}  // namespace fake_org
