#pragma once
// One transaction for several data API requests: what an all-or-none
// composite request, a composite graph and a composite tree run their
// subrequests in. The domain's writes (sobject_write.h, sobject_upsert.h,
// composite_sobjects.h) each open their own write; inside all_or_none they
// join this one instead (record_store.h write_enclosing), so a subrequest
// runs the same code as the direct request and still writes nothing unless
// all of them succeed.
#include <functional>

#include "domain/org/org.h"

namespace fake_org::data {

// Runs `body` with every write this thread makes to the org's records
// meanwhile joined into one transaction, committed only when `body` returns
// true; reads on this thread see what it staged. Other requests wait.
void all_or_none(Org& org, const std::function<bool()>& body);

}  // namespace fake_org::data
