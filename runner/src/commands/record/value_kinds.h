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
  kOpaqueId,         // prefix_ or PREFIX- and a high-entropy token: cs_..., evt_..., tok_...,
                     // psp_..., CPM-ckx172ptc0dqcwky (Stripe-style ids, references)
  kAutoNumber,       // NAME-digits: CPM-000123, PI-0001 (autonumbered record names)
};

// `key` is the object key the value sits under ("" when none).
ValueKind classify(const std::string& key, const std::string& value);
bool is_generated(ValueKind k);
std::string to_string(ValueKind k);  // "pi", "opaque-id", ...
// A regular expression (anchored) matching every value of the kind.
std::string kind_regex(ValueKind k);
// As kind_regex, but keeping what every value of its family shares (the
// "cs_" of a hosted session id), so the matcher says more than the kind.
std::string value_regex(ValueKind k, const std::string& value);

// A token that no person typed: at least 8 characters, with letters and
// digits interleaved, or a long varied run that reads like no word (four
// consonants in a row within one camel-case word). Random base-36 ids pass;
// "Transfer1", "PaymentMethodNames" do not.
bool high_entropy(const std::string& token);

// Generated values inside a text (ids in a path, a URL, a message), in order.
std::vector<std::string> generated_values_in(const std::string& text);
// `text` with every generated value, and every high-entropy run of letters and
// digits, replaced by its shape ("<id>"), so two values that differ per run
// but share a shape ("Ref ckx172ptc0dqcwky", "Ref xlv1pcj73xkvctz0") compare
// equal.
std::string normalise_generated(const std::string& text);
// The shape of a value that differs per run: every run of 12 or more letters
// and digits, unless it is camel-case letters (a name), becomes its length
// ("psp_<20>"). Two runs' values with one shape differ only by what the org
// made up, which high_entropy() may miss for a token that happens to read
// like a word.
std::string shape_of(const std::string& text);

// Keys whose values are credentials and never written: client_secret,
// refresh_token, access_token, password, code (OAuth), ...
bool is_secret_key(const std::string& key);
// Card numbers (Luhn-valid 13..19 digits) and bank account numbers (IBAN,
// AccountNumber, ...), by key name or shape.
bool is_card_number(const std::string& key, const std::string& value);
bool is_account_number(const std::string& key, const std::string& value);
// Card numbers inside a text ("card 4111111111111111", "4111 1111 1111 1111"):
// Luhn-valid runs of 12 to 19 digits, or digit groups as cards are printed
// (4-4-4-4, 4-4-4-4-3, 4-6-5) with one space or dash between them; standing
// as a word of their own (not part of an id such as a GUID or psp_...). The
// substrings, separators included, in order.
std::vector<std::string> card_numbers_in(const std::string& text);

// Short identifier-like text (Status, Name, error codes): what a client
// branches on, so kept literally and compared by parity. Free text (messages)
// is not.
bool is_enum_like(const std::string& key, const std::string& value);

}  // namespace runner::record
