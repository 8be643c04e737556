#pragma once
// Format assertions valijson 1.0 lacks. valijson asserts only "date", "time"
// and "date-time"; for the formats below whose grammar a regular expression
// states exactly, the bundled schema gets the equivalent "pattern" (in an
// "allOf" branch marked with kFormatKey), so the checker agrees with ajv +
// ajv-formats on them. The rest ("uri", "email" idn variants, "ipv6", "regex",
// ...) stay annotations, as draft-07 allows; contracts/README.md lists them.
#include <nlohmann/json.hpp>

namespace contracts::core {

// Marks an injected branch; its value is the format name.
inline constexpr const char* kFormatKey = "x-format";

// Adds the pattern branches throughout a bundled document.
void assert_formats(nlohmann::json& document);

}  // namespace contracts::core
