#pragma once
// The bodies of the REST data API's composite family, checked as the
// platform checks them before it runs any subrequest: POST composite
// ({allOrNone, collateSubrequests, compositeRequest}), composite/graph
// ({graphs: [{graphId, compositeRequest}]}) and composite/batch
// ({haltOnError, batchRequests}). A body that fails here is refused whole
// (400); what a subrequest does is its own answer. Stateless.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "data_errors.h"

namespace fake_org::data {

// The platform's limits: 25 subrequests, of which 5 query or sObject
// collection ones; a graph takes 500 nodes.
inline constexpr size_t kMaxCompositeSubrequests = 25;
inline constexpr size_t kMaxCompositeQueries = 5;
inline constexpr size_t kMaxGraphNodes = 500;
inline constexpr size_t kMaxBatchSubrequests = 25;

struct Subrequest {
  std::string method;  // GET, POST, PATCH, PUT or DELETE
  std::string url;     // "/services/data/v59.0/sobjects/Account" (references unresolved)
  std::string reference_id;
  nlohmann::json body;  // null: none
  std::map<std::string, std::string> headers;
};

struct CompositeRequest {
  bool all_or_none = false;
  bool collate = false;  // accepted; subrequests always run in order
  std::vector<Subrequest> subrequests;
};

struct Graph {
  std::string id;
  std::vector<Subrequest> nodes;
};

struct BatchRequest {
  bool halt_on_error = false;
  std::vector<Subrequest> subrequests;  // reference_id empty
};

// `version` is the composite request's own ("59.0"): every subrequest's url
// is a data API URL of that version.
DataResult<CompositeRequest> parse_composite(const nlohmann::json& body, std::string_view version);
DataResult<std::vector<Graph>> parse_graphs(const nlohmann::json& body, std::string_view version);
// Batch urls may leave out /services/data/ ("v59.0/sobjects/Account").
DataResult<BatchRequest> parse_batch(const nlohmann::json& body, std::string_view version);

// Whether `url` (of the data API) is a query or sObject collection request,
// the kind the platform counts against its limit of 5.
bool is_query_or_collection(std::string_view url, std::string_view version);

}  // namespace fake_org::data
