// POST /Payment and GET /Payment/{ID} (spec 4.7): the older interface answers
// HTTP 200 either way and reports its outcome in the body (spec 7.6), so a
// body that is not even JSON is a failure body too.
#include "domain/payments/legacy_payment.h"
#include "request_log.h"
#include "responses.h"
#include "routes.h"

namespace fake_org::http {

namespace {

void post_payment(LegacyPayments& service, bool tls, Call& c) {
  auto body = parse_json_body(c.req, EmptyBody::kMissing);
  if (!body.ok()) return send_json(c.res, 200, legacy_failure_body(body.errors()));
  auto r = service.create(*body, IntentContext{origin_of(c.req, tls)});
  request_log_context().payment_intent_id = r.payment_intent_id;
  send_json(c.res, 200, r.body);
}

}  // namespace

FAKE_ORG_HANDLERS(legacy_payment) {
  const bool tls = context.tls;
  auto service = std::make_shared<LegacyPayments>(context.org);
  handlers.on("postPayment", [service, tls](Call& c) { post_payment(*service, tls, c); });
  handlers.on("getPayment",
              [service](Call& c) { send_json(c.res, 200, service->get(c.params["ID"])); });
}

}  // namespace fake_org::http
