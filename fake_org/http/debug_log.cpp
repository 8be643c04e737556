#include "debug_log.h"

#include "domain/ascii.h"

#include <httplib.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <nlohmann/json.hpp>

namespace fake_org::http {
namespace {

constexpr const char* kRedacted = "[redacted]";

// Names compared lower case, without '_' or '-' ("client_secret", "clientSecret").
bool is_secret(std::string_view name) {
  static constexpr std::array<std::string_view, 12> kSecrets = {
      "accesstoken", "refreshtoken", "clientsecret", "code", "token",     "password",
      "signature",   "cardnumber",   "cvc",          "cvv",  "assertion", "secret"};
  std::string key;
  for (char c : ascii_lower(name))
    if (c != '_' && c != '-') key += c;
  return std::find(kSecrets.begin(), kSecrets.end(), key) != kSecrets.end();
}

void redact_json(nlohmann::json& j) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (is_secret(it.key()) && !it.value().is_null())
        it.value() = kRedacted;
      else
        redact_json(it.value());
    }
  } else if (j.is_array()) {
    for (auto& v : j) redact_json(v);
  }
}

std::string redact_form(std::string_view body) {
  std::string out;
  while (!body.empty()) {
    size_t amp = body.find('&');
    std::string_view pair = body.substr(0, amp);
    body = amp == std::string_view::npos ? std::string_view() : body.substr(amp + 1);
    size_t eq = pair.find('=');
    std::string name = httplib::detail::decode_url(std::string(pair.substr(0, eq)), true);
    if (!out.empty()) out += '&';
    out += is_secret(name) && eq != std::string_view::npos
               ? std::string(pair.substr(0, eq)) + "=" + kRedacted
               : std::string(pair);
  }
  return out;
}

// Header names lower case without '-' and '_': "xapikey", "proxyauthorization".
std::string header_key(std::string_view name) {
  std::string key;
  for (char c : name)
    if (c != '_' && c != '-') key += ascii_lower(c);
  return key;
}

// Header names are few and short: a substring test over a handful of parts.
bool is_secret_header(const std::string& key) {
  static constexpr std::array<std::string_view, 7> kParts = {
      "token", "secret", "key", "password", "auth", "session", "cookie"};
  return std::any_of(kParts.begin(), kParts.end(),
                     [&key](std::string_view part) { return key.find(part) != std::string::npos; });
}

}  // namespace

void redact_header(std::string_view name, const std::string& value, std::string& out) {
  const std::string key = header_key(name);
  if (!is_secret_header(key)) {
    out.assign(value);
    return;
  }
  size_t space = value.find(' ');
  if ((key == "authorization" || key == "proxyauthorization") && space != std::string::npos &&
      space > 0) {
    // The scheme stays visible ("Bearer"); the credential never is.
    out.assign(value, 0, space);
    out.append(" ");
    out.append(kRedacted);
  } else {
    out.assign(kRedacted);  // no scheme: the whole value may be the credential
  }
}

std::string redact_body(std::string_view content_type, const std::string& body) {
  if (body.empty()) return "(empty)";
  // JSON first whatever the type: `curl -d` labels JSON as a form, the API
  // accepts it, and a form redaction would miss every field in it.
  nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  if (!j.is_discarded()) {
    redact_json(j);
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  const std::string type = ascii_lower(content_type);
  if (type.rfind("application/x-www-form-urlencoded", 0) == 0) return redact_form(body);
  return "(" + std::to_string(body.size()) + " bytes" +
         (content_type.empty() ? std::string() : " of " + std::string(content_type)) + ")";
}

}  // namespace fake_org::http
