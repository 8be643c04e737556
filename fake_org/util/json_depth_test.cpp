// The nesting scan that guards every body the fake parses (json_depth.h).
#include "json_depth.h"

#include <catch2/catch.hpp>
#include <string>

using fake_org::http::json_nesting_exceeds;
using fake_org::http::kMaxJsonDepth;

namespace {

std::string nested_arrays(size_t depth) {
  return "{\"a\":" + std::string(depth - 1, '[') + std::string(depth - 1, ']') + "}";
}

}  // namespace

TEST_CASE("json_nesting_exceeds counts arrays and objects opened at once", "[json_depth]") {
  CHECK_FALSE(json_nesting_exceeds(""));
  CHECK_FALSE(json_nesting_exceeds("{\"Amount\":12.5,\"Payer\":{\"Contact\":{}}}"));
  CHECK_FALSE(json_nesting_exceeds(nested_arrays(kMaxJsonDepth)));
  CHECK(json_nesting_exceeds(nested_arrays(kMaxJsonDepth + 1)));
  CHECK(json_nesting_exceeds(nested_arrays(100000)));
  // Siblings do not add up: depth, not count.
  std::string wide = "[";
  for (int i = 0; i < 1000; ++i) wide += "[],";
  wide += "[]]";
  CHECK_FALSE(json_nesting_exceeds(wide));
  CHECK(json_nesting_exceeds("[[[", 2));
  CHECK_FALSE(json_nesting_exceeds("[[]]", 2));
}

TEST_CASE("json_nesting_exceeds skips brackets inside strings", "[json_depth]") {
  const std::string brackets(1000, '[');
  CHECK_FALSE(json_nesting_exceeds("{\"Note\":\"" + brackets + "\"}"));
  // An escaped quote does not end the string; an escaped backslash does not
  // escape the quote after it.
  CHECK_FALSE(json_nesting_exceeds("{\"Note\":\"\\\"" + brackets + "\"}"));
  CHECK(json_nesting_exceeds("{\"Note\":\"\\\\\"," + brackets + "}"));
  CHECK(json_nesting_exceeds("{\"" + brackets + "\":1," + brackets, kMaxJsonDepth));
}
