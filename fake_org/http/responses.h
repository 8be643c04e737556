#pragma once
// Turning domain results into HTTP answers. The mapping from error code to
// HTTP status lives here and nowhere else (docs/decisions.md, "Error status").
#include <httplib.h>

#include <nlohmann/json.hpp>
#include <string>

#include "domain/errors.h"
#include "domain/org_config.h"

namespace fake_org::http {

inline constexpr const char* kJson = "application/json;charset=UTF-8";

// The HTTP status for a failed request: the first error decides.
int error_status(const OrgConfig& config, const ApiErrors& errors);
// Default status of one spec error code, before fixture overrides.
int default_error_status(std::string_view code);

// {"Errors":[{"error_code":..., "error_message":...}]}
nlohmann::json errors_body(const ApiErrors& errors);

void send_json(httplib::Response& res, int status, const nlohmann::json& body);
void send_errors(httplib::Response& res, const OrgConfig& config, const ApiErrors& errors);
// The platform's own error shape: [{"message":..., "errorCode":...}]
void send_platform_error(httplib::Response& res, int status, std::string_view error_code,
                         std::string_view message);

// Parses a JSON request body; an empty body is an empty object. On failure the
// error says where the JSON breaks.
Result<nlohmann::json> parse_json_body(const httplib::Request& req);

// scheme://host[:port] as the client reached us (Host header), for instance_url.
std::string origin_of(const httplib::Request& req, bool tls);

}  // namespace fake_org::http
