#include "fault_injector.h"

#include <set>

#include "request_journal.h"
#include "responses.h"
#include "util/json_text.h"

namespace fake_org::http {

namespace {

std::string key_of(std::string_view method, std::string_view path) {
  std::string key(method);
  key += ' ';
  key += path;
  return key;
}

ApiError fault_error(std::string field, std::string message) {
  return make_error(error_code::kMissingCoreParameter, std::move(field), std::move(message));
}

}  // namespace

void to_json(nlohmann::json& j, const Fault& f) {
  j = {{"method", f.method},
       {"path", f.path},
       {"status", f.status},
       {"body", f.body},
       {"remaining", f.remaining}};
}

Result<Fault> fault_from_json(const nlohmann::json& j, std::string_view api_base) {
  static const std::set<std::string> kKeys = {"method", "path", "status", "body", "times", "drop"};
  static const std::set<std::string> kMethods = {"GET", "POST", "PUT", "PATCH", "DELETE", "*"};
  if (!j.is_object())
    return fault_error("",
                       "Send a JSON object such as {\"method\": \"POST\", \"path\": "
                       "\"/PaymentIntent\", \"status\": 503, \"times\": 2}");
  for (const auto& [k, v] : j.items())
    if (!kKeys.count(k))
      return fault_error(
          k, "Unknown key '" + k + "'; a fault has method, path, status, body and times");
  if (j.contains("drop"))
    return fault_error("drop",
                       "'drop' is not supported: cpp-httplib 0.11 gives handlers no way to "
                       "close a connection without writing a status line (decisions 48)");
  Fault f;
  f.method = "*";
  if (j.contains("method")) {
    if (!j["method"].is_string() || !kMethods.count(j["method"].get<std::string>()))
      return fault_error("method",
                         "'method' must be one of GET, POST, PUT, PATCH, DELETE or "
                         "\"*\" (any); got " +
                             text::json_text(j["method"]));
    f.method = j["method"].get<std::string>();
  }
  if (!j.contains("path") || !j["path"].is_string() || j["path"].get<std::string>().empty() ||
      j["path"].get<std::string>()[0] != '/')
    return fault_error("path",
                       "'path' is required: the API path such as \"/PaymentIntent\" (relative to "
                       "the API base, or whole), or \"/PaymentIntent/*\" for every path under it");
  f.path = j["path"].get<std::string>();
  // Faults are checked on the API's routes only, so such a fault would sit
  // there and never answer: better refused than accepted and silent.
  if (path_under(f.path, "/services/oauth2"))
    return fault_error("path", "'path' " + f.path +
                                   " is an OAuth path; faults apply only to API paths such as "
                                   "\"/PaymentIntent\" (OAuth endpoints are not covered)");
  const size_t star = f.path.find('*');
  if (star != std::string::npos &&
      (star + 1 != f.path.size() || f.path.size() < 2 || f.path[star - 1] != '/'))
    return fault_error("path", "'path' " + f.path +
                                   " would never match: '*' is allowed only as the whole last "
                                   "segment, as in \"/PaymentIntent/*\"");
  if (path_under(f.path, api_base)) f.path = f.path.substr(api_base.size());
  if (f.path.empty()) f.path = "/";
  if (f.path.size() > 1 && f.path.back() == '/') f.path.pop_back();
  if (j.contains("status")) {
    if (!j["status"].is_number_integer() || j["status"] < 200 || j["status"] > 599)
      return fault_error("status", "'status' must be an HTTP status from 200 to 599; got " +
                                       text::json_text(j["status"]));
    f.status = j["status"].get<int>();
    // These answers have no body by definition: sending one (with its
    // Content-Length) would desynchronise a keep-alive client.
    if (f.status == 204 || f.status == 205 || f.status == 304)
      return fault_error("status", "'status' " + std::to_string(f.status) +
                                       " is refused: a 204, 205 or 304 answer has no body, and a "
                                       "fault always sends one; use 200 to 599 otherwise");
  }
  if (j.contains("times")) {
    if (!j["times"].is_number_integer() || j["times"] < 1 || j["times"] > 1000000)
      return fault_error("times",
                         "'times' must be a whole number from 1 (the default) to "
                         "1000000; got " +
                             text::json_text(j["times"]));
    f.remaining = j["times"].get<int>();
  }
  if (j.contains("body") && !j["body"].is_null()) {
    f.body = j["body"];
  } else {
    f.body = errors_body(
        {make_error(error_code::kUncategorised, "",
                    "Injected fault: " + (f.method == "*" ? std::string("any method") : f.method) +
                        " " + f.path + " answers " + std::to_string(f.status) +
                        " without running (POST /__admin/faults); nothing was changed")});
  }
  return f;
}

void FaultInjector::add(Fault fault) {
  std::lock_guard lock(mu_);
  by_key_[key_of(fault.method, fault.path)] = std::move(fault);
  active_ = by_key_.size();
}

std::optional<Fault> FaultInjector::take_locked(const std::string& key) {
  auto it = by_key_.find(key);
  if (it == by_key_.end()) return std::nullopt;
  Fault f = it->second;
  if (--it->second.remaining <= 0) by_key_.erase(it);
  active_ = by_key_.size();
  return f;
}

// At most two lookups per path segment: never a pass over the faults.
std::optional<Fault> FaultInjector::take(std::string_view method, std::string_view path) {
  if (active_.load(std::memory_order_relaxed) == 0) return std::nullopt;
  std::lock_guard lock(mu_);
  if (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  if (auto f = take_locked(key_of(method, path))) return f;
  if (auto f = take_locked(key_of("*", path))) return f;
  for (size_t slash = path.size(); slash != std::string_view::npos && slash > 0;) {
    slash = path.rfind('/', slash - 1);
    if (slash == std::string_view::npos) break;
    std::string under(path.substr(0, slash));
    under += "/*";
    if (auto f = take_locked(key_of(method, under))) return f;
    if (auto f = take_locked(key_of("*", under))) return f;
  }
  return std::nullopt;
}

std::vector<Fault> FaultInjector::list() const {
  std::lock_guard lock(mu_);
  std::vector<Fault> out;
  for (const auto& [key, f] : by_key_) out.push_back(f);
  return out;
}

void FaultInjector::clear() {
  std::lock_guard lock(mu_);
  by_key_.clear();
  active_ = 0;
}

}  // namespace fake_org::http
