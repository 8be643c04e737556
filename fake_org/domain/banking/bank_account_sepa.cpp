// SEPA direct-debit account rules (errors 203, 204, 205) on top of a valid IBAN.
#include <cctype>
#include <string>

#include "bank_account.h"

namespace fake_org {
namespace {

// EEA members (EU 27 + IS, LI, NO) and EU territories that carry their own
// ISO code (Aland, the French outermost regions). Canary Islands, Ceuta,
// Melilla, Azores and Madeira bank under ES/PT and need no entry.
constexpr const char* kEea[] = {
    "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU",
    "IE", "IT", "LV", "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES",
    "SE", "IS", "LI", "NO", "AX", "GF", "GP", "MQ", "RE", "YT", "MF",
};

// SEPA scheme countries and territories outside the EEA (EPC list of SEPA
// scheme countries): these need a BIC (204) and the payer's address (205).
// AL and ME joined the scope in November 2024, MD and MK in March 2025, RS in
// May 2025. French Polynesia, New Caledonia, Wallis and Futuna and the French
// Southern Territories are outside SEPA although they bank with French IBANs.
constexpr const char* kSepaOutsideEea[] = {
    "CH", "GB", "GI", "GG", "JE", "IM", "MC", "SM", "VA",
    "AD", "BL", "PM", "AL", "ME", "MD", "MK", "RS",
};

// Countries whose banks may legitimately use each other's BIC country code:
// the Crown Dependencies bank through UK institutions, French overseas
// departments and collectivities through French ones, Aland through Finnish.
constexpr const char* kBicGroups[][14] = {
    {"GB", "GG", "JE", "IM", nullptr},
    {"FR", "GF", "GP", "MQ", "RE", "YT", "MF", "BL", "PM", "NC", "PF", "WF", "TF", nullptr},
    {"FI", "AX", nullptr},
};

template <std::size_t N>
bool contains(const char* const (&list)[N], std::string_view code) {
  for (const char* c : list) {
    if (code == c) return true;
  }
  return false;
}

bool in_group(const char* const* group, std::string_view code) {
  for (; *group != nullptr; ++group) {
    if (code == *group) return true;
  }
  return false;
}

bool is_letter(char c) {
  return c >= 'A' && c <= 'Z';
}
bool is_alnum(char c) {
  return is_letter(c) || (c >= '0' && c <= '9');
}

std::string normalise_bic(std::string_view bic) {
  std::string out;
  for (char c : bic) {
    if (c == ' ') continue;
    out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

// Why an (upper-cased, space-free) BIC is not ISO 9362, or "" if it is.
std::string bic_problem(const std::string& bic) {
  if (bic.size() != 8 && bic.size() != 11) {
    return "has " + std::to_string(bic.size()) + " characters; a BIC has 8 or 11";
  }
  for (std::size_t i = 0; i < 4; ++i) {
    if (!is_letter(bic[i])) return "must start with a 4-letter bank code";
  }
  if (!is_letter(bic[4]) || !is_letter(bic[5])) {
    return "must have a 2-letter country code at characters 5 and 6";
  }
  if (!is_alnum(bic[6]) || !is_alnum(bic[7])) {
    return "must have a 2-character location code (letters or digits) at characters 7 and 8";
  }
  if (bic.size() == 11) {
    for (std::size_t i = 8; i < 11; ++i) {
      if (!is_alnum(bic[i])) return "must end in a 3-character branch code (letters or digits)";
    }
    // SWIFT reserves branch codes starting with X for the primary office "XXX".
    if (bic[8] == 'X' && bic.compare(8, 3, "XXX") != 0) {
      return "has branch code " + bic.substr(8) + "; a branch code starting with X must be XXX";
    }
  }
  return "";
}

bool blank(const std::string& s) {
  for (char c : s) {
    if (!std::isspace(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

}  // namespace

bool is_eea_country(std::string_view country) {
  return contains(kEea, country);
}

bool is_sepa_country(std::string_view country) {
  return is_eea_country(country) || contains(kSepaOutsideEea, country);
}

bool is_well_formed_bic(std::string_view bic) {
  std::string upper;
  for (char c : bic) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return bic_problem(upper).empty();
}

bool bic_country_matches_iban(std::string_view bic_country, std::string_view iban_country) {
  if (bic_country == iban_country) return true;
  for (const auto& group : kBicGroups) {
    if (in_group(group, bic_country) && in_group(group, iban_country)) return true;
  }
  return false;
}

ApiErrors validate_sepa_account(const BankAccountInput& in) {
  auto parsed = check_iban(in.iban);
  if (!parsed) return parsed.errors();
  const IbanInfo& iban = parsed.value();
  const std::string where = iban_country_name(iban.country) + " (" + iban.country + ")";
  if (!iban.sepa) {
    return {make_error(error_code::kIbanNotSepa, bank_field::kIban,
                       "IBAN " + iban.electronic + " is from " + where +
                           ", which is outside the SEPA zone; SEPA direct debit can only "
                           "collect from accounts in SEPA countries")};
  }

  ApiErrors errors;
  const std::string bic = normalise_bic(in.bic);
  if (bic.empty()) {
    if (!iban.eea) {
      errors.push_back(make_error(error_code::kBicRequired, bank_field::kBic,
                                  "BIC is required: the account " + iban.electronic + " is in " +
                                      where +
                                      ", a SEPA country outside the EEA, and SEPA direct debit "
                                      "from such accounts needs the bank's BIC"));
    }
  } else if (const std::string problem = bic_problem(bic); !problem.empty()) {
    errors.push_back(make_error(error_code::kBicRequired, bank_field::kBic,
                                "BIC " + bic + " is not a valid ISO 9362 BIC: it " + problem));
  } else if (!bic_country_matches_iban(bic.substr(4, 2), iban.country)) {
    errors.push_back(make_error(error_code::kBicRequired, bank_field::kBic,
                                "BIC " + bic + " belongs to a bank in " + bic.substr(4, 2) +
                                    " but the IBAN " + iban.electronic + " is from " + where +
                                    "; send the BIC of the bank that holds the account"));
  }

  if (!iban.eea) {
    // The message names the parameter the fake reads (a payer's CRM address,
    // Payer.Contact.CrmFields.MailingStreet and the like, is not the account
    // holder's and is not read here), so the sender knows what to add.
    const struct {
      const std::string& value;
      const char* field;
      const char* also;  // another name read for the same part
    } address[] = {
        {in.street, bank_field::kStreet, nullptr},
        {in.house_number_or_name, bank_field::kHouseNumberOrName, "HouseNameOrNumber"},
        {in.postal_code, bank_field::kPostalCode, nullptr},
        {in.city, bank_field::kCity, nullptr},
    };
    for (const auto& part : address) {
      if (!blank(part.value)) continue;
      errors.push_back(make_error(
          error_code::kAddressRequired, part.field,
          std::string(part.field) + (part.also ? std::string(" (or ") + part.also + ")" : "") +
              " is required: SEPA direct debit from an account in " + where +
              ", outside the EEA, needs the account holder's address in PaymentMethod.Parameters "
              "(Street, HouseNumberOrName, PostalCode and City); the payer's CRM fields "
              "(Payer.Contact.CrmFields.MailingStreet and the like) are not read for it"));
    }
  }
  return errors;
}

}  // namespace fake_org
