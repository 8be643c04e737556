#pragma once
// What the REST data API's handlers share (data_*_routes.cpp): the version
// check every /services/data/vNN.0 path makes, the API usage count behind
// GET limits and the Sforce-Limit-Info header, and the platform's error
// list [{"message", "errorCode", "fields"}].
//
// Locking rule: ApiUsage is one atomic counter; UncountedRequests a flag of
// the thread; everything else is stateless.
#include <httplib.h>

#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "domain/data/data_errors.h"
#include "domain/org/org.h"
#include "router.h"
#include "routes.h"

namespace fake_org::http {

// Daily API requests: the limit a Developer Edition org has, and how many
// data API requests this org has answered since it started.
struct ApiUsage {
  static constexpr long kDailyMax = 15000;
  std::atomic<long> used{0};
};

// While one lives on a thread, the data API requests that thread runs are
// not counted: a composite request and its graphs count as one call, as
// on the platform (a batch's subrequests count each).
class UncountedRequests {
 public:
  UncountedRequests() : outer_(active_) { active_ = true; }
  ~UncountedRequests() { active_ = outer_; }
  UncountedRequests(const UncountedRequests&) = delete;
  UncountedRequests& operator=(const UncountedRequests&) = delete;
  static bool active() { return active_; }

 private:
  bool outer_;
  static inline thread_local bool active_ = false;
};

struct DataContext {
  Org* org = nullptr;
  std::shared_ptr<ApiUsage> usage;
};

// 404 NOT_FOUND / ENTITY_IS_DELETED, else 400; `fields` listed when any.
int data_error_status(const data::DataErrors& errors);
void send_data_errors(httplib::Response& res, const data::DataErrors& errors);
void send_data_json(httplib::Response& res, int status, const nlohmann::ordered_json& body);
// A body already written as JSON text (QueryPage::to_text).
void send_data_text(httplib::Response& res, int status, std::string body);

// Runs `fn` with the version of the path's {version} segment ("59.0"),
// counting the request and setting Sforce-Limit-Info; answers the platform's
// 404 for a version the org does not serve.
void with_version(const DataContext& ctx, Call& c,
                  const std::function<void(const std::string&)>& fn);

// The request's JSON body; JSON_PARSER_ERROR when it is missing or malformed.
data::DataResult<nlohmann::json> data_body(const httplib::Request& req);

// What the data groups' handlers share: the org and its usage count.
DataContext data_context(const HandlerContext& context);

}  // namespace fake_org::http
