// Completing a hosted payment session the way a payer would, through the
// fake's headless admin call instead of a browser.
#include "steps/expectation.h"
#include "steps/http_exchange.h"

namespace runner {

void run_psp_step(const PspStep& step, StepContext& ctx, StepResult& out) {
  Interpolator in = ctx.interp();
  std::string session = in.text(step.session);
  if (session.empty()) {
    // The session is the RedirectURL's last path segment.
    std::string url = in.text(step.redirect);
    url = url.substr(0, url.find_first_of("?#"));
    while (!url.empty() && url.back() == '/') url.pop_back();
    session = url.substr(url.rfind('/') + 1);
    if (session.empty() || url.find('/') == std::string::npos) {
      out.failures.push_back(
          {"error",
           "psp: '" + in.text(step.redirect) + "' is not a RedirectURL with a session",
           {},
           ""});
      return;
    }
  }
  nlohmann::json body = {{"outcome", step.outcome}};
  if (!step.card_number.empty()) body["card_number"] = in.text(step.card_number);
  if (!step.iban.empty()) body["iban"] = in.text(step.iban);
  if (!step.email.empty()) body["email"] = in.text(step.email);
  if (!step.challenge.empty()) body["challenge"] = step.challenge;
  SentRequest sent =
      ctx.org.admin("POST", "/psp/" + percent_encode(session) + "/complete", std::move(body));
  out.exchange = to_exchange(sent);
  // What the PSP did, which the asked outcome does not decide: a decline
  // card asked to succeed fails. The made-up name says both.
  std::string actual;
  if (auto j = sent.response.json(); j && j->is_object() && (*j)["status"].is_string())
    actual = (*j)["status"].get<std::string>();
  out.detail = "session " + session + " " + step.outcome + (actual.empty() ? "" : " -> " + actual) +
               ": " + std::to_string(sent.response.status);
  if (!actual.empty() && out.name == "psp " + step.outcome) out.name += " -> " + actual;
  // An expect block says what the answer must be (a 400 included);
  // without one the driver must succeed.
  if (step.expect) {
    out.failures = check_expectation(*step.expect, in, sent.response);
    return;
  }
  if (sent.response.status < 200 || sent.response.status > 299)
    out.failures.push_back({"status",
                            "completing PSP session " + session + " answered " +
                                std::to_string(sent.response.status) + ": " +
                                sent.response.body.substr(0, 600),
                            {},
                            ""});
}

}  // namespace runner
