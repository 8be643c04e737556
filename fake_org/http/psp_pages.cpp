#include "http/psp_pages.h"

#include <cstdio>

#include "events/psp_simulator.h"
#include "http/request_log.h"
#include "util/json_text.h"

namespace fake_org::http {

namespace {

// Kept small and inline: the page must render with no network access.
const char* kCss =
    "body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;padding:2rem;"
    "color:#222}.card{max-width:26rem;margin:auto;background:#fff;border-radius:8px;"
    "padding:1.5rem;box-shadow:0 2px 8px rgba(0,0,0,.1)}h1{font-size:1.2rem;margin-top:0}"
    ".psp{color:#888;font-size:.75rem;text-transform:uppercase;letter-spacing:.05em;"
    "margin:0 0 .5rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.3rem 1rem}"
    "dt{color:#666}dd{margin:0;overflow-wrap:anywhere}.amount{font-size:1.6rem;"
    "font-weight:bold;margin:.2rem 0 1rem}label{font-size:.9rem;color:#444}"
    "input{width:100%;padding:.4rem;box-sizing:border-box;margin:.3rem 0 1rem;"
    "font-size:1rem}button{padding:.5rem 1rem;margin:0 .4rem .4rem 0;border:0;"
    "border-radius:4px;cursor:pointer;font-size:.95rem}#pay,#challenge-pass{background:#2b7a3d;"
    "color:#fff}#decline,#challenge-fail{background:#b33;color:#fff}#cancel{background:#ddd}"
    ".hint{color:#888;font-size:.8rem}.notice{background:#fff4e5;border-left:4px solid "
    "#e8a33d;padding:.5rem .8rem;margin:0 0 1rem;font-size:.9rem}";

// What the payer sees about the previous attempt on a session kept open.
std::string last_attempt_notice(const PspSession& s) {
  if (s.attempts == 0 || s.last_outcome.empty() || s.last_outcome == "success") return "";
  std::string what = s.last_outcome == "cancel" ? "was cancelled" : "was declined";
  return "<p class=\"notice\" id=\"last-outcome\" data-outcome=\"" + html_escape(s.last_outcome) +
         "\">Your last attempt " + what + ". You can try again.</p>";
}

std::string details(const std::string& merchant, const PspSession& s) {
  return "<dl><dt>Merchant</dt><dd id=\"merchant\">" + html_escape(merchant) +
         "</dd><dt>Amount</dt><dd id=\"amount-value\">" + html_escape(amount_text(s)) +
         "</dd><dt>Currency</dt><dd id=\"currency\">" + html_escape(s.currency) +
         "</dd><dt>Method</dt><dd id=\"method\">" + html_escape(s.method) +
         "</dd><dt>Processor</dt><dd id=\"processor\">" + html_escape(s.processor) +
         "</dd><dt>Payment</dt><dd id=\"payment-intent\">" + html_escape(s.payment_intent_id) +
         "</dd></dl>";
}

}  // namespace

std::string psp_page(const std::string& title, const std::string& body) {
  return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta "
         "name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>" +
         html_escape(title) + "</title><style>" + kCss +
         "</style></head><body><div class=\"card\">" + body + "</div></body></html>";
}

std::string amount_text(const PspSession& s) {
  const auto& a = s.amount;
  if (a.is_number_float()) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", a.get<double>());
    return buf;
  }
  if (a.is_number()) return text::json_text(a) + ".00";
  if (a.is_string()) return a.get<std::string>();
  return a.is_null() ? "" : text::json_text(a);
}

