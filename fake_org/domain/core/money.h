#pragma once
// Amounts as the API carries them: a JSON number or a numeric string (spec
// 2.4), held exactly as minor units of a currency so that rounding never
// creeps into open amounts and payments.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "errors.h"

namespace fake_org {

struct Money {
  int64_t minor = 0;  // 19.99 EUR -> 1999
  int scale = 2;      // the currency's minor units
  std::string currency;

  // As a JSON number with the currency's precision (1999, 2 -> 19.99).
  nlohmann::json to_json_number() const;
  std::string to_string() const;  // "19.99"
};

// Parses `value` (number or numeric string) for a currency with `scale` minor
// units. Errors (code 200, field = `field`): not a number, more fraction digits
// than the currency has, not finite, too large.
Result<Money> parse_amount(const nlohmann::json& value, int scale, const std::string& currency,
                           const std::string& field);

}  // namespace fake_org
