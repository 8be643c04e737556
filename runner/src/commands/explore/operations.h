#pragma once
// The operations the explorer calls: one row each, naming its route-table
// operationId, its request (path and a valid body built from the target's
// facts), the variables it needs from earlier answers, the records a
// refused write must leave alone, and the spec rule its answer shows.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands/explore/facts.h"
#include "commands/explore/rng.h"
#include "scenario/model.h"

namespace runner::explore {

// How many of a body's optional members (optional_members.h) it gets:
// drawn per body (none, some or all), every one, or none.
enum class Fill { kDrawn, kAll, kNone };

// What a body builder may vary: a tag unique to the case (names, emails,
// idempotency keys), the amount it chose, and the generator.
struct BuildContext {
  const TargetFacts& facts;
  Rng& rng;
  std::string tag;
  // The JSON bodies the case sent so far, by operation: an upload's CSV
  // follows its job's delimiter and line ending.
  std::map<std::string, nlohmann::json> sent = {};
  Fill fill = Fill::kDrawn;
  // The optional members the last body built got (pointers, parents
  // first): what a shrinker may cut from a valid request.
  std::vector<std::string> added = {};
};

struct Operation {
  std::string name;          // the explorer's own: createOneTime, readAccount, ...
  std::string operation_id;  // the route table's
  std::string method;
  // Relative to the API base, or /services/data/v{api}/...; `{api}` is the
  // target's data API version, `${var}` an earlier answer's value.
  std::string path;
  std::string needs;  // the one variable the path or body uses; "" for none
  // A valid JSON body; null for a request without one.
  std::function<nlohmann::json(BuildContext&)> body;
  // Query parameters (the data API's q=), `${var}` allowed.
  std::vector<std::pair<std::string, std::string>> query;
  // Objects whose record count a refused write must not change.
  std::vector<std::string> counts;
  bool root = false;  // may start a case (needs nothing)
  // A body that is not JSON (a Bulk upload's CSV), sent as `content_type`.
  std::function<std::string(BuildContext&)> raw = nullptr;
  std::string content_type = "";
  // Not null: the step polls the request until its answer holds this (a
  // Bulk job's state); a wait, not a request the explorer judges.
  nlohmann::json await = nullptr;
  bool ends = false;  // nothing follows it (a delete, an abort)
  // It moves the record its `needs` names on (a Bulk job uploaded, closed):
  // links from steps before it on that variable are no longer followed.
  bool advances = false;
};

const std::vector<Operation>& operations();
const Operation* find_operation(const std::string& name);

// The operation's request with its valid body; `{api}` replaced.
RequestSpec build_request(const Operation& op, BuildContext& ctx);

}  // namespace runner::explore
