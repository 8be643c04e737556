#pragma once
// Bank-account data in PaymentMethod.Parameters (spec 2.6, 4.1 rule 2) checked
// by the rules of the method's bank scheme (spec 7, codes 201 to 206), for new
// payments and for updates of recurring payments; a bank method without a
// scheme that sends RoutingNumber is a US ACH account (200, bank_account.h).
//
// Parameter names: IBAN, BIC, AccountHolderName, SortCode, AccountNumber,
// ClearingNumber, RoutingNumber, Street, HouseNumberOrName (the fixtures' HouseNameOrNumber
// is read too), PostalCode, City. A scheme's check runs when its account data
// is present; absent required parameters are the processor's error 011.
#include <string>
#include <vector>

#include "domain/config/resolved_method.h"
#include "domain/core/errors.h"

namespace fake_org {

// Empty when the account data is fine or the method has no bank scheme.
ApiErrors validate_bank_parameters(const ResolvedMethod& method);

// The account and address parameters a bank method reads, declared by its
// processor or not (IBAN, SortCode, Street, ...).
const std::vector<std::string>& bank_parameter_keys();

// A scheme collects in one currency only (SEPA EUR, Bacs GBP, Autogiro SEK):
// a payment in another is 200 naming the currency and the scheme, at `path`
// (the request's currency field, or the method when the currency is the
// record's).
ApiErrors validate_scheme_currency(const ResolvedMethod& method, const std::string& currency,
                                   const std::string& path);

}  // namespace fake_org
