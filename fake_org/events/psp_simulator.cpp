#include "events/psp_simulator.h"

#include <httplib.h>

#include <cctype>
#include <random>

#include "events/psp_signature.h"
#include "util/crypto.h"
#include "util/json_text.h"
#include "util/luhn.h"

namespace fake_org {

namespace {

std::string digits_only(const std::string& s) {
  std::string out;
  for (char c : s)
    if (std::isdigit(static_cast<unsigned char>(c))) out += c;
  return out;
}

std::string compact_upper(const std::string& s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string brand_of(const std::string& number) {
  if (number.empty()) return "Visa";
  switch (number[0]) {
    case '4':
      return "Visa";
    case '5':
    case '2':
      return "Mastercard";
    case '3':
      return "American Express";
    case '6':
      return "Discover";
    default:
      return "Unknown";
  }
}

std::string reference() {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  static const char* alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::string s = "psp_";
  for (int i = 0; i < 20; ++i) s += alphabet[rng() % 36];
  return s;
}

// A wallet's id of its payer: stable per login, as PayPal's payer id is
// (13 characters of A-Z0-9), so a repeat payment updates the same profile.
std::string wallet_account_id(const std::string& email) {
  std::string login;
  for (char c : email) login += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string digest = crypto::sha256(login);
  static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::string id;
  for (size_t i = 0; i < 13; ++i) id += alphabet[static_cast<unsigned char>(digest[i]) % 36];
  return id;
}

}  // namespace

bool is_psp_outcome(const std::string& outcome) {
  return outcome == "success" || outcome == "failure" || outcome == "cancel";
}

bool is_challenge_answer(const std::string& challenge) {
  return challenge == "pass" || challenge == "fail";
}

namespace {

// local@domain.tld: one '@', no spaces, a dot in the domain (not at its ends).
bool looks_like_email(const std::string& s) {
  const size_t at = s.find('@');
  if (at == std::string::npos || at == 0 || s.find('@', at + 1) != std::string::npos) return false;
  for (char c : s)
    if (std::isspace(static_cast<unsigned char>(c)) || std::iscntrl(static_cast<unsigned char>(c)))
      return false;
  const std::string domain = s.substr(at + 1);
  const size_t dot = domain.rfind('.');
  return dot != std::string::npos && dot > 0 && dot + 1 < domain.size() && domain[0] != '.';
}

}  // namespace

std::optional<PayerInputError> check_payer_input(const PspSession& session,
                                                 const PayerAction& action, int year, int month) {
  if (action.outcome == "cancel") return std::nullopt;
  if (session.kind == MethodKind::kWallet && !action.email.empty() &&
      !looks_like_email(action.email))
    return PayerInputError{"email", "Enter the email address of your wallet login, such as " +
                                        std::string(psp_magic::kWalletEmail) + "."};
  if (session.kind != MethodKind::kCard) return std::nullopt;
  if (!action.card_number.empty()) {
    std::string digits;
    bool only_digits = true;
    for (char c : action.card_number) {
      if (std::isdigit(static_cast<unsigned char>(c)))
        digits += c;
      else if (c != ' ')
        only_digits = false;
    }
    if (!only_digits || digits.size() < 12 || digits.size() > 19 || !luhn_valid(digits))
      return PayerInputError{"card_number",
                             "Your card number is invalid: enter the 12 to 19 digits on the "
                             "card, such as 4242 4242 4242 4242."};
  }
  if (action.expiry_month && (*action.expiry_month < 1 || *action.expiry_month > 12))
    return PayerInputError{"exp_month", "The expiry month is 1 to 12."};
  if (action.expiry_year && *action.expiry_year > year + 50)
    return PayerInputError{"exp_year", "The expiry year is more than 50 years ahead."};
  const int y = action.expiry_year.value_or(year + 3), m = action.expiry_month.value_or(12);
  if (y < year || (y == year && m < month))
    return PayerInputError{action.expiry_year ? "exp_year" : "exp_month",
                           "Your card has expired: the expiry (" + std::to_string(m) + "/" +
                               std::to_string(y) + ") is before this month."};
  return std::nullopt;
}

bool needs_challenge(const PspSession& session, const PayerAction& action) {
  return action.outcome == "success" && action.challenge.empty() &&
         session.kind == MethodKind::kCard &&
         digits_only(action.card_number) == psp_magic::kCardChallenge;
}

nlohmann::json psp_callback_body(const PspSession& session, const PayerAction& action, int year) {
  nlohmann::json j = {{"session", session.id},
                      {"payment_intent", session.payment_intent_id},
                      {"outcome", action.outcome},
                      {"psp_reference", reference()}};
  if (action.outcome == "cancel") return j;
  // What the PSP returns depends on the method's kind in the fixture, never
  // on its name.
  if (session.kind == MethodKind::kWallet) {
    std::string email = action.email.empty() ? psp_magic::kWalletEmail : action.email;
    j["wallet"] = {{"email", email}, {"payer_id", wallet_account_id(email)}};
    return j;
  }
  if (session.kind == MethodKind::kBank) {
    std::string iban = compact_upper(action.iban);
    if (iban.empty()) iban = psp_magic::kIbanSuccess;
    if (iban == psp_magic::kIbanDecline && action.outcome == "success") {
      j["outcome"] = "failure";
      j["decline_reason"] = "account_declined";
    }
    j["bank"] = {{"iban", iban}, {"holder", action.holder}};
    return j;
  }
  std::string number = digits_only(action.card_number);
  if (number.empty()) number = psp_magic::kCardSuccess;
  if (number == psp_magic::kCardDecline && action.outcome == "success") {
    j["outcome"] = "failure";
    j["decline_reason"] = "card_declined";
  }
  if (number == psp_magic::kCardChallenge && action.outcome == "success" &&
      action.challenge == "fail") {
    j["outcome"] = "failure";
    j["decline_reason"] = "authentication_failed";
  }
  j["card"] = {{"brand", brand_of(number)},
               {"last4", number.size() >= 4 ? number.substr(number.size() - 4) : number},
               {"exp_month", action.expiry_month.value_or(12)},
               {"exp_year", action.expiry_year.value_or(year + 3)}};
  if (!action.holder.empty()) j["card"]["holder"] = action.holder;
  return j;
}

CallbackAnswer post_psp_callback(const std::string& host, int port, bool tls,
                                 const nlohmann::json& body, const std::string& secret,
                                 const std::string& org_prefix) {
  std::unique_ptr<httplib::ClientImpl> client;
  if (tls) {
    auto ssl = std::make_unique<httplib::SSLClient>(host, port);
    ssl->enable_server_certificate_verification(false);
    client = std::move(ssl);
  } else {
    client = std::make_unique<httplib::ClientImpl>(host, port);
  }
  client->set_connection_timeout(5);
  client->set_read_timeout(10);
  CallbackAnswer out;
  const std::string payload = text::json_text(body);  // the exact bytes signed and sent
  httplib::Headers headers{{kPspSignatureHeader, psp_signature(secret, unix_now(), payload)}};
  auto r = client->Post(org_prefix + "/psp/callback", headers, payload, "application/json");
  if (!r) {
    out.error = httplib::to_string(r.error());
    return out;
  }
  out.status = r->status;
  out.raw = r->body;
  out.body = nlohmann::json::parse(r->body, nullptr, false);
  return out;
}

}  // namespace fake_org
