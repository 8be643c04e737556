#pragma once
// Escaping for the fake's HTML pages (OAuth approval, simulated PSP).
#include <string>
#include <string_view>

namespace fake_org::http {

// Escapes &, <, >, " and ' for HTML text and attribute values.
std::string html_escape(std::string_view text);

}  // namespace fake_org::http
