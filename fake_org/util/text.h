#pragma once
// Small text helpers shared by the org, its fixture loader and the runner.
#include <string>
#include <string_view>
#include <vector>

namespace fake_org::text {

// Without leading and trailing ASCII white space.
std::string_view trim(std::string_view s);

std::string join(const std::vector<std::string_view>& items, std::string_view sep = ", ");
std::string join(const std::vector<std::string>& items, std::string_view sep = ", ");

// Levenshtein distance, ASCII letters compared without case.
size_t edit_distance(std::string_view a, std::string_view b);

// The option closest to `word` when it is a plausible typo of it (at most a
// third of its letters wrong, and at least 2 allowed), else "": what a "did
// you mean" hint names.
std::string closest(std::string_view word, const std::vector<std::string_view>& options);

// '&', '<', '>', '"' and '\'' as character references, for text inside
// HTML or XML elements and attributes. `apostrophe` is "&#39;" for HTML
// (HTML 4 has no &apos;) or "&apos;" for XML.
std::string escape_markup(std::string_view text, std::string_view apostrophe);

// For a log line: every control byte (below 0x20, and DEL) as \xHH, so text
// a client sent cannot end the line, start a forged one or drive the
// terminal (ESC sequences). With `keep_newlines` a LF stays: a multi-line
// report of the server's own.
std::string escape_control(std::string_view text, bool keep_newlines = false);

}  // namespace fake_org::text
