#pragma once
// ISO 4217 currencies and their minor units: an amount's allowed precision
// follows its currency (EUR 2, JPY 0, KWD 3, CLF 4), and a fixture may only
// enable real codes.
#include <optional>
#include <string_view>

namespace fake_org {

// Digits after the decimal point for an active ISO 4217 code ("EUR" -> 2).
// nullopt for unknown codes and for the codes ISO lists without minor units
// (precious metals, SDR, test code XTS, XXX): nothing can be paid in those.
std::optional<int> currency_minor_units(std::string_view iso);

// True for every active ISO 4217 alphabetic code, upper case only.
bool is_iso4217(std::string_view iso);

}  // namespace fake_org
