#include "http/psp_routes.h"

#include "domain/collections.h"
#include "events/psp_simulator.h"
#include "http/responses.h"

namespace fake_org::http {

namespace {

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      case '\'':
        o += "&#39;";
        break;
      default:
        o += c;
    }
  }
  return o;
}

const char* kCss =
    "body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;padding:2rem}"
    ".card{max-width:26rem;margin:auto;background:#fff;border-radius:8px;padding:1.5rem;"
    "box-shadow:0 2px 8px rgba(0,0,0,.1)}h1{font-size:1.2rem;margin-top:0}"
    "dl{display:grid;grid-template-columns:auto 1fr;gap:.3rem 1rem}dt{color:#666}"
    "dd{margin:0}.amount{font-size:1.6rem;font-weight:bold}input{width:100%;padding:.4rem;"
    "box-sizing:border-box;margin:.3rem 0 1rem}button{padding:.5rem 1rem;margin-right:.4rem;"
    "border:0;border-radius:4px;cursor:pointer}#pay{background:#2b7a3d;color:#fff}"
    "#decline{background:#b33;color:#fff}#cancel{background:#ddd}.hint{color:#888;"
    "font-size:.8rem}";

std::string page(const std::string& title, const std::string& body) {
  return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + esc(title) +
         "</title><style>" + kCss + "</style></head><body><div class=\"card\">" + body +
         "</div></body></html>";
}

void send_page(httplib::Response& res, int status, const std::string& title,
               const std::string& body) {
  res.status = status;
  res.set_content(page(title, body), "text/html;charset=UTF-8");
}

std::string amount_text(const PspSession& s) {
  const auto& a = s.amount;
  if (a.is_number_float()) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", a.get<double>());
    return buf;
  }
  if (a.is_number()) return a.dump() + ".00";
  return a.is_null() ? "" : a.dump();
}

bool is_card(const PspSession& s) {
  return s.method.find("Card") != std::string::npos;
}

std::string checkout_page(const Org& org, const PspSession& s) {
  std::string b = "<h1>Pay " + esc(org.config().org.name) + "</h1>";
  b += "<p class=\"amount\" id=\"amount\">" + esc(amount_text(s)) + " " + esc(s.currency) +
       "</p><dl><dt>Merchant</dt><dd id=\"merchant\">" + esc(org.config().org.name) +
       "</dd><dt>Method</dt><dd id=\"method\">" + esc(s.method) +
       "</dd><dt>Processor</dt><dd id=\"processor\">" + esc(s.processor) +
       "</dd><dt>Payment</dt><dd id=\"payment-intent\">" + esc(s.payment_intent_id) + "</dd>";
  if (s.attempts > 0)
    b += "<dt>Last attempt</dt><dd id=\"last-outcome\">" + esc(s.last_outcome) + "</dd>";
  b += "</dl><form method=\"post\" action=\"/psp/checkout/" + esc(s.id) + "\">";
  if (is_card(s))
    b += "<label for=\"card_number\">Card number</label><input id=\"card_number\" "
         "name=\"card_number\" value=\"4242 4242 4242 4242\" autocomplete=\"off\">"
         "<p class=\"hint\">Test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is "
         "declined.</p>";
  else if (s.method.find("Debit") != std::string::npos)
    b += "<label for=\"iban\">IBAN</label><input id=\"iban\" name=\"iban\" "
         "value=\"DE89370400440532013000\"><label for=\"holder\">Account holder</label>"
         "<input id=\"holder\" name=\"holder\" value=\"\">";
  b += "<button id=\"pay\" name=\"action\" value=\"pay\" type=\"submit\">Pay</button>"
       "<button id=\"decline\" name=\"action\" value=\"decline\" type=\"submit\">Decline</button>"
       "<button id=\"cancel\" name=\"action\" value=\"cancel\" type=\"submit\">Cancel</button>"
       "</form>";
  return b;
}

void send_unknown_page(httplib::Response& res, const std::string& id) {
  send_page(res, 404, "Payment session not found",
            "<h1>Payment session not found</h1><p>No payment session <code>" + esc(id) +
                "</code>. It may have expired, or the org was reset.</p>");
}

void send_completed_page(httplib::Response& res, const PspSession& s) {
  send_page(
      res, 200, "Payment already completed",
      "<h1>Payment already completed</h1><p id=\"completed\">The payment " +
          esc(s.payment_intent_id) + " was already completed. Nothing was charged again.</p>" +
          (s.success_url.empty()
               ? std::string()
               : "<p><a href=\"" + esc(append_payment_intent(s.success_url, s.payment_intent_id)) +
                     "\">Back to the merchant</a></p>"));
}

int current_year(Org& org) {
  return date_of(org.clock().now()).year;
}

