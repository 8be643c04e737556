#include "subrequests.h"

#include <set>

#include "data_api.h"
#include "dispatch.h"
#include "responses.h"

namespace fake_org::http {

namespace {

// The rows a subrequest may not reach: a composite request runs no other.
bool is_composite_family(const std::string& operation_id) {
  static const std::set<std::string> kFamily = {"postComposite", "postCompositeBatch",
                                                "postCompositeTree", "postCompositeGraph"};
  return kFamily.count(operation_id) > 0;
}

// The outer request's headers, less those that describe its own body.
void copy_headers(const httplib::Request& from, httplib::Request& to) {
  static const std::set<std::string> kBodyHeaders = {"content-length", "content-type",
                                                     "content-encoding", "transfer-encoding"};
  for (const auto& [name, value] : from.headers) {
    std::string lower = name;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!kBodyHeaders.count(lower)) to.headers.emplace(name, value);
  }
}

// key=value pairs split at the first '=' only (SOQL holds '=' of its own,
// where httplib's parse_query_text would split).
void split_query_pairs(const std::string& query, httplib::Params& params) {
  size_t at = 0;
  while (at <= query.size()) {
    size_t end = query.find('&', at);
    if (end == std::string::npos) end = query.size();
    const std::string pair = query.substr(at, end - at);
    const size_t eq = pair.find('=');
    if (!pair.empty())
      params.emplace(httplib::detail::decode_url(pair.substr(0, eq), true),
                     eq == std::string::npos
                         ? std::string()
                         : httplib::detail::decode_url(pair.substr(eq + 1), true));
    at = end + 1;
  }
}

SubrequestAnswer answer_of(const httplib::Response& res, const data::Subrequest& sub,
                           const std::string& path) {
  SubrequestAnswer a;
  a.status = res.status;
  if (!res.body.empty()) {
    a.body = nlohmann::ordered_json::parse(res.body, nullptr, false);
    if (a.body.is_discarded()) a.body = res.body;
  }
  // The platform names a created record's URL, as its own create answers do.
  if (a.status == 201 && sub.method == "POST" && a.body.is_object() && a.body.contains("id") &&
      a.body["id"].is_string())
    a.headers["Location"] = path + "/" + a.body["id"].get<std::string>();
  for (const char* name : {"ETag", "Last-Modified"})
    if (res.has_header(name)) a.headers[name] = res.get_header_value(name);
  return a;
}

}  // namespace

SubrequestAnswer error_answer(int status, const data::DataErrors& errors) {
  SubrequestAnswer a;
  a.status = status;
  a.body = nlohmann::ordered_json::array();
  for (const auto& e : errors) {
    nlohmann::ordered_json item = {{"errorCode", e.code}, {"message", e.message}};
    if (!e.fields.empty()) item["fields"] = e.fields;
    a.body.push_back(std::move(item));
  }
  return a;
}

SubrequestAnswer run_subrequest(const SiteRouter& site, const Call& outer,
                                const data::Subrequest& sub, const std::string& url,
                                const nlohmann::json& body) {
  if (!site.router)
    return error_answer(
        503, {data::data_error("SERVER_UNAVAILABLE", "This server runs no composite subrequests")});
  httplib::Request req;
  req.method = sub.method;
  req.target = url;
  const size_t query = url.find('?');
  req.path = httplib::detail::decode_url(url.substr(0, query), false);
  if (query != std::string::npos) split_query_pairs(url.substr(query + 1), req.params);
  copy_headers(outer.req, req);
  for (const auto& [name, value] : sub.headers) {
    req.headers.erase(name);
    req.headers.emplace(name, value);
  }
  if (!body.is_null()) {
    req.body = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    req.headers.emplace("Content-Type", "application/json");
  }
  Router::Match m = site.router->match(req.method, req.path);
  httplib::Response res;
  if (m.outcome == Router::Outcome::kHandled && m.area && m.area->name == "data" &&
      is_composite_family(m.row->operation_id))
    return error_answer(400, {data::data_error(data::code::kInvalidInput,
                                               "A composite subrequest cannot run " + url +
                                                   ": composite requests do not nest")});
  if (m.outcome == Router::Outcome::kMethodNotAllowed) {
    send_method_not_allowed(res, req.method, m.allowed);
  } else if (m.outcome != Router::Outcome::kHandled || !m.area || m.area->name != "data") {
    send_not_found(res, m.area, req.path);
  } else {
    Call call{req, res, std::move(m.params), outer.client_id};
    (*m.handler)(call);
  }
  return answer_of(res, sub, req.path);
}

}  // namespace fake_org::http
