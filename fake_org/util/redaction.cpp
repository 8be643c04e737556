#include "util/redaction.h"

#include "util/ascii.h"
#include "util/json_depth.h"
#include "util/json_text.h"
#include "util/luhn.h"
#include "util/thread_cache.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

namespace fake_org {
namespace {

constexpr const char* kRedacted = "[redacted]";

// A name lower case, without '_' or '-' and a custom field's "__c":
// "Card_Number__c" -> "cardnumber", "clientSecret" -> "clientsecret".
std::string normalised(std::string_view name) {
  if (name.size() > 3 && ascii_lower(std::string(name.substr(name.size() - 3))) == "__c")
    name.remove_suffix(3);
  std::string key;
  for (char c : name)
    if (c != '_' && c != '-') key += ascii_lower(c);
  return key;
}

// A name is secret when its normalised form contains one of these parts
// ("id_token", "api_key", "AccountNumber", "client_assertion", PKCE's
// "code_verifier"), or is exactly "code" (OAuth's authorization code:
// "PostalCode" and "error_code" stay).
bool is_secret(std::string_view name) {
  static constexpr std::array<std::string_view, 12> kParts = {
      "token", "secret", "password",  "cardnumber", "accountnumber", "iban",
      "cvc",   "cvv",    "signature", "apikey",     "assertion",     "codeverifier"};
  const std::string key = normalised(name);
  if (key == "code") return true;
  return std::any_of(kParts.begin(), kParts.end(),
                     [&key](std::string_view part) { return key.find(part) != std::string::npos; });
}

bool is_decimal_digit(char c) {
  return c >= '0' && c <= '9';
}

// Each run of 13-19 digits passing the Luhn check becomes "[redacted]", so a
// card number in a field of any name ("Note": "paid with 4111...") is not
// shown. One pass over the string; strings with fewer digits are left alone.
void mask_card_numbers(std::string& s) {
  if (std::count_if(s.begin(), s.end(), is_decimal_digit) < 13) return;
  std::string out;
  bool changed = false;
  for (size_t i = 0; i < s.size();) {
    if (!is_decimal_digit(s[i])) {
      out += s[i++];
      continue;
    }
    size_t j = i;
    while (j < s.size() && is_decimal_digit(s[j])) ++j;
    std::string_view run(s.data() + i, j - i);
    if (run.size() >= 13 && run.size() <= 19 && luhn_valid(run)) {
      out += kRedacted;
      changed = true;
    } else {
      out.append(run);
    }
    i = j;
  }
  if (changed) s = std::move(out);
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
  } else if (j.is_string()) {
    mask_card_numbers(j.get_ref<std::string&>());
  }
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A form field's name as the server reads it ("client%5Fsecret",
// "api+key"), so an encoded secret name is still found.
std::string decode_form_name(std::string_view name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '+') {
      out += ' ';
    } else if (name[i] == '%' && i + 2 < name.size() && hex_value(name[i + 1]) >= 0 &&
               hex_value(name[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(name[i + 1]) * 16 + hex_value(name[i + 2]));
      i += 2;
    } else {
      out += name[i];
    }
  }
  return out;
}

std::string redact_form(std::string_view body) {
  std::string out;
  while (!body.empty()) {
    size_t amp = body.find('&');
    std::string_view pair = body.substr(0, amp);
    body = amp == std::string_view::npos ? std::string_view() : body.substr(amp + 1);
    size_t eq = pair.find('=');
    std::string name = decode_form_name(pair.substr(0, eq));
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

// Whether a header's value is redacted, remembered per thread for the few
// names clients send (the journal asks for every header of every request).
bool secret_header_name(std::string_view name) {
  thread_local std::unordered_map<std::string, bool> known;
  thread_local std::string probe;
  // Made among a busy run's records, they would pin pages a reset frees.
  thread_local const bool hooked = (util::on_thread_give_back([] {
                                      std::unordered_map<std::string, bool>().swap(known);
                                      std::string().swap(probe);
                                    }),
                                    true);
  (void)hooked;
  probe.assign(name);
  if (auto it = known.find(probe); it != known.end()) return it->second;
  if (known.size() >= 256) known.clear();  // a client inventing names costs a lookup, no memory
  return known.emplace(probe, is_secret_header(header_key(name))).first->second;
}

}  // namespace

void redact_header(std::string_view name, const std::string& value, std::string& out) {
  if (!secret_header_name(name)) {
    out.assign(value);
    return;
  }
  const std::string key = header_key(name);
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
  // A body nested too deep for the recursive redaction and dump is not shown
  // as JSON (the API refused it unparsed, json_depth.h); a form still is.
  const bool too_deep = http::json_nesting_exceeds(body);
  nlohmann::json j = too_deep ? nlohmann::json(nlohmann::json::value_t::discarded)
                              : nlohmann::json::parse(body, nullptr, false);
  if (!j.is_discarded()) {
    redact_json(j);
    return text::json_text(j);
  }
  const std::string type = ascii_lower(content_type);
  if (type.rfind("application/x-www-form-urlencoded", 0) == 0) return redact_form(body);
  return "(" + std::to_string(body.size()) + " bytes" +
         (content_type.empty() ? std::string() : " of " + std::string(content_type)) +
         (too_deep ? "; nested more than " + std::to_string(http::kMaxJsonDepth) + " levels deep"
                   : "") +
         ")";
}

}  // namespace fake_org
