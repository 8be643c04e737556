#include "email.h"

#include "shapes.h"

namespace fake_org::email {

namespace {

constexpr std::string_view kLocalPunct = "!#$%&'*+/=?^_`{|}~.-";

bool ascii(std::string_view s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

std::optional<std::string> local_problem(std::string_view local) {
  if (local.empty()) return "has nothing before the '@'";
  if (local.size() > 64) return "has more than 64 characters before the '@'";
  for (char c : local)
    if (!shapes::is_alnum(c) && kLocalPunct.find(c) == std::string_view::npos)
      return "has the character '" + std::string(1, c) + "' before the '@'";
  if (local.front() == '.') return "starts with a '.'";
  return std::nullopt;
}

bool label_ok(std::string_view label) {
  if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-')
    return false;
  for (char c : label)
    if (!shapes::is_alnum(c) && c != '-') return false;
  return true;
}

std::optional<std::string> domain_problem(std::string_view domain) {
  if (domain.empty()) return "has no domain after the '@'";
  const std::string quoted = "'" + std::string(domain) + "'";
  if (domain.find('.') == std::string_view::npos)
    return "has a domain without a '.' (" + quoted + ")";
  std::string_view label;
  for (std::string_view rest = domain;;) {
    const size_t dot = rest.find('.');
    label = rest.substr(0, dot);
    if (!label_ok(label)) return "has an invalid domain " + quoted;
    if (dot == std::string_view::npos) break;
    rest.remove_prefix(dot + 1);
  }
  bool tld = label.size() >= 2;
  for (char c : label) tld = tld && shapes::is_letter(c);
  if (!tld) return "has a domain " + quoted + " without a top-level domain such as .org";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> problem(std::string_view s) {
  if (!ascii(s)) return "has a character outside ASCII";
  for (char c : s)
    if (shapes::is_space(c)) return "contains a space";
  const size_t at = s.find('@');
  if (at == std::string_view::npos) return "has no '@'";
  if (s.find('@', at + 1) != std::string_view::npos) return "has more than one '@'";
  if (auto p = local_problem(s.substr(0, at))) return p;
  return domain_problem(s.substr(at + 1));
}

}  // namespace fake_org::email
