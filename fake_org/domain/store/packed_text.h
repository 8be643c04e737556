#pragma once
// Long texts a record holds (the raw request of every inbound report, a
// hosted page's URL) packed with a fixed dictionary of the API's JSON: the
// request parameters' and common CRM fields' names with their quotes and
// colons, JSON punctuation, URL parts. A raw request takes about 40 % of its
// bytes (decision 128). The dictionary lives in memory only: what a data
// directory keeps is the text.
//
// A word is written as a byte no JSON or UTF-8 text has: a control
// character other than tab, newline and carriage return (29 one-byte codes
// for the commonest words), or 0xC0, 0xC1 or 0xF5-0xFC followed by a second
// byte. 0xFD-0xFF start values written as numbers: a payment intent's or
// session's random part, an instant, one of the fake's record ids (decision
// 227). A text holding such a byte is not packed.
//
// Thread-safe: the dictionary is built once, by prepare() or on first use,
// and never changes.
#include <string>
#include <string_view>

namespace fake_org::packed_text {

// Builds the dictionary now. A server calls it at start, so the dictionary
// lies among start-up's blocks and not among a first request's, where it
// would pin pages a reset frees (decision 95).
void prepare();

// Packs `text` into `out`; false (with `out` unspecified) when the text
// holds a byte the codes use or packing would not make it shorter.
bool pack(std::string_view text, std::string& out);

// The text pack() was given for `packed`.
std::string unpack(std::string_view packed);
// The same, appended to `out`.
void unpack_into(std::string_view packed, std::string& out);

}  // namespace fake_org::packed_text
