#include "data_api.h"

#include "domain/config/data_versions.h"
#include "responses.h"
#include "util/json_text.h"

namespace fake_org::http {

int data_error_status(const data::DataErrors& errors) {
  if (errors.empty()) return 400;
  const std::string& code = errors.front().code;
  return code == data::code::kNotFound || code == data::code::kEntityIsDeleted ? 404 : 400;
}

void send_data_json(httplib::Response& res, int status, const nlohmann::ordered_json& body) {
  res.status = status;
  // Messages may echo a client's bytes: never let bad UTF-8 become a 500.
  res.set_content(text::json_text(body), kJson);
}

void send_data_text(httplib::Response& res, int status, std::string body) {
  res.status = status;
  res.body = std::move(body);  // set_content would copy it
  const auto type = res.headers.equal_range("Content-Type");
  res.headers.erase(type.first, type.second);
  res.set_header("Content-Type", kJson);
}

void send_data_errors(httplib::Response& res, const data::DataErrors& errors) {
  nlohmann::ordered_json body = nlohmann::ordered_json::array();
  for (const auto& e : errors) {
    nlohmann::ordered_json item = {{"message", e.message}, {"errorCode", e.code}};
    if (!e.fields.empty()) item["fields"] = e.fields;
    body.push_back(std::move(item));
  }
  send_data_json(res, data_error_status(errors), body);
}

data::DataResult<nlohmann::json> data_body(const httplib::Request& req) {
  auto parsed = parse_json_body(req, EmptyBody::kMissing);
  if (!parsed.ok())
    return data::data_error(data::code::kJsonParserError, parsed.errors().front().message);
  return std::move(*parsed);
}

DataContext data_context(const HandlerContext& context) {
  return DataContext{&context.org, context.api_usage};
}

void with_version(const DataContext& ctx, Call& c,
                  const std::function<void(const std::string&)>& fn) {
  auto version = data::api_version_of(ctx.org->config(), c.params["version"]);
  if (!version)
    return send_data_errors(c.res, {data::data_error(data::code::kNotFound, data::kNoResource)});
  const long used = UncountedRequests::active() ? ctx.usage->used.load() : ++ctx.usage->used;
  c.res.set_header("Sforce-Limit-Info",
                   "api-usage=" + std::to_string(used) + "/" + std::to_string(ApiUsage::kDailyMax));
  fn(*version);
}

}  // namespace fake_org::http
