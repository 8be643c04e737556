#include "domain/payments/recurring.h"
#include "responses.h"
#include "routes.h"

namespace fake_org::http {

// GET /Recurring/{ID} (spec 2.11, 4.4).
FAKE_ORG_HANDLERS(recurring) {
  Org& org = context.org;
  handlers.on("getRecurring", [&org](Call& c) {
    auto r = recurring_view(org, c.params["ID"]);
    if (!r.ok()) return send_errors(c.res, org.config(), r.errors());
    send_json(c.res, 200, *r);
  });
}

}  // namespace fake_org::http
