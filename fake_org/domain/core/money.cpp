#include "money.h"
#include "util/json_text.h"

#include <cctype>
#include <cmath>

namespace fake_org {

namespace {
constexpr int64_t kMaxMinor =
    100'000'000'000'000LL;  // 10^14 minor units: far above any real payment

// Decimal text of a JSON number: nlohmann prints the shortest text that reads
// back as the same double, which is what the client wrote for any amount with
// fewer than 16 significant digits.
std::string number_text(const nlohmann::json& v) {
  return text::json_text(v);
}
}  // namespace

Result<Money> parse_amount(const nlohmann::json& value, int scale, const std::string& currency,
                           const std::string& field) {
  std::string text;
  if (value.is_number()) {
    if (value.is_number_float() && !std::isfinite(value.get<double>()))
      return make_error(error_code::kInvalidData, field, field + " must be a finite number");
    text = number_text(value);
  } else if (value.is_string()) {
    text = value.get<std::string>();
    size_t b = text.find_first_not_of(" \t"), e = text.find_last_not_of(" \t");
    text = b == std::string::npos ? "" : text.substr(b, e - b + 1);
  } else {
    return make_error(
        error_code::kInvalidData, field,
        field + " must be a number or a numeric string, got " + text::json_text(value));
  }
  auto bad = [&](const std::string& why) {
    return make_error(error_code::kInvalidData, field, field + " '" + text + "' " + why);
  };
  if (text.empty()) return bad("is empty; send a positive number such as 25.00");
  // Exponent forms come from doubles like 1e-05; expand through the double.
  if (text.find_first_of("eE") != std::string::npos) {
    size_t used = 0;
    double d = 0;
    try {
      d = std::stod(text, &used);
    } catch (...) {
      used = 0;
    }
    if (used != text.size() || !std::isfinite(d)) return bad("is not a number");
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", scale + 1, d);
    text = buf;
    while (text.size() > 1 && text.back() == '0' && text.find('.') != std::string::npos)
      text.pop_back();
    if (!text.empty() && text.back() == '.') text.pop_back();
  }
  size_t i = 0;
  bool negative = false;
  if (text[i] == '-' || text[i] == '+') negative = text[i++] == '-';
  int64_t whole = 0;
  size_t int_digits = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    whole = whole * 10 + (text[i++] - '0');
    if (++int_digits > 15) return bad("is too large");
  }
  int64_t frac = 0;
  int frac_digits = 0;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      int d = text[i++] - '0';
      if (frac_digits >= scale) {
        if (d != 0) {
          return bad("has more decimal places than " + currency + " allows (" +
                     std::to_string(scale) + ")");
        }
        continue;  // trailing zeros beyond the precision are harmless
      }
      frac = frac * 10 + d;
      ++frac_digits;
    }
  }
  if (i != text.size() || (int_digits == 0 && frac_digits == 0)) return bad("is not a number");
  for (int k = frac_digits; k < scale; ++k) frac *= 10;
  int64_t pow = 1;
  for (int k = 0; k < scale; ++k) pow *= 10;
  int64_t minor = whole * pow + frac;
  if (minor > kMaxMinor) return bad("is too large");
  return Money{negative ? -minor : minor, scale, currency};
}

nlohmann::json Money::to_json_number() const {
  if (scale == 0) return minor;
  int64_t pow = 1;
  for (int k = 0; k < scale; ++k) pow *= 10;
  if (minor % pow == 0) return minor / pow;  // 25 rather than 25.0
  return std::stod(to_string());
}

std::string Money::to_string() const {
  int64_t a = minor < 0 ? -minor : minor;
  std::string digits = std::to_string(a);
  if (scale > 0) {
    if (digits.size() <= static_cast<size_t>(scale))
      digits.insert(0, scale - digits.size() + 1, '0');
    digits.insert(digits.size() - scale, ".");
  }
  return (minor < 0 ? "-" : "") + digits;
}

}  // namespace fake_org
