#pragma once
// URI references (RFC 3986) and JSON Pointers (RFC 6901), as far as resolving
// "$ref" and "$id" needs them. valijson's own resolution only concatenates
// strings, which breaks "../common/x.json" and "$id"-based scopes.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace contracts::uri {

// Resolves `ref` against the absolute `base` (RFC 3986 section 5.2).
std::string resolve(std::string_view base, std::string_view ref);

// Splits at the first '#': {document part, fragment without '#'}. The
// fragment is empty both for "x.json" and "x.json#".
std::pair<std::string, std::string> split_fragment(std::string_view uri);

// Decodes %XX sequences; malformed ones are kept as written.
std::string percent_decode(std::string_view s);

// RFC 6901 tokens of a pointer ("" is the whole document, "/a~1b" is {"a/b"}).
std::vector<std::string> pointer_tokens(std::string_view pointer);

// Appends one token, escaping '~' and '/'.
std::string pointer_append(std::string_view pointer, std::string_view token);

// The pointer with every token also %-encoded where valijson would %-decode
// it, so valijson reads back exactly `pointer`.
std::string pointer_for_valijson(std::string_view pointer);

}  // namespace contracts::uri
