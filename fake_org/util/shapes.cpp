#include "shapes.h"

namespace fake_org::shapes {

namespace {

bool identifier(std::string_view s) {
  if (s.empty() || !(is_letter(s[0]) || s[0] == '_')) return false;
  for (char c : s.substr(1))
    if (!is_alnum(c) && c != '_') return false;
  return true;
}

bool digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_digit(c)) return false;
  return true;
}

// A host name label: letters and digits, '-' only inside.
bool label(std::string_view s) {
  if (s.empty() || !is_alnum(s.front()) || !is_alnum(s.back())) return false;
  for (char c : s)
    if (!is_alnum(c) && c != '-') return false;
  return true;
}

bool host(std::string_view s) {
  if (!s.empty() && s.front() == '[') {
    if (s.size() < 3 || s.back() != ']') return false;
    for (char c : s.substr(1, s.size() - 2))
      if (!is_digit(c) && !((c | 0x20) >= 'a' && (c | 0x20) <= 'f') && c != ':' && c != '.')
        return false;
    return true;
  }
  while (true) {
    const size_t dot = s.find('.');
    if (!label(s.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    s.remove_prefix(dot + 1);
  }
}

bool port(std::string_view s) {
  if (s.empty() || s.size() > 5 || !digits(s)) return false;
  unsigned n = 0;
  for (char c : s) n = n * 10 + static_cast<unsigned>(c - '0');
  return n >= 1 && n <= 65535;
}

}  // namespace

bool api_name(std::string_view s) {
  return !s.empty() && is_letter(s[0]) && identifier(s);
}

bool dotted_path(std::string_view s) {
  while (true) {
    const size_t dot = s.find('.');
    if (!identifier(s.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    s.remove_prefix(dot + 1);
  }
}

bool whole_number(std::string_view s, size_t max_digits) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  return s.size() <= max_digits && digits(s);
}

bool decimal(std::string_view s, bool plus) {
  if (!s.empty() && (s[0] == '-' || (plus && s[0] == '+'))) s.remove_prefix(1);
  const size_t dot = s.find('.');
  if (dot == std::string_view::npos) return digits(s);
  return digits(s.substr(0, dot)) && digits(s.substr(dot + 1));
}

bool absolute_path(std::string_view s) {
  if (s.empty() || s.front() != '/' || s.back() == '/') return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '/') {
      if (s[i + 1] == '/') return false;  // an empty segment (the last is not '/')
    } else if (!is_alnum(c) && c != '.' && c != '_' && c != '~' && c != '-') {
      return false;
    }
  }
  return true;
}

bool http_url(std::string_view s, bool query) {
  if (s.substr(0, 7) == "http://")
    s.remove_prefix(7);
  else if (s.substr(0, 8) == "https://")
    s.remove_prefix(8);
  else
    return false;
  const size_t end = s.find_first_of("/?#");
  std::string_view authority = s.substr(0, end);
  s.remove_prefix(authority.size());
  // The port's colon is the last one after an IP literal's ']'.
  const size_t close = authority.rfind(']');
  const size_t colon = authority.find(':', close == std::string_view::npos ? 0 : close);
  if (colon != std::string_view::npos) {
    if (!port(authority.substr(colon + 1))) return false;
    authority = authority.substr(0, colon);
  }
  if (!host(authority)) return false;
  for (char c : s)
    if (is_space(c) || c == '#') return false;
  return query || s.find('?') == std::string_view::npos;
}

}  // namespace fake_org::shapes
