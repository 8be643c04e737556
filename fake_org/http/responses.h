#pragma once
// Turning domain results into HTTP answers. The mapping from error code to
// HTTP status lives here and nowhere else (docs/decisions.md, "Error status").
#include <httplib.h>

#include <nlohmann/json.hpp>
#include <string>

#include "domain/config/org_config.h"
#include "domain/core/errors.h"

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

// What an empty (or all-whitespace) body means: the API's operations need a
// body, so there it is error 010; the fake's own endpoints read it as {}.
enum class EmptyBody { kMissing, kEmptyObject };

// 405 with an Allow header ("GET, POST") and the platform's body.
void send_method_not_allowed(httplib::Response& res, std::string_view method,
                             const std::string& allowed);

// Parses a JSON request body. On failure the error says where the JSON breaks
// or that the body is missing.
Result<nlohmann::json> parse_json_body(const httplib::Request& req,
                                       EmptyBody empty = EmptyBody::kEmptyObject);

// The 010 error for an API request without a body.
ApiError missing_body_error();

// scheme://host[:port] as the client reached us (Host header), for instance_url,
// plus the serving org's /orgs/{name} prefix when it is not the root org.
std::string origin_of(const httplib::Request& req, bool tls);
// scheme://host[:port] alone: the server's own address, whichever org serves.
std::string server_origin_of(const httplib::Request& req, bool tls);

}  // namespace fake_org::http
