#pragma once
// Fixed text shapes, checked by hand rather than with std::regex: the eight
// patterns a start compiled cost more instructions than the rest of loading
// a fixture, and matching one on a request path cost thousands.
#include <string_view>

namespace fake_org::shapes {

inline bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
inline bool is_letter(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}
inline bool is_alnum(char c) {
  return is_digit(c) || is_letter(c);
}
// What std::regex's \s matches in the "C" locale.
inline bool is_space(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

// A letter, then letters, digits or '_' (an API name: "cpm__GUID__c").
bool api_name(std::string_view s);
// Identifiers ('_' or a letter, then letters, digits or '_') joined by
// single dots: "Payer.Contact.Email".
bool dotted_path(std::string_view s);
// 1 to `max_digits` digits after an optional '-' or '+'.
bool whole_number(std::string_view s, size_t max_digits);
// Digits with an optional fraction ("12", "-0.50"); a leading '+' only
// when `plus` is allowed.
bool decimal(std::string_view s, bool plus);
// One or more segments of '/' followed by letters, digits or "._~-":
// "/services/apexrest/cpm/v2" (no trailing '/').
bool absolute_path(std::string_view s);
// "http://" or "https://" (lower case), a host (dot-separated labels of
// letters, digits and inner '-', or an IP literal in brackets), an optional
// port from 1 to 65535, an optional path without white space, '?' or '#',
// and with `query`, an optional query without white space or '#'. No
// fragment.
bool http_url(std::string_view s, bool query);

}  // namespace fake_org::shapes
