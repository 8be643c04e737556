#include "commands/har/har_reader.h"

#include <optional>
#include <set>
#include "util/crypto.h"

#include <nlohmann/json.hpp>

namespace runner::har {
namespace {

using nlohmann::json;

std::string text_of(const json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Headers headers_of(const json& msg) {
  Headers out;
  auto it = msg.find("headers");
  if (it == msg.end() || !it->is_array()) return out;
  for (const auto& h : *it) {
    std::string name = text_of(h, "name");
    // HTTP/2 pseudo-headers (:authority, :path) are not headers a replay sends.
    if (name.empty() || name[0] == ':') continue;
    out.emplace_back(name, text_of(h, "value"));
  }
  return out;
}

// The response's status as a number, or nothing when it is not a whole
// number (HAR writers put 0 there for a request that got no answer).
std::optional<long> status_of(const json& res) {
  auto it = res.find("status");
  if (it == res.end() || !it->is_number()) return std::nullopt;
  if (it->is_number_float()) {
    const double d = it->get<double>();
    if (!(d >= 0 && d < 1000) || d != static_cast<long>(d)) return std::nullopt;
    return static_cast<long>(d);
  }
  if (it->is_number_unsigned()) {
    const auto u = it->get<unsigned long long>();
    return u < 1000 ? std::optional<long>(static_cast<long>(u)) : std::nullopt;
  }
  return it->get<long long>() >= 0 && it->get<long long>() < 1000
             ? std::optional<long>(static_cast<long>(it->get<long long>()))
             : std::nullopt;
}

// The response's status when a scenario can expect it; otherwise 0 and why
// the entry is left out.
int usable_status(const json& res, std::string& why) {
  const std::optional<long> status = status_of(res);
  if (status == 0L) {  // blocked or failed in the browser: nothing came back
    why = "no response (status 0)";
  } else if (!status || *status < 100 || *status > 599) {
    why = "response.status is not an HTTP status (100-599): " +
          (res.is_object() && res.contains("status") ? res["status"].dump() : "none").substr(0, 40);
  } else {
    return static_cast<int>(*status);
  }
  return 0;
}

bool has_header(const Headers& h, const std::string& name) {
  for (const auto& [k, v] : h)
    if (iequals(k, name)) return true;
  return false;
}

}  // namespace

std::string base64_decode(const std::string& text) {
  // Browsers wrap long bodies and some tools write the URL-safe alphabet.
  std::string standard;
  standard.reserve(text.size());
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == ' ') continue;
    standard += c == '-' ? '+' : c == '_' ? '/' : c;
  }
  auto decoded = fake_org::crypto::base64_decode(standard);
  if (!decoded) throw HarError("content.text is not valid base64");
  return *decoded;
}

namespace {

// The request body of an entry: postData.text, or its params as a form.
void read_post_data(const json& req, record::RecordedExchange& ex) {
  if (req.contains("postData") && req["postData"].is_object()) {
    const json& post = req["postData"];
    if (post.contains("text")) {
      ex.request_body = text_of(post, "text");
    } else if (post.contains("params") && post["params"].is_array()) {
      std::vector<std::pair<std::string, std::string>> fields;
      for (const auto& p : post["params"])
        fields.emplace_back(text_of(p, "name"), text_of(p, "value"));
      ex.request_body = encode_form(fields);
    }
    const std::string mime = text_of(post, "mimeType");
    if (!mime.empty() && !has_header(ex.request_headers, "Content-Type"))
      ex.request_headers.emplace_back("Content-Type", mime);
  }
}

}  // namespace

HarImport read_har(const std::string& text, const std::string& base_in) {
  std::string base = base_in;
  while (!base.empty() && base.back() == '/') base.pop_back();
  auto base_parts = split_url(base);
  if (!base_parts) throw HarError("--base must be an http(s) URL; got '" + base_in + "'");
  HarImport out;
  out.api_path = base_parts->target == "/" ? "/services/apexrest/cpm/v2" : base_parts->target;
  const std::string api_prefix = base_parts->origin + out.api_path;

  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {  // a parse error, or a number no double holds
    throw HarError(std::string("not a HAR file (not JSON): ") + e.what());
  }
  if (!doc.is_object() || !doc.contains("log") || !doc["log"].is_object() ||
      !doc["log"].contains("entries") || !doc["log"]["entries"].is_array())
    throw HarError("not a HAR file: it has no log.entries list");
  size_t index = 0;
  for (const auto& entry : doc["log"]["entries"]) {
    ++index;
    const std::string where = "entry " + std::to_string(index);
    if (!entry.is_object() || !entry.contains("request") || !entry.contains("response"))
      throw HarError(where + ": needs request and response");
    const json& req = entry["request"];
    const json& res = entry["response"];
    const std::string url = text_of(req, "url");
    auto parts = split_url(url);
    if (!parts) {
      out.notes.push_back(where + ": left out, not an http(s) URL: " + url);
      continue;
    }
    const bool under_api = url.rfind(api_prefix, 0) == 0 &&
                           (url.size() == api_prefix.size() ||
                            std::string("/?").find(url[api_prefix.size()]) != std::string::npos);
    const bool oauth = parts->origin == base_parts->origin &&
                       parts->target.rfind("/services/oauth2/token", 0) == 0;
    if (!under_api && !oauth) {
      out.notes.push_back(where + ": left out, not under " + api_prefix + ": " + url);
      continue;
    }
    std::string why;
    const int status = usable_status(res, why);
    if (!why.empty()) {
      out.notes.push_back(where + ": left out, " + why + ": " + url);
      continue;
    }
    record::RecordedExchange ex;
    ex.method = text_of(req, "method");
    static const std::set<std::string> kMethods = {"GET",    "POST", "PUT",    "PATCH",
                                                   "DELETE", "HEAD", "OPTIONS"};
    if (!kMethods.count(ex.method)) {  // a scenario could not replay it
      out.notes.push_back(where + ": left out, not an HTTP method a scenario sends: '" +
                          ex.method.substr(0, 40) + "'");
      continue;
    }
    ex.target = parts->target;
    ex.request_headers = headers_of(req);
    ex.authenticated = has_header(ex.request_headers, "Authorization");
    read_post_data(req, ex);
    ex.status = status;
    ex.response_headers = headers_of(res);
    if (res.contains("content") && res["content"].is_object()) {
      const json& content = res["content"];
      ex.response_body = text_of(content, "text");
      if (text_of(content, "encoding") == "base64")
        ex.response_body = base64_decode(ex.response_body);
      const std::string mime = text_of(content, "mimeType");
      if (!mime.empty() && !has_header(ex.response_headers, "Content-Type"))
        ex.response_headers.emplace_back("Content-Type", mime);
    }
    out.exchanges.push_back(std::move(ex));
  }
  return out;
}

}  // namespace runner::har
