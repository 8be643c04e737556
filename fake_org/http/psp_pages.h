#pragma once
// The HTML of the simulated PSP: the hosted checkout page, the card
// challenge (3-D Secure) page and the pages for unknown, completed and failed
// sessions. Plain HTML forms and inline CSS: no JavaScript, no external
// assets, so it works in any browser and in tests that read the markup.
// Element ids (#pay, #decline, #cancel, #card_number, #challenge-pass,
// #challenge-fail, #merchant, #amount, ...) are what the browser test clicks.
#include <string>

#include "domain/org/psp_sessions.h"
#include "http/html.h"

namespace fake_org::http {

// A whole document: title, the shared style sheet, `body` inside the card.
std::string psp_page(const std::string& title, const std::string& body);

// Bodies for psp_page.
std::string checkout_body(const std::string& merchant, const PspSession& s);
// The checkout again, headed by why the payer's input was refused
// (#input-error); nothing was sent to the org.
std::string refused_input_body(const std::string& merchant, const PspSession& s,
                               const std::string& message);
std::string challenge_body(const std::string& merchant, const PspSession& s,
                           const std::string& card_number, const std::string& holder);
// `expiry` in words ("24 hours"): how long a session stays open.
std::string unknown_session_body(const std::string& id, const std::string& expiry);
std::string completed_body(const PspSession& s, const std::string& back_url);
// A session never completed whose installment was paid another way: the
// org's message (it names the request that paid).
std::string paid_elsewhere_body(const std::string& message, const std::string& back_url);
std::string provider_error_body(const std::string& detail);
std::string no_return_page_body(const std::string& status);

// "25.00" from the session's amount as shown on the page.
std::string amount_text(const PspSession& s);

}  // namespace fake_org::http