PayerAction action_from_json(const nlohmann::json& b, std::string outcome) {
  PayerAction a;
  a.outcome = std::move(outcome);
  auto str = [&](const char* k) {
    return b.contains(k) && b[k].is_string() ? b[k].get<std::string>() : std::string();
  };
  auto num = [&](const char* k) {
    return b.contains(k) && b[k].is_number_integer() ? b[k].get<int>() : 0;
  };
  a.card_number = str("card_number");
  a.expiry_month = num("exp_month");
  a.expiry_year = num("exp_year");
  a.iban = str("iban");
  a.holder = str("holder");
  return a;
}

// Applies the PSP's callback to the org's records.
void handle_callback(Org& org, const httplib::Request& req, httplib::Response& res) {
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
CallbackAnswer call_org(const httplib::Request& req, std::optional<bool> tls,
                        const nlohmann::json& body) {
  std::string host = req.local_addr.empty() ? "127.0.0.1" : req.local_addr;
  if (host == "0.0.0.0" || host == "::") host = "127.0.0.1";
  if (tls) return post_psp_callback(host, req.local_port, *tls, body);
  auto a = post_psp_callback(host, req.local_port, false, body);
  if (a.status == 0) a = post_psp_callback(host, req.local_port, true, body);
  return a;
}

}  // namespace

void register_psp_pages(httplib::Server& server, Org& org, bool tls) {
  server.Get(R"(/psp/checkout/([A-Za-z0-9_]+))",
             [&org](const httplib::Request& req, httplib::Response& res) {
               std::string id = req.matches[1];
               auto s = org.psp_sessions().get(id);
               if (!s) return send_unknown_page(res, id);
               if (s->status == "completed") return send_completed_page(res, *s);
               send_page(res, 200, "Pay " + org.config().org.name, checkout_page(org, *s));
             });

  server.Post(R"(/psp/checkout/([A-Za-z0-9_]+))",
              [&org, tls](const httplib::Request& req, httplib::Response& res) {
                std::string id = req.matches[1];
                auto s = org.psp_sessions().get(id);
                if (!s) return send_unknown_page(res, id);
                if (s->status == "completed") return send_completed_page(res, *s);
                std::string action = form_value(req, "action");
                std::string outcome = action == "decline"  ? "failure"
                                      : action == "cancel" ? "cancel"
                                                           : "success";
                PayerAction a;
                a.outcome = outcome;
                a.card_number = form_value(req, "card_number");
                a.iban = form_value(req, "iban");
                a.holder = form_value(req, "holder");
                auto answer = call_org(req, tls, psp_callback_body(*s, a, current_year(org)));
                if (answer.status == 404) return send_unknown_page(res, id);
                if (answer.status == 409) {
                  auto now = org.psp_sessions().get(id);
                  return send_completed_page(res, now ? *now : *s);
                }
                if (answer.status != 200 || !answer.body.is_object())
                  return send_page(res, 502, "Payment provider error",
                                   "<h1>Payment provider error</h1><p>The org did not accept "
                                   "the PSP's callback: " +
                                       esc(answer.status ? answer.raw : answer.error) + "</p>");
                std::string to = answer.body.value("redirect", "");
                if (to.empty())
                  return send_page(res, 200, "Payment " + answer.body.value("status", ""),
                                   "<h1>Payment " + esc(answer.body.value("status", "")) +
                                       "</h1><p>The merchant gave no page to return to.</p>");
                res.status = 303;
                res.set_header("Location", to);
              });

  server.Post("/psp/callback", [&org](const httplib::Request& req, httplib::Response& res) {
    handle_callback(org, req, res);
  });
}

void add_psp_admin_routes(Router& router, Org& org) {
  router.add("POST", "/psp/{session}/complete", [&org](Call& c) {
    auto body = parse_json_body(c.req);
    if (!body.ok()) return send_errors(c.res, org.config(), body.errors());
    const auto& b = *body;
    std::string outcome = b.is_object() ? b.value("outcome", "") : "";
    if (!is_psp_outcome(outcome))
      return send_errors(c.res, org.config(),
                         {make_error(error_code::kMissingCoreParameter, "outcome",
                                     "Send {\"outcome\": \"success\"|\"failure\"|\"cancel\"}, "
                                     "optionally with card_number, exp_month, exp_year, iban, "
                                     "holder")});
    const std::string& id = c.params["session"];
    auto s = org.psp_sessions().get(id);
    if (!s)
      return send_errors(c.res, org.config(),
                         {make_error(error_code::kInvalidData, "session",
                                     "No hosted payment session '" + id +
                                         "': use the last path segment of a RedirectURL",
                                     ErrorKind::kNotFound)});
    auto answer = call_org(c.req, std::nullopt,
                           psp_callback_body(*s, action_from_json(b, outcome), current_year(org)));
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
  });
}

}  // namespace fake_org::http
