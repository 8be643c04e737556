#pragma once
// How deeply a JSON text nests, found without parsing it. nlohmann's parser
// is iterative, but copying, comparing, dumping and walking a json value are
// recursive: a body nested 100,000 levels deep parsed fine and then blew the
// worker's stack (SIGSEGV) when the request was copied. Every place that
// parses a body the fake did not write (the API, /__admin, the PSP callback,
// the journal's and the debug log's redaction) refuses such a body first.
#include <cstddef>
#include <string_view>

namespace fake_org::http {

// Far beyond any real request (a PaymentIntent body nests about 5 levels),
// far below what a 8 MiB worker stack survives (some 50,000 levels).
inline constexpr size_t kMaxJsonDepth = 512;

// True when `text` opens more than `limit` arrays and objects at once. One
// linear pass counting [ and { against ] and } outside strings (with their
// escapes); it stops at the first level over the limit. Text that is not
// JSON is scanned the same way: the parser says what else is wrong with it.
inline bool json_nesting_exceeds(std::string_view text, size_t limit = kMaxJsonDepth) {
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;  // the escaped character cannot end the string
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

}  // namespace fake_org::http
