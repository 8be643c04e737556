#pragma once
// The simulated PSP on the fake's own server (spec 1, 3, 6.2):
//   GET  /psp/checkout/{session}   the hosted payment page (HTML, no auth, as a PSP page)
//   POST /psp/checkout/{session}   the payer's form: action=pay|decline|cancel, card_number;
//                                  the PSP calls back POST /psp/callback over HTTP, then
//                                  303 to SuccessURL/FailureURL?payment_intent=pi_...
//   POST /psp/callback             the PSP -> org callback: applies complete/decline/cancel;
//                                  only when signed by the org's PSP (X-PSP-Signature,
//                                  events/psp_signature.h), else 401 with Errors, no change
// and on the admin API (mounted under /__admin):
//   POST /psp/{session}/complete   {"outcome":"success"|"failure"|"cancel", card fields...}
//                                  the headless driver: same callback path; answers
//                                  {session, status, redirect}; 404 / 400 / 409.
#include "domain/org/org.h"
#include "http/router.h"

namespace fake_org::http {

// The pages and the callback (area psp of contracts/routes.yaml). `tls`: how
// the PSP calls the org back.
void add_psp_page_handlers(Handlers& handlers, Org& org, bool tls);
// The headless driver (area admin).
void add_psp_admin_handlers(Handlers& handlers, Org& org);

}  // namespace fake_org::http
