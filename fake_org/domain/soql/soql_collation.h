#pragma once
// How SOQL compares and orders text: without regard to case beyond ASCII
// ('ZÜRICH' = 'Zürich'), ordered by the upper-cased values' code points,
// so 'a' sorts before 'Z' and 'Z' before '['. The upper-casing covers the
// letters of Latin-1, Latin Extended-A, Greek and Cyrillic; other
// characters compare as themselves. No letter outside ASCII upper-cases
// into ASCII, so an ASCII value can only equal ASCII text (the store's
// ASCII-folding indexes serve it).
#include <string>
#include <string_view>

namespace fake_org::soql {

// The code point's upper case within the scripts above; else itself.
char32_t collation_upper(char32_t c);

// <0, 0 or >0 as `a` sorts before, with or after `b`.
int collate(std::string_view a, std::string_view b);

// The text's code points, upper-cased (bytes that are not UTF-8 count as
// code points of their own value).
std::u32string collation_key(std::string_view text);

// True when every byte is ASCII.
bool ascii_only(std::string_view text);

}  // namespace fake_org::soql
