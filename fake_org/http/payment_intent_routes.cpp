#include "domain/payment_intents.h"
#include "request_log.h"
#include "responses.h"
#include "routes.h"

namespace fake_org::http {

void add_payment_intent_routes(Router& router, Org& org, bool tls) {
  auto service = std::make_shared<PaymentIntents>(org);
  router.add("POST", "/PaymentIntent", [&org, service, tls](Call& c) {
    auto body = parse_json_body(c.req, EmptyBody::kMissing);
    if (!body.ok()) return send_errors(c.res, org.config(), body.errors());
    auto r = service->create(*body, IntentContext{origin_of(c.req, tls)});
    if (!r.ok()) return send_errors(c.res, org.config(), r.errors());
    request_log_context().payment_intent_id = r->payment_intent_id;
    if (r->replayed) c.res.set_header("Idempotent-Replayed", "true");
    send_json(c.res, 200, r->body);
  });
  router.add("GET", "/PaymentIntent/{ID}", [&org, service](Call& c) {
    request_log_context().payment_intent_id = c.params["ID"];
    auto r = service->get(c.params["ID"]);
    if (!r.ok()) return send_errors(c.res, org.config(), r.errors());
    send_json(c.res, 200, *r);
  });
  router.add("GET", "/Installment/{ID}", [&org, service](Call& c) {
    auto r = service->installment(c.params["ID"]);
    if (!r.ok()) return send_errors(c.res, org.config(), r.errors());
    if (auto it = r->find("PaymentIntentId"); it != r->end())
      request_log_context().payment_intent_id = *it;
    send_json(c.res, 200, *r);
  });
}

}  // namespace fake_org::http
