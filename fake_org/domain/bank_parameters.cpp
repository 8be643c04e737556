#include "bank_parameters.h"

#include "bank_account.h"

namespace fake_org {

namespace {
std::string param(const nlohmann::json& params, const char* name) {
  auto it = params.find(name);
  if (it == params.end() || it->is_null()) return "";
  if (it->is_string()) return it->get<std::string>();
  if (it->is_number()) return it->dump();
  return "";
}
// The currency each single-currency scheme collects in.
struct SchemeCurrency {
  BankScheme scheme;
  const char* name;
  const char* currency;
};
constexpr SchemeCurrency kSchemeCurrencies[] = {
    {BankScheme::kSepa, "SEPA", "EUR"},
};

}  // namespace

ApiErrors validate_scheme_currency(const ResolvedMethod& method, const std::string& currency,
                                   const std::string& path) {
  if (!method.method) return {};
  for (const auto& s : kSchemeCurrencies)
    if (s.scheme == method.method->bank_scheme && currency != s.currency)
      return {make_error(error_code::kInvalidData, path,
                         path + ": " + method.method->name + " is a " + s.name +
                             " direct debit, which collects " + "in " + s.currency +
                             " only; the payment is in " + currency + ": pay in " + s.currency +
                             " or choose another method")};
  return {};
}

ApiErrors validate_bank_parameters(const ResolvedMethod& method) {
  if (!method.method) return {};
  const nlohmann::json& p = method.parameters;
  BankAccountInput in;
  in.iban = param(p, "IBAN");
  in.bic = param(p, "BIC");
  in.account_holder = param(p, "AccountHolderName");
  in.sort_code = param(p, "SortCode");
  in.account_number = param(p, "AccountNumber");
  in.clearing_number = param(p, "ClearingNumber");
  in.routing_number = param(p, "RoutingNumber");
  in.street = param(p, "Street");
  in.house_number_or_name = param(p, "HouseNumberOrName");
  if (in.house_number_or_name.empty()) in.house_number_or_name = param(p, "HouseNameOrNumber");
  in.postal_code = param(p, "PostalCode");
  in.city = param(p, "City");
  switch (method.method->bank_scheme) {
    case BankScheme::kSepa:
      if (in.iban.empty()) return {};
      return validate_sepa_account(in);
    case BankScheme::kBacs:
      if (in.sort_code.empty() && in.account_number.empty()) return {};
      return validate_bacs_account(in);
    case BankScheme::kAutogiro:
      if (in.clearing_number.empty() && in.account_number.empty()) return {};
      return validate_swedish_account(in);
    case BankScheme::kNone:
      // A bank account outside the European schemes: a US ACH account when
      // it has a routing number (the fixtures' ACH methods).
      if (method.method->kind == MethodKind::kBank && !in.routing_number.empty())
        return validate_ach_account(in);
      break;
  }
  return {};
}

}  // namespace fake_org