std::string checkout_body(const std::string& merchant, const PspSession& s) {
  std::string b = "<p class=\"psp\">" + html_escape(s.processor) +
                  " &middot; simulated checkout</p><h1>Pay " + html_escape(merchant) + "</h1>";
  b += "<p class=\"amount\" id=\"amount\">" + html_escape(amount_text(s)) + " " +
       html_escape(s.currency) + "</p>" + last_attempt_notice(s) + details(merchant, s);
  b += "<form method=\"post\" action=\"" + html_escape(request_log_context().org_prefix) +
       "/psp/checkout/" + html_escape(s.id) + "\">";
  // The fixture's method kind decides what the page asks, never its name.
  if (s.kind == MethodKind::kCard)
    b += "<label for=\"card_number\">Card number</label><input id=\"card_number\" "
         "name=\"card_number\" value=\"4242 4242 4242 4242\" autocomplete=\"off\" "
         "inputmode=\"numeric\"><p class=\"hint\">Test cards: 4242 4242 4242 4242 succeeds, "
         "4000 0000 0000 0002 is declined, 4000 0000 0000 3220 asks for a 3-D Secure "
         "challenge.</p>";
  else if (s.kind == MethodKind::kWallet)
    b += "<label for=\"email\">" + html_escape(s.method) +
         " login (email)</label><input id=\"email\" name=\"email\" type=\"email\" value=\"" +
         std::string(psp_magic::kWalletEmail) +
         "\" autocomplete=\"off\"><p class=\"hint\">Any address logs in; the wallet "
         "returns it and its payer id, no card data.</p>";
  else if (s.kind == MethodKind::kBank)
    b += "<label for=\"iban\">IBAN</label><input id=\"iban\" name=\"iban\" value=\"" +
         std::string(psp_magic::kIbanSuccess) +
         "\"><label for=\"holder\">Account holder</label><input id=\"holder\" name=\"holder\" "
         "value=\"\"><p class=\"hint\">Test IBAN " +
         std::string(psp_magic::kIbanDecline) + " is declined.</p>";
  b += "<button id=\"pay\" name=\"action\" value=\"pay\" type=\"submit\">Pay</button>"
       "<button id=\"decline\" name=\"action\" value=\"decline\" type=\"submit\">Decline</button>"
       "<button id=\"cancel\" name=\"action\" value=\"cancel\" type=\"submit\">Cancel</button>"
       "</form>";
  return b;
}

std::string refused_input_body(const std::string& merchant, const PspSession& s,
                               const std::string& message) {
  return "<p class=\"notice\" id=\"input-error\" role=\"alert\">" + html_escape(message) + "</p>" +
         checkout_body(merchant, s);
}

std::string challenge_body(const std::string& merchant, const PspSession& s,
                           const std::string& card_number, const std::string& holder) {
  std::string digits;
  for (char c : card_number)
    if (c >= '0' && c <= '9') digits += c;
  std::string last4 = digits.size() >= 4 ? digits.substr(digits.size() - 4) : digits;
  return "<p class=\"psp\">3-D Secure &middot; test issuer</p><h1 id=\"challenge\">Confirm "
         "your payment</h1><p>Your bank asks you to confirm the payment of <strong>" +
         html_escape(amount_text(s)) + " " + html_escape(s.currency) + "</strong> to <strong>" +
         html_escape(merchant) + "</strong> with the card ending in <strong id=\"card-last4\">" +
         html_escape(last4) +
         "</strong>.</p><p class=\"hint\">This is the simulated challenge of the test card 4000 "
         "0000 0000 3220: complete it to pay, fail it to decline the payment.</p>"
         "<form method=\"post\" action=\"" +
         html_escape(request_log_context().org_prefix) + "/psp/checkout/" + html_escape(s.id) +
         "/challenge\"><input type=\"hidden\" name=\"card_number\" value=\"" + html_escape(digits) +
         "\"><input type=\"hidden\" name=\"holder\" value=\"" + html_escape(holder) +
         "\"><button id=\"challenge-pass\" name=\"challenge\" value=\"pass\" "
         "type=\"submit\">Complete authentication</button><button id=\"challenge-fail\" "
         "name=\"challenge\" value=\"fail\" type=\"submit\">Fail authentication</button></form>";
}

std::string unknown_session_body(const std::string& id, const std::string& expiry) {
  return "<h1>Payment session not found</h1><p>No open payment session <code>" + html_escape(id) +
         "</code>. A session expires " + html_escape(expiry) +
         " after the payment intent opened it (org clock; fixture org.psp_session_expiry), and a "
         "reset of the org forgets every session: send the payment intent again for a new "
         "RedirectURL.</p>";
}

std::string paid_elsewhere_body(const std::string& message, const std::string& back_url) {
  return "<h1>Nothing to pay</h1><p id=\"paid-elsewhere\">" + html_escape(message) + "</p>" +
         (back_url.empty() ? std::string()
                           : "<p><a id=\"back\" href=\"" + html_escape(back_url) +
                                 "\">Back to the merchant</a></p>");
}

std::string completed_body(const PspSession& s, const std::string& back_url) {
  return "<h1>Payment already completed</h1><p id=\"completed\">The payment " +
         html_escape(s.payment_intent_id) +
         " was already completed. Nothing was charged again.</p>" +
         (back_url.empty() ? std::string()
                           : "<p><a id=\"back\" href=\"" + html_escape(back_url) +
                                 "\">Back to the merchant</a></p>");
}

std::string provider_error_body(const std::string& detail) {
  return "<h1>Payment provider error</h1><p>The org did not accept the PSP's callback: " +
         html_escape(detail) + "</p>";
}

std::string no_return_page_body(const std::string& status) {
  return "<h1>Payment " + html_escape(status) +
         "</h1><p>The merchant gave no page to return to.</p>";
}

}  // namespace fake_org::http
