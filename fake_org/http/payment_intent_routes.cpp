#include "domain/config/package_layouts.h"
#include "domain/payments/payment_intents.h"
#include "request_log.h"
#include "responses.h"
#include "routes.h"

namespace fake_org::http {

namespace {

void post_payment_intent(Org& org, PaymentIntents& service, bool tls, Call& c) {
  auto body = parse_json_body(c.req, EmptyBody::kMissing);
  if (!body.ok()) return send_errors(c.res, org.config(), body.errors());
  auto r = service.create(std::move(*body), IntentContext{origin_of(c.req, tls), c.req.body});
  if (!r.ok()) return send_errors(c.res, org.config(), r.errors());
  request_log_context().payment_intent_id = r->payment_intent_id;
  if (r->replayed) c.res.set_header("Idempotent-Replayed", "true");
  send_json(c.res, 200, package_layout::payment_intent_created(org.config(), std::move(r->body)));
}

void get_payment_intent(Org& org, PaymentIntents& service, Call& c) {
  request_log_context().payment_intent_id = c.params["ID"];
  auto r = service.get_text(c.params["ID"]);
  if (!r.ok()) return send_errors(c.res, org.config(), r.errors());
  c.res.status = 200;
  c.res.set_content(**r, kJson);
}

void get_installment(Org& org, PaymentIntents& service, Call& c) {
  auto r = service.installment(c.params["ID"]);
  if (!r.ok()) return send_errors(c.res, org.config(), r.errors());
  if (auto it = r->find("PaymentIntentId"); it != r->end())
    request_log_context().payment_intent_id = *it;
  send_json(c.res, 200, *r);
}

}  // namespace

// POST /PaymentIntent, GET /PaymentIntent/{ID}, GET /Installment/{ID} (spec 4.1-4.3).
FAKE_ORG_HANDLERS(payment_intent) {
  Org& org = context.org;
  const bool tls = context.tls;
  auto service = std::make_shared<PaymentIntents>(org);
  handlers.on("postPaymentIntent",
              [&org, service, tls](Call& c) { post_payment_intent(org, *service, tls, c); });
  handlers.on("getPaymentIntent",
              [&org, service](Call& c) { get_payment_intent(org, *service, c); });
  handlers.on("getInstallment", [&org, service](Call& c) { get_installment(org, *service, c); });
}

}  // namespace fake_org::http
