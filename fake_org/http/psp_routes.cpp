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
// Their handlers are the groups psp_pages and psp_admin.

#include <climits>
#include <cstdint>
#include <optional>

#include "domain/payments/collections.h"
#include "events/psp_signature.h"
#include "events/psp_simulator.h"
#include "http/psp_pages.h"
#include "http/request_log.h"
#include "http/responses.h"
#include "http/routes.h"
#include "util/json_text.h"
#include "util/request_gate.h"

namespace fake_org::http {

namespace {

void send_page(httplib::Response& res, int status, const std::string& title,
               const std::string& body) {
  res.status = status;
  res.set_content(psp_page(title, body), "text/html;charset=UTF-8");
}

void send_unknown_page(Org& org, httplib::Response& res, const std::string& id) {
  send_page(res, 404, "Payment session not found",
            unknown_session_body(id, describe_duration(org.psp_sessions().expiry())));
}

// The merchant's SuccessURL with the payment intent id, "" without one.
std::string back_to_merchant(const PspSession& s) {
  return s.success_url.empty() ? std::string()
                               : append_payment_intent(s.success_url, s.payment_intent_id);
}

void send_completed_page(httplib::Response& res, const PspSession& s) {
  send_page(res, 200, "Payment already completed", completed_body(s, back_to_merchant(s)));
}

// The session a page names while the payer may still act on it; otherwise
// the page that says why (unknown, or already completed) is sent.
std::optional<PspSession> open_session(Org& org, Call& c) {
  const std::string& id = c.params["session"];
  httplib::Response& res = c.res;
  auto s = org.psp_sessions().get(id);
  if (!s) {
    send_unknown_page(org, res, id);
    return std::nullopt;
  }
  if (s->status == "completed") {
    send_completed_page(res, *s);
    return std::nullopt;
  }
  return s;
}

int current_year(Org& org) {
  return date_of(org.clock().now()).year;
}

// What a PSP refuses before charging (card number, expiry, wallet login), on
// the org clock's month.
std::optional<PayerInputError> refused_input(Org& org, const PspSession& s, const PayerAction& a) {
  const Date today = date_of(org.clock().now());
  return check_payer_input(s, a, today.year, today.month);
}

// The driver's body fields and the JSON type each must have: a wrongly typed
// field is the caller's mistake (400, 010 naming it), never a 500 from a
// failed conversion, and never silently ignored.
bool fits_int(const nlohmann::json& v) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>() <= INT_MAX;
  const auto n = v.get<std::int64_t>();
  return n >= INT_MIN && n <= INT_MAX;
}

std::optional<ApiError> driver_type_error(const nlohmann::json& b) {
  if (!b.is_object())
    return make_error(error_code::kMissingCoreParameter, "",
                      "Send a JSON object such as {\"outcome\": \"success\"}");
  static const char* const kStrings[] = {"outcome", "card_number", "iban",
                                         "holder",  "email",       "challenge"};
  for (const char* k : kStrings)
    if (b.contains(k) && !b[k].is_string())
      return make_error(error_code::kMissingCoreParameter, k,
                        std::string("'") + k + "' must be a string; got " + text::json_text(b[k]));
  for (const char* k : {"exp_month", "exp_year"})
    if (b.contains(k) && (!b[k].is_number_integer() || !fits_int(b[k])))
      return make_error(
          error_code::kMissingCoreParameter, k,
          std::string("'") + k + "' must be a whole number; got " + text::json_text(b[k]));
  return std::nullopt;
}

PayerAction action_from_json(const nlohmann::json& b, std::string outcome) {
  PayerAction a;
  a.outcome = std::move(outcome);
  auto str = [&](const char* k) {
    return b.contains(k) && b[k].is_string() ? b[k].get<std::string>() : std::string();
  };
  // Types and int range are checked before (driver_type_error).
  auto num = [&](const char* k) {
    return b.contains(k) ? std::optional<int>(b[k].get<int>()) : std::nullopt;
  };
  a.card_number = str("card_number");
  a.expiry_month = num("exp_month");
  a.expiry_year = num("exp_year");
  a.iban = str("iban");
  a.holder = str("holder");
  a.email = str("email");
  a.challenge = str("challenge");
  return a;
}

// Applies the PSP's callback to the org's records, once its signature shows
// it came from the org's PSP; anything else is 401 and changes nothing.
void handle_callback(Org& org, const httplib::Request& req, httplib::Response& res) {
  const PspSignatureCheck check = verify_psp_signature(
      org.psp_callback_secret(), req.get_header_value(kPspSignatureHeader), req.body, unix_now());
  if (check != PspSignatureCheck::kValid)
    return send_json(res, 401,
                     errors_body({make_error(error_code::kUncategorised, "", describe(check))}));
  auto body = parse_json_body(req);
  if (!body.ok()) return send_errors(res, org.config(), body.errors());
  const auto& b = *body;
  std::string session = b.value("session", "");
  std::string outcome = b.value("outcome", "");
  if (!is_psp_outcome(outcome))
    return send_errors(res, org.config(),
                       {make_error(error_code::kMissingCoreParameter, "outcome",
                                   "'outcome' must be \"success\", \"failure\" or \"cancel\"")});
  Result<CollectionResult> r = [&]() -> Result<CollectionResult> {
    if (outcome == "cancel") return cancel_payment(org, session);
    if (outcome == "failure") return decline_payment(org, session, b.value("decline_reason", ""));
    PspOutcome o;
    o.psp_reference = b.value("psp_reference", "");
    if (b.contains("card") && b["card"].is_object()) {
      const auto& c = b["card"];
      o.card_brand = c.value("brand", "");
      o.last_four = c.value("last4", "");
      o.expiry_month = c.value("exp_month", 0);
      o.expiry_year = c.value("exp_year", 0);
      o.holder = c.value("holder", "");
    }
    if (b.contains("wallet") && b["wallet"].is_object()) {
      o.wallet_email = b["wallet"].value("email", "");
      o.wallet_account = b["wallet"].value("payer_id", "");
    }
    if (b.contains("bank") && b["bank"].is_object()) {
      o.iban = b["bank"].value("iban", "");
      o.holder = b["bank"].value("holder", "");
    }
    return complete_payment(org, session, o);
  }();
  if (!r.ok()) return send_errors(res, org.config(), r.errors());
  nlohmann::json out = {{"session", r->session.id},
                        {"status", r->session.status},
                        {"payment_intent", r->session.payment_intent_id},
                        {"attempts", r->session.attempts},
                        {"redirect", r->redirect}};
  if (!r->payment_id.empty()) out["payment"] = r->payment_id;
  send_json(res, 200, out);
}

std::string form_value(const httplib::Request& req, const char* name) {
  return req.has_param(name) ? req.get_param_value(name) : std::string();
}

// The PSP calls the org back; with no TLS hint it tries HTTP, then HTTPS.
// A real HTTP request to this same server (the callback is what a
// real PSP sends), made from the worker serving the page, which waits for it
// (psp_simulator's connect/read timeouts bound the wait). Another worker must
// answer it, so the server never runs with fewer than two (--threads), and
// this request steps out of the request gate while it waits.
CallbackAnswer call_org(Org& org, const httplib::Request& req, std::optional<bool> tls,
                        const nlohmann::json& body) {
  std::string host = req.local_addr.empty() ? "127.0.0.1" : req.local_addr;
  if (host == "0.0.0.0" || host == "::") host = "127.0.0.1";
  const std::string& key = org.psp_callback_secret();
  const std::string prefix = request_log_context().org_prefix;  // the org's, on a shared server
  // The callback needs a place in the request gate: this request gives its
  // own up while it waits (decision 133).
  util::RequestGate::StepOut waiting;
  if (tls) return post_psp_callback(host, req.local_port, *tls, body, key, prefix);
  auto a = post_psp_callback(host, req.local_port, false, body, key, prefix);
  if (a.status == 0) a = post_psp_callback(host, req.local_port, true, body, key, prefix);
  return a;
}

// The payer acted on a page: the PSP calls the org back, then sends the
// browser where the org says (303 to SuccessURL/FailureURL).
void finish_payer_action(Org& org, const httplib::Request& req, httplib::Response& res, bool tls,
                         const PspSession& s, const PayerAction& a) {
  auto answer = call_org(org, req, tls, psp_callback_body(s, a, current_year(org)));
  if (answer.status == 404) return send_unknown_page(org, res, s.id);
  if (answer.status == 409) {
    auto now = org.psp_sessions().get(s.id);
    if (now && now->status == "completed") return send_completed_page(res, *now);
    // Never completed: its installment was paid through another session or
    // request, and the org's answer says which.
    std::string message = "This payment was already made another way; nothing was charged.";
    if (answer.body.is_object() && answer.body.contains("Errors") &&
        answer.body["Errors"].is_array() && !answer.body["Errors"].empty())
      message = answer.body["Errors"][0].value("error_message", message);
    return send_page(res, 409, "Nothing to pay", paid_elsewhere_body(message, back_to_merchant(s)));
  }
  if (answer.status != 200 || !answer.body.is_object())
    return send_page(res, 502, "Payment provider error",
                     provider_error_body(answer.status ? answer.raw : answer.error));
  std::string to = answer.body.value("redirect", "");
  std::string status = answer.body.value("status", "");
  if (to.empty()) return send_page(res, 200, "Payment " + status, no_return_page_body(status));
  res.status = 303;
  res.set_header("Location", to);
}

void get_checkout(Org& org, Call& c) {
  auto s = open_session(org, c);
  if (!s) return;
  const std::string& merchant = org.config().org.name;
  send_page(c.res, 200, "Pay " + merchant, checkout_body(merchant, *s));
}

void post_checkout(Org& org, bool tls, Call& c) {
  auto s = open_session(org, c);
  if (!s) return;
  std::string action = form_value(c.req, "action");
  const std::string& merchant = org.config().org.name;
  if (action != "pay" && action != "decline" && action != "cancel")
    return send_page(c.res, 400, "Pay " + merchant,
                     refused_input_body(merchant, *s, "Choose Pay, Decline or Cancel."));
  PayerAction a;
  a.outcome = action == "decline" ? "failure" : action == "cancel" ? "cancel" : "success";
  a.card_number = form_value(c.req, "card_number");
  a.iban = form_value(c.req, "iban");
  a.holder = form_value(c.req, "holder");
  a.email = form_value(c.req, "email");
  // As a PSP's form: invalid input is shown, nothing is sent to the org.
  if (auto bad = refused_input(org, *s, a))
    return send_page(c.res, 422, "Pay " + merchant, refused_input_body(merchant, *s, bad->message));
  // A challenge card: the issuer's page comes first; nothing is
  // reported to the org until the payer answers it.
  if (needs_challenge(*s, a)) {
    return send_page(c.res, 200, "Confirm your payment",
                     challenge_body(merchant, *s, a.card_number, a.holder));
  }
  finish_payer_action(org, c.req, c.res, tls, *s, a);
}

// The payer's answer on the challenge page (pass | fail).
void post_challenge(Org& org, bool tls, Call& c) {
  auto s = open_session(org, c);
  if (!s) return;
  PayerAction a;
  a.outcome = "success";
  a.card_number = form_value(c.req, "card_number");
  a.holder = form_value(c.req, "holder");
  a.challenge = form_value(c.req, "challenge");
  if (!is_challenge_answer(a.challenge)) {
    const std::string& merchant = org.config().org.name;
    return send_page(c.res, 400, "Confirm your payment",
                     "<p class=\"notice\">Choose Complete or Fail "
                     "authentication.</p>" +
                         challenge_body(merchant, *s, a.card_number, a.holder));
  }
  // The hidden card number came back from the browser: checked again.
  if (auto bad = refused_input(org, *s, a)) {
    const std::string& merchant = org.config().org.name;
    return send_page(c.res, 422, "Pay " + merchant, refused_input_body(merchant, *s, bad->message));
  }
  finish_payer_action(org, c.req, c.res, tls, *s, a);
}

// The driver's body as a payer's action, or the error that says what is
// wrong with it.
std::optional<ApiError> driver_action(const nlohmann::json& b, PayerAction& action) {
  if (auto e = driver_type_error(b)) return e;
  std::string outcome = b.value("outcome", "");
  if (!is_psp_outcome(outcome))
    return make_error(error_code::kMissingCoreParameter, "outcome",
                      "Send {\"outcome\": \"success\"|\"failure\"|\"cancel\"}, "
                      "optionally with card_number, exp_month, exp_year, iban, "
                      "holder, email (wallet methods), challenge");
  action = action_from_json(b, outcome);
  if (b.contains("challenge") && !is_challenge_answer(action.challenge))
    return make_error(error_code::kInvalidData, "challenge",
                      "'challenge' is \"pass\" or \"fail\": the payer's answer "
                      "to the 3-D Secure step of a challenge card");
  return std::nullopt;
}

// What the payer could not do on the page either: refused input, or a
// challenge card without the answer to its challenge (a completed session is
// left to the callback, which answers 409).
std::optional<ApiError> driver_refusal(Org& org, const PspSession& s, const PayerAction& action) {
  if (auto bad = refused_input(org, s, action))
    return make_error(error_code::kMissingCoreParameter, bad->field,
                      "'" + bad->field + "': " + bad->message);
  if (s.status != "completed" && needs_challenge(s, action))
    return make_error(error_code::kMissingCoreParameter, "challenge",
                      "Card " + action.card_number +
                          " asks for a 3-D Secure challenge: add \"challenge\": \"pass\" (pays) "
                          "or \"fail\" (declines)");
  return std::nullopt;
}

void complete_session(Org& org, Call& c) {
  auto body = parse_json_body(c.req);
  if (!body.ok()) return send_errors(c.res, org.config(), body.errors());
  PayerAction action;
  if (auto e = driver_action(*body, action)) return send_errors(c.res, org.config(), {*e});
  const std::string& id = c.params["session"];
  auto s = org.psp_sessions().get(id);
  if (!s)
    return send_errors(
        c.res, org.config(),
        {make_error(error_code::kInvalidData, "session",
                    no_open_session(id, org.psp_sessions().expiry()), ErrorKind::kNotFound)});
  if (auto e = driver_refusal(org, *s, action)) return send_errors(c.res, org.config(), {*e});
  auto answer =
      call_org(org, c.req, std::nullopt, psp_callback_body(*s, action, current_year(org)));
  if (answer.status == 0)
    return send_errors(
        c.res, org.config(),
        {make_error(error_code::kUncategorised, "",
                    "The simulated PSP could not call the org back: " + answer.error)});
  if (answer.status != 200) {
    c.res.status = answer.status;
    c.res.set_content(answer.raw, kJson);
    return;
  }
  send_json(c.res, 200,
            {{"session", answer.body.value("session", id)},
             {"status", answer.body.value("status", "")},
             {"payment_intent", answer.body.value("payment_intent", "")},
             {"redirect", answer.body.value("redirect", "")}});
}

}  // namespace

// The pages and the callback (area psp of contracts/routes.yaml); `tls`:
// how the PSP calls the org back.
FAKE_ORG_HANDLERS(psp_pages) {
  Org& org = context.org;
  const bool tls = context.tls;
  handlers.on("getPspCheckout", [&org](Call& c) { get_checkout(org, c); });
  handlers.on("postPspCheckout", [&org, tls](Call& c) { post_checkout(org, tls, c); });
  handlers.on("postPspChallenge", [&org, tls](Call& c) { post_challenge(org, tls, c); });
  handlers.on("postPspCallback", [&org](Call& c) { handle_callback(org, c.req, c.res); });
}

// The headless driver (area admin).
FAKE_ORG_HANDLERS(psp_admin) {
  handlers.on("postAdminPspComplete", [&org = context.org](Call& c) { complete_session(org, c); });
}

}  // namespace fake_org::http
