#include "data_limits.h"

#include <algorithm>

namespace fake_org::data {

nlohmann::ordered_json limits_json(long api_requests_used, long api_requests_max) {
  auto limit = [](long max, long remaining) {
    return nlohmann::ordered_json{{"Max", max}, {"Remaining", remaining}};
  };
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  out["ConcurrentAsyncGetReportInstances"] = limit(200, 200);
  out["ConcurrentSyncReportRuns"] = limit(20, 20);
  out["DailyApiRequests"] =
      limit(api_requests_max, std::max(0L, api_requests_max - api_requests_used));
  out["DailyAsyncApexExecutions"] = limit(250000, 250000);
  out["DailyBulkApiBatches"] = limit(15000, 15000);
  out["DailyBulkV2QueryJobs"] = limit(10000, 10000);
  out["DailyGenericStreamingApiEvents"] = limit(10000, 10000);
  out["DailyStreamingApiEvents"] = limit(10000, 10000);
  out["DataStorageMB"] = limit(5, 5);
  out["FileStorageMB"] = limit(20, 20);
  out["HourlyTimeBasedWorkflow"] = limit(50, 50);
  out["MassEmail"] = limit(10, 10);
  out["SingleEmail"] = limit(15, 15);
  return out;
}

}  // namespace fake_org::data
