#pragma once
// Where, in an expected value, a mismatch was checked: a mismatch names a
// place in the actual body ("/records/4/Status"), a report wants the line of
// the scenario that asked for it ("/records/$each/Status"), which differs
// under the matchers that range over an array's items.
#include <string>

#include <nlohmann/json.hpp>

namespace runner {

// The pointer into `expected` for `actual_pointer`: through `$each` to its
// item, through a `$contains` of one item to it; it stops at any other
// matcher, and where the expected value says nothing more (the mismatch is
// then about the whole value written there).
std::string expected_pointer(const nlohmann::json& expected, const std::string& actual_pointer);

}  // namespace runner
