#pragma once
// GET limits: the org's limits as the platform lists them, {Max, Remaining}
// per limit. The fake counts only daily API requests (the data API's own
// calls); the others are a Developer Edition org's, untouched. Stateless.
#include <nlohmann/json.hpp>

namespace fake_org::data {

nlohmann::ordered_json limits_json(long api_requests_used, long api_requests_max);

}  // namespace fake_org::data
