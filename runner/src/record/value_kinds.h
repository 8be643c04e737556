#pragma once
// What a value in a request or response is, for generalisation and for
// parity: values the org generates (ids, GUIDs, timestamps, tokens) differ
// between two runs and two orgs, so they are captured, matched by shape, or
// ignored; enum-like values are what a client relies on and are compared.
#include <string>
#include <vector>

namespace runner::record {

enum class ValueKind {
  kPlain,
  kPaymentIntentId,  // pi_...
  kRecordId,         // 15 or 18 characters, letters and digits
  kGuid,             // 8-4-4-4-12 hex
  kTimestamp,        // ISO 8601 instant, or epoch milliseconds as text (issued_at)
  kDate,             // YYYY-MM-DD
  kUrlWithId,        // a URL holding a generated value
  kUrl,              // any other http(s) URL (differs between orgs)
  kToken,            // access or refresh token (by key name)
};

// `key` is the object key the value sits under ("" when none).
ValueKind classify(const std::string& key, const std::string& value);
bool is_generated(ValueKind k);
// A regular expression (anchored) matching every value of the kind.
std::string kind_regex(ValueKind k);

// Generated values inside a text (ids in a path, a URL, a message), in order.
std::vector<std::string> generated_values_in(const std::string& text);

// Keys whose values are credentials and never written: client_secret,
// refresh_token, access_token, password, code (OAuth), ...
bool is_secret_key(const std::string& key);
// Card numbers (Luhn-valid 13..19 digits) and bank account numbers (IBAN,
// AccountNumber, ...), by key name or shape.
bool is_card_number(const std::string& key, const std::string& value);
bool is_account_number(const std::string& key, const std::string& value);

// Short identifier-like text (Status, Name, error codes): what a client
// branches on, so kept literally and compared by parity. Free text (messages)
// is not.
bool is_enum_like(const std::string& key, const std::string& value);

}  // namespace runner::record
