#pragma once
// The columns a record list shows after Id (the dashboard's record tables):
// what a person looks for first, from the catalogue, not the first fields of
// the records alphabetically.
#include <cstddef>
#include <string>
#include <vector>

namespace fake_org {
struct ObjectDef;
}

namespace fake_org::admin {

// The fixture's `list_fields` when it has them, whole. Else, from the
// object's fields in the catalogue's order, at most `limit`: its name (Name,
// or LastName and FirstName where Name is the org's own, as on Contact) and
// Email; then status-like fields (Status in the name, StageName); amounts
// and currency (currency fields, Amount in the name, CurrencyIsoCode); date
// and date-time fields; then the rest but long text (textarea).
std::vector<std::string> list_fields(const ObjectDef& object, size_t limit);

}  // namespace fake_org::admin
