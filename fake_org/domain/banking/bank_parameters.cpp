#include "bank_parameters.h"

#include "bank_account.h"

namespace fake_org {

namespace {
std::string param(const nlohmann::json& params, const char* name) {
  auto it = params.find(name);
  if (it == params.end() || it->is_null()) return "";
  return it->is_string() ? it->get<std::string>() : "";
}

// The currency each single-currency scheme collects in.
struct SchemeCurrency {
  BankScheme scheme;
  const char* name;
  const char* currency;
};
constexpr SchemeCurrency kSchemeCurrencies[] = {
    {BankScheme::kSepa, "SEPA", "EUR"},
    {BankScheme::kBacs, "Bacs", "GBP"},
    {BankScheme::kAutogiro, "Autogiro", "SEK"},
};

}  // namespace

const std::vector<std::string>& bank_parameter_keys() {
  static const std::vector<std::string> keys = {"IBAN",
                                                "BIC",
                                                "AccountHolderName",
                                                "SortCode",
                                                "AccountNumber",
                                                "ClearingNumber",
                                                "RoutingNumber",
                                                "Street",
                                                "HouseNumberOrName",
                                                "HouseNameOrNumber",
                                                "PostalCode",
                                                "City"};
  return keys;
}

namespace {

// The account and address data the processor does not declare (declared
// parameters are checked by their DataType) are text too: one type rule for
// every field (decisions 70).
ApiErrors untyped_bank_parameters(const ResolvedMethod& method) {
  ApiErrors errors;
  const nlohmann::json& p = method.parameters;
  if (!p.is_object() || method.method->kind != MethodKind::kBank) return errors;
  for (const std::string& key : bank_parameter_keys()) {
    auto it = p.find(key);
    if (it == p.end() || it->is_null() || it->is_string()) continue;
    bool declared = false;
    for (const auto& d : method.processor->parameters) declared = declared || d.name == key;
    if (declared) continue;
    const std::string path = std::string("PaymentMethod.Parameters.") + key;
    errors.push_back(
        make_error(error_code::kInvalidData, path, path + " must be a string, got " + it->dump()));
  }
  return errors;
}

}  // namespace

ApiErrors validate_scheme_currency(const ResolvedMethod& method, const std::string& currency,
                                   const std::string& path) {
  if (!method.method) return {};
  for (const auto& s : kSchemeCurrencies)
    if (s.scheme == method.method->bank_scheme && currency != s.currency)
      return {make_error(error_code::kInvalidData, path,
                         path + ": " + method.method->name + " uses the " + s.name +
                             " scheme, which collects in " + s.currency +
                             " only; the payment is in " + currency + ": pay in " + s.currency +
                             " or choose another method")};
  return {};
}

ApiErrors validate_bank_parameters(const ResolvedMethod& method) {
  if (!method.method) return {};
  if (ApiErrors typed = untyped_bank_parameters(method); !typed.empty()) return typed;
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
