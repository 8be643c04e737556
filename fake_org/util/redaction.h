#pragma once
// Bodies and headers shown with secrets replaced by "[redacted]": OAuth
// tokens, codes and client secrets, webhook and token signatures, card
// numbers and security codes. One rule for every place that prints traffic
// (fake-org's `--log-level debug` and journal, the runner's `--verbose`), so
// what one hides the other does not show. Stateless; safe from any thread.
#include <string>
#include <string_view>

namespace fake_org {

// JSON (any depth, tried first whatever the content type) and form bodies are
// shown with the values of secret names redacted: names that, lower case
// without '_', '-' and a trailing "__c", contain token, secret, password,
// cardnumber, accountnumber, iban, cvc, cvv, signature, apikey or assertion,
// or are exactly "code". Luhn-valid runs of 13-19 digits in any JSON string
// are masked too. Other bodies only by size and type: they may hold anything.
std::string redact_body(std::string_view content_type, const std::string& body);

// A request header's value as the journal shows it, assigned to `out` (whose
// room is reused). Authorization and Proxy-Authorization keep their scheme
// ("Bearer [redacted]"), a credential without one is only "[redacted]"; any
// other header whose name, lower case without '-' and '_', contains token,
// secret, key, password, auth, session or cookie (Cookie, X-Api-Key,
// X-Session-Id) is "[redacted]"; the rest are kept as sent.
void redact_header(std::string_view name, const std::string& value, std::string& out);

}  // namespace fake_org
