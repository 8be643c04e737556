#pragma once
// GET tooling/query: the Tooling API's query, as far as the platform's CLI
// asks it of an org it logs in to. The fake is a production org with no
// sandboxes, so a query of SandboxProcess (which the CLI sends to find an
// org's sandboxes) answers no rows; any other object is one the fake does
// not keep, refused as the platform refuses an unknown type. Stateless.
#include <string_view>

#include <nlohmann/json.hpp>

#include "data_errors.h"

namespace fake_org::data {

// {size, totalSize, done, queryLocator, entityTypeName, records}, or
// MALFORMED_QUERY (no FROM) / INVALID_TYPE.
DataResult<nlohmann::ordered_json> tooling_query(std::string_view soql);

}  // namespace fake_org::data
