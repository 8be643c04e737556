#pragma once
// The one rule for an email address, the platform's (its help articles
// "How does Salesforce qualify an email address?" and "Email Address Format
// Technical Standards Validation"): the data API, /__admin/records, seeds
// and the payment API's CrmFields all judge an address by it, so an address
// one of them takes the others take too.
//
// - local part: 1 to 64 of A-Z a-z 0-9 and !#$%&'*+/=?^_`{|}~.- ; not
//   starting with '.', while ".." inside and a '.' at its end are taken (the
//   platform's own departure from the RFCs);
// - one '@';
// - domain: labels of A-Z a-z 0-9 and inner '-', joined by single dots, at
//   least two, the last (the top-level domain) letters only, 2 or more;
// - no space, no character outside ASCII (internationalised addresses are
//   an org setting, off unless an admin turns it on), no comments in
//   parentheses (which the platform would strip).
//
// How long a field may be is the field's rule, not this one.
#include <optional>
#include <string>
#include <string_view>

namespace fake_org::email {

// Why `s` is no address ("has no '@'"), or nullopt when it is one. The
// reason quotes only ASCII, so it stays valid UTF-8 whatever `s` holds.
std::optional<std::string> problem(std::string_view s);

inline bool valid(std::string_view s) {
  return !problem(s);
}

}  // namespace fake_org::email
