#include "responses.h"

#include <functional>

#include "request_log.h"
#include "util/json_depth.h"
#include "util/json_keys.h"
#include "util/json_quick.h"
#include "util/json_text.h"

namespace fake_org::http {

int default_error_status(std::string_view code) {
  if (code == "010" || code == "011" || code == "012" || code == "998") return 400;
  if (code == "999") return 500;
  if (code.size() == 3 && code[0] == '2')
    return 422;  // 200..206: well formed, wrong data (spec 7.2)
  return 400;
}

int error_status(const OrgConfig& config, const ApiErrors& errors) {
  if (errors.empty()) return 500;
  const ApiError& e = errors.front();
  switch (e.kind) {
    case ErrorKind::kNotFound:
      return 404;
    case ErrorKind::kConflict:
      return 409;
    case ErrorKind::kBadJson:
      return 400;
    case ErrorKind::kSpec:
      break;
  }
  auto it = config.org.error_status.find(e.code);
  if (it != config.org.error_status.end()) return it->second;
  return default_error_status(e.code);
}

nlohmann::json errors_body(const ApiErrors& errors) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& e : errors)
    list.push_back({{"error_code", e.code}, {"error_message", e.message}});
  return {{"Errors", list}};
}

void send_json(httplib::Response& res, int status, const nlohmann::json& body) {
  res.status = status;
  res.set_content(text::json_text(body), kJson);
}

void send_errors(httplib::Response& res, const OrgConfig& config, const ApiErrors& errors) {
  send_json(res, error_status(config, errors), errors_body(errors));
}

void send_platform_error(httplib::Response& res, int status, std::string_view error_code,
                         std::string_view message) {
  send_json(res, status,
            nlohmann::json::array({{{"message", message}, {"errorCode", error_code}}}));
}

ApiError missing_body_error() {
  return make_error(error_code::kMissingCoreParameter, "",
                    "The request body is missing: send a JSON object with "
                    "Content-Type: application/json and a Content-Length header",
                    ErrorKind::kBadJson);
}

void send_method_not_allowed(httplib::Response& res, std::string_view method,
                             const std::string& allowed) {
  res.set_header("Allow", allowed);
  send_platform_error(
      res, 405, "METHOD_NOT_ALLOWED",
      "HTTP Method '" + std::string(method) + "' not allowed. Allowed are " + allowed);
}

Result<nlohmann::json> parse_json_body(const httplib::Request& req, EmptyBody empty) {
  if (req.body.find_first_not_of(" \t\r\n") == std::string::npos) {
    if (empty == EmptyBody::kMissing) return missing_body_error();
    return nlohmann::json::object();
  }
  // Most bodies: read without nlohmann's lexer, and nested too little for
  // the depth check below.
  static_assert(kPlainJsonMaxDepth <= kMaxJsonDepth);
  if (nlohmann::json plain; read_plain_json(req.body, plain)) return plain;
  // Before parsing: a parsed body this deep would overflow the stack of
  // whatever copies or walks it next (json_depth.h).
  if (json_nesting_exceeds(req.body))
    return make_error(error_code::kMissingCoreParameter, "",
                      "The request body nests arrays and objects more than " +
                          std::to_string(kMaxJsonDepth) +
                          " levels deep; the fake refuses such bodies unparsed (a request of "
                          "this API nests a few levels): send a flatter JSON object",
                      ErrorKind::kBadJson);
  try {
    RepeatedKeyFinder repeated;
    nlohmann::json body = repeated.parse(req.body);
    if (repeated.found())
      return make_error(error_code::kMissingCoreParameter, repeated.key(),
                        "The request body has the key '" + repeated.key() + "' twice in " +
                            (repeated.where().empty() ? std::string("its top object")
                                                      : "the object " + repeated.where()) +
                            ": send each key once (the fake does not guess which value you "
                            "meant)",
                        ErrorKind::kBadJson);
    return body;
  } catch (const nlohmann::json::parse_error& e) {
    return make_error(error_code::kMissingCoreParameter, "",
                      std::string("The request body is not valid JSON (") + e.what() +
                          "); send a JSON object with Content-Type: application/json",
                      ErrorKind::kBadJson);
  } catch (const nlohmann::json::out_of_range& e) {
    // The parser throws out_of_range 406, not parse_error, for a number no
    // double holds (1e400): a malformed body all the same, not an internal error.
    return make_error(error_code::kMissingCoreParameter, "",
                      std::string("The request body has a number too large to read (") + e.what() +
                          "); send numbers within a double's range, amounts as decimals such "
                          "as 12.50",
                      ErrorKind::kBadJson);
  }
}

std::string server_origin_of(const httplib::Request& req, bool tls) {
  std::string host = req.get_header_value("Host");
  if (host.empty()) host = "127.0.0.1";
  return std::string(tls ? "https://" : "http://") + host;
}

std::string origin_of(const httplib::Request& req, bool tls) {
  return server_origin_of(req, tls) + request_log_context().org_prefix;
}

}  // namespace fake_org::http
