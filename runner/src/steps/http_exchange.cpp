#include "steps/http_exchange.h"

#include "net/curl.h"

namespace runner {
namespace {

bool has_header(const Headers& h, const std::string& name) {
  for (const auto& [k, v] : h)
    if (iequals(k, name)) return true;
  return false;
}

}  // namespace

SentRequest send_request(const RequestSpec& spec, StepContext& ctx) {
  Interpolator in = ctx.interp();
  HttpRequest req;
  req.method = spec.method;
  req.url = ctx.org.url_for(in.text(spec.path));
  StringPairs query;
  for (const auto& [k, v] : spec.query) query.emplace_back(in.text(k), in.text(v));
  if (!query.empty())
    req.url += (req.url.find('?') == std::string::npos ? "?" : "&") + encode_form(query);
  for (const auto& [k, v] : spec.headers) req.headers.emplace_back(in.text(k), in.text(v));
  if (!has_header(req.headers, "Accept")) req.headers.emplace_back("Accept", "application/json");
  switch (spec.body) {
    case RequestSpec::Body::kNone:
      break;
    case RequestSpec::Body::kJson:
      req.body = in.value(spec.json).dump();
      if (!has_header(req.headers, "Content-Type"))
        req.headers.emplace_back("Content-Type", "application/json");
      break;
    case RequestSpec::Body::kRaw:
      req.body = in.text(spec.raw);
      if (!has_header(req.headers, "Content-Type"))
        req.headers.emplace_back("Content-Type", "application/json");
      break;
    case RequestSpec::Body::kForm: {
      StringPairs form;
      for (const auto& [k, v] : spec.form) form.emplace_back(in.text(k), in.text(v));
      req.body = encode_form(form);
      if (!has_header(req.headers, "Content-Type"))
        req.headers.emplace_back("Content-Type", "application/x-www-form-urlencoded");
      break;
    }
  }
  return ctx.org.send(std::move(req), spec.auth, spec.timeout);
}

Exchange to_exchange(const SentRequest& sent) {
  Exchange ex;
  ex.request = sent.request;
  ex.response = sent.response;
  if (sent.reproduce) {
    HttpRequest again = sent.request;
    again.url = sent.reproduce_url;
    // An org started for the reproduction is plain HTTP.
    ex.curl = to_curl(again, sent.token, sent.reproduce->org_stops ? "" : sent.ca_file);
    if (!sent.reproduce->url_variable.empty())
      ex.curl =
          with_url_variable(ex.curl, sent.reproduce->instance_url, sent.reproduce->url_variable);
    ex.curl_setup = sent.reproduce->setup;
    ex.curl_teardown = sent.reproduce->teardown;
    ex.org_stopped = sent.reproduce->org_stops;
  } else {
    ex.curl = to_curl(sent.request, sent.token, sent.ca_file);
  }
  ex.token_refreshed = sent.refreshed;
  return ex;
}

std::optional<Failure> check_contract(const contracts::Checker* checker, const HttpRequest& request,
                                      const HttpResponse& response) {
  if (!checker) return std::nullopt;
  auto parts = split_url(request.url);
  const std::string path = parts ? parts->target : request.url;
  if (path.rfind("/__admin", 0) == 0) return std::nullopt;
  nlohmann::json body = nullptr;
  if (!response.body.empty()) {
    auto j = response.json();
    body = j ? *j : nlohmann::json(response.body);  // not JSON: the schema's type check says so
  }
  contracts::CheckResult r = checker->check_response(request.method, path, response.status, body);
  if (r.ok()) return std::nullopt;
  Failure f;
  // A body that is not JSON at all (an HTML error page from a proxy) is
  // said as such, not as the schema's type error at "/".
  if (!response.body.empty() && !response.json()) {
    f.kind = "contract";
    f.message = "the response is " + response.not_json_reason() + "; the contract wants JSON";
    return f;
  }
  f.kind = "contract";
  f.message = "the response breaks the contract (" +
              std::string(contracts::to_string(checker->profile())) + " profile" +
              (r.schema.empty() ? "" : ", schema " + r.schema) + "):\n" + r.report();
  for (const auto& v : r.violations) f.mismatches.push_back({v.pointer, v.expected, v.actual});
  return f;
}

}  // namespace runner
