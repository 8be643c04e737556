#include "domain/payments/recurring.h"
#include "responses.h"
#include "routes.h"

namespace fake_org::http {

void add_recurring_handlers(Handlers& handlers, Org& org) {
  handlers.on("getRecurring", [&org](Call& c) {
    auto r = recurring_view(org, c.params["ID"]);
    if (!r.ok()) return send_errors(c.res, org.config(), r.errors());
    send_json(c.res, 200, *r);
  });
}

}  // namespace fake_org::http
