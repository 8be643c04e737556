#pragma once
// The Luhn check digit test (ISO/IEC 7812) that every card number passes: the
// fake's redaction and the recorder's secret detection both use it to tell a
// card number from any other run of digits.
#include <string_view>

namespace fake_org {

// `digits` holds only '0'..'9'.
inline bool luhn_valid(std::string_view digits) {
  int sum = 0;
  bool twice = false;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    int d = *it - '0';
    if (twice) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
    twice = !twice;
  }
  return sum % 10 == 0;
}

}  // namespace fake_org
