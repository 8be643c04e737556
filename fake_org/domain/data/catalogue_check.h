#pragma once
// Every value the org stores, checked against its own catalogue (the fixture's
// objects): a field the object defines, with a value of the field's type,
// length and picklist. Clients' CrmFields are checked on the way in, but the
// org writes most fields itself (system fields, statuses, references), and
// only this check stands between a slip in the fake and a record no real org
// could hold. The HTTP tests run it after every test (TestOrg) and the
// runner's embedded target after every scenario.
#include <string>
#include <vector>

#include "domain/config/org_config.h"
#include "domain/org/org.h"

namespace fake_org {

// "<Object> <Id>: <Field> <reason>" per violation, at most `limit` of them.
// Takes the store's read lock.
std::vector<std::string> catalogue_violations(const Org& org, size_t limit = 20);

}  // namespace fake_org
