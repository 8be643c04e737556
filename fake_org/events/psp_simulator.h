#pragma once
// The simulated PSP: turns what the payer did on the hosted page (or what the
// headless driver asks for) into the PSP's callback to the org, and sends that
// callback over real HTTP to the fake's own POST /psp/callback, as a real PSP
// would. No domain calls here: the org learns of the payment only through
// the callback.
//
// Magic card numbers (as test cards of real PSPs; any brand by first digit):
//   4242 4242 4242 4242  success (also the default when no number is given)
//   4000 0000 0000 0002  declined (the payer may retry)
//   4000 0000 0000 3220  3-D Secure challenge first: Pay shows the issuer's
//                        challenge page; passing it pays, failing it declines
//                        (headless: "challenge": "pass" | "fail")
//   any other number     success with that number's brand and last four
//   4000 0000 0000 0341  pays here; later charges through the mandate are
//                        declined at collection (domain: collection_magic)
// The fixture's method kind decides what the page asks and the callback
// carries: card (number; brand, last four, expiry), bank (IBAN, holder) or
// wallet (the payer's login email; the wallet's payer id, no card data).
// Magic IBANs (hosted bank methods):
//   DE89370400440532013000 (or any other)  success
//   DE62370400440532013001                 declined
//   DE35370400440532013002                 accepted, returned by the bank when
//                                          collected (inline direct debit too)
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "domain/org/psp_sessions.h"

namespace fake_org {

namespace psp_magic {
inline constexpr const char* kCardSuccess = "4242424242424242";
inline constexpr const char* kCardDecline = "4000000000000002";
inline constexpr const char* kCardChallenge = "4000000000003220";
inline constexpr const char* kIbanSuccess = "DE89370400440532013000";
inline constexpr const char* kIbanDecline = "DE62370400440532013001";
// The wallet login the page suggests (any address pays).
inline constexpr const char* kWalletEmail = "wallet.payer@example.com";
// The domain rejects these at collection (collections.h, collection_magic).
inline constexpr const char* kCardFailsAtCollection = "4000000000000341";
inline constexpr const char* kIbanFailsAtCollection = "DE35370400440532013002";
}  // namespace psp_magic

struct PayerAction {
  std::string outcome;      // success | failure | cancel (what the payer pressed)
  std::string card_number;  // optional, spaces allowed
  std::optional<int> expiry_month, expiry_year;  // the driver's; absent: December, year + 3
  std::string iban, holder;
  std::string email;      // wallet methods: the payer's login
  std::string challenge;  // "" (not asked yet) | pass | fail: the payer's answer to a challenge
};

bool is_challenge_answer(const std::string& challenge);

// What the payer entered that a PSP would refuse before charging anything:
// a card number that is not 12 to 19 digits (spaces allowed) passing Luhn,
// an expiry month outside 1-12, an expiry year/month before `today`'s or more
// than 50 years ahead, a wallet login that is not an email address. `field`
// is the driver's name of it (card_number, exp_month, exp_year, email).
// Empty fields are not checked (the PSP's defaults apply); Cancel checks
// nothing (the payer left).
struct PayerInputError {
  std::string field, message;
};
std::optional<PayerInputError> check_payer_input(const PspSession& session,
                                                 const PayerAction& action, int year, int month);

// True when Pay with this card must first go through the challenge step and
// the payer has not answered it yet. Decline and Cancel never ask.
bool needs_challenge(const PspSession& session, const PayerAction& action);

bool is_psp_outcome(const std::string& outcome);

// The callback body: {"session", "outcome", "psp_reference", "card": {...} | "bank": {...} |
// "wallet": {"email", "payer_id"}}, by the session's method kind.
// A magic decline number, or a failed challenge, turns "success" into "failure"
// (decline_reason card_declined / authentication_failed). `year` is the org's
// current year (default expiry: December, year + 3).
nlohmann::json psp_callback_body(const PspSession& session, const PayerAction& action, int year);

struct CallbackAnswer {
  int status = 0;       // 0: transport error
  nlohmann::json body;  // the org's JSON answer
  std::string error;    // transport error text
  std::string raw;      // the raw body
};

// POST {scheme}://{host}:{port}/psp/callback, signed with `secret` (the
// org's PSP key, events/psp_signature.h) as a real PSP signs its callbacks.
// With tls the certificate is not verified (the fake's own, often
// self-signed, certificate).
// `org_prefix`: the org's path on a server of several ("/orgs/{name}"; "" at the root).
CallbackAnswer post_psp_callback(const std::string& host, int port, bool tls,
                                 const nlohmann::json& body, const std::string& secret,
                                 const std::string& org_prefix = "");

}  // namespace fake_org
