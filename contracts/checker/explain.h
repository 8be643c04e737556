#pragma once
// Turns valijson's failures (an instance path and a sentence each) into
// Violations with the schema keyword, its location and the expected value.
// valijson reports neither keyword nor location, so both are recovered by
// walking the bundled schema along the instance path to the subschemas that
// apply there and re-checking the keyword on each.
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core.h"

namespace contracts::core {

struct RawError {
  std::vector<std::string> context;  // valijson's: "<root>", "[Payer]", "[0]", ...
  std::string description;
};

// Whether the property-name subschema at a Bundle::property_names location
// accepts a name.
using NameCheck = std::function<bool(const std::string& location, const std::string& name)>;

// For an instance valijson rejected (with `errors`, possibly none); the result
// is never empty.
std::vector<Violation> explain(const Bundle& bundle, const UriDisplay& display,
                               const std::vector<RawError>& errors, const nlohmann::json& instance,
                               const NameCheck& names);

// The value's JSON type as a schema names it ("integer" for whole numbers).
std::string json_type_name(const nlohmann::json& value);

}  // namespace contracts::core
