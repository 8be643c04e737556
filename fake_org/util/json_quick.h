#pragma once
// The JSON a client usually sends (no escapes, no repeated keys), read
// straight into a nlohmann::json: a quarter of the instructions of a
// POST /PaymentIntent went to nlohmann's character-at-a-time lexer.
//
// It builds exactly the tree nlohmann::json::parse builds (unsigned
// integers as number_unsigned, decimals correctly rounded) and gives up,
// returning false, on anything else: an escape, a repeated key, a number
// no integer or finite double holds, malformed text. The caller then parses
// with nlohmann, which reports what is wrong (json_keys.h).
#include <string_view>

#include <nlohmann/json.hpp>

namespace fake_org::http {

// Deeper texts are left to nlohmann's parser, which keeps its own stack.
inline constexpr int kPlainJsonMaxDepth = 64;

// True with `out` the tree of `text`; false (out unspecified) when it leaves
// the text to nlohmann's parser.
bool read_plain_json(std::string_view text, nlohmann::json& out);

}  // namespace fake_org::http
