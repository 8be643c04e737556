#pragma once
// A query step's SOQL with its `${...}` references filled in safely: each
// value is escaped as the inside of a string literal, so the scenario writes
// the quotes (`WHERE Email = '${email}'`) and a value holding a quote or a
// backslash stays one value instead of changing the query.
#include <string>
#include <string_view>

#include "eval/interpolate.h"

namespace runner {

// The platform's escapes in a SOQL string literal: \' \" \\ \n \r \t \b \f.
std::string soql_escape(std::string_view text);

// Throws InterpolationError as Interpolator::text does.
std::string soql_text(const Interpolator& in, const std::string& soql);

}  // namespace runner
