#include "commands/explore/route_scope.h"

#include <set>

#include "checker/route_table.h"
#include "commands/explore/operations.h"

namespace runner::explore {

namespace {

constexpr char kScopeToken[] =
    "takes the connected app's credentials, which the runner keeps to its session "
    "(scenarios/oauth/ covers it)";
constexpr char kScopeRevoke[] =
    "would end the runner's own session; scenarios/oauth/token_errors.yaml covers it";
constexpr char kScopeAuthorize[] =
    "a browser's login page (scenarios/oauth/authorization_code.yaml, the Chromium test)";
constexpr char kScopeLogin[] =
    "the login host's mount of the same handler (decisions 52-56): a real org serves it on "
    "another host than the instance the runner talks to";
constexpr char kScopeMore[] =
    "needs an answer of more than one batch (2,000 rows; 200 at the smallest batch size); "
    "scenarios/data/query_paths_and_columns.yaml covers it";

}  // namespace

const std::vector<UnexploredRoute>& unexplored_routes() {
  static const std::vector<UnexploredRoute> table = {
      {"postToken", kScopeToken},
      {"postLoginToken", kScopeToken},
      {"postSandboxLoginToken", kScopeToken},
      {"postRevoke", kScopeRevoke},
      {"getRevoke", kScopeRevoke},
      {"postLoginRevoke", kScopeRevoke},
      {"getLoginRevoke", kScopeRevoke},
      {"postSandboxLoginRevoke", kScopeRevoke},
      {"getSandboxLoginRevoke", kScopeRevoke},
      {"getAuthorize", kScopeAuthorize},
      {"postAuthorize", kScopeAuthorize},
      {"getLoginAuthorize", kScopeAuthorize},
      {"postLoginAuthorize", kScopeAuthorize},
      {"getSandboxLoginAuthorize", kScopeAuthorize},
      {"postSandboxLoginAuthorize", kScopeAuthorize},
      {"getLoginIdentity", kScopeLogin},
      {"postLoginIdentity", kScopeLogin},
      {"getSandboxLoginIdentity", kScopeLogin},
      {"postSandboxLoginIdentity", kScopeLogin},
      {"getLoginUserInfo", kScopeLogin},
      {"postLoginUserInfo", kScopeLogin},
      {"getSandboxLoginUserInfo", kScopeLogin},
      {"postSandboxLoginUserInfo", kScopeLogin},
      {"getDataQueryMore", kScopeMore},
      {"getDataQueryAllMore", kScopeMore},
      {"patchQueryJob",
       "a query job may end before its abort arrives (at once on the fake, at the org's pace on "
       "a sandbox), so whether 200 or 400 is right is a race; aborting an ingest job is explored"},
  };
  return table;
}

std::vector<std::string> route_scope_gaps() {
  std::set<std::string> explored, excused, rows;
  for (const auto& op : operations()) explored.insert(op.operation_id);
  for (const auto& u : unexplored_routes()) excused.insert(u.operation_id);
  std::vector<std::string> out;
  for (const auto& row : contracts::route_table().rows) {
    rows.insert(row.operation_id);
    if (row.area != "api" && row.area != "oauth" && row.area != "data") continue;
    if (explored.count(row.operation_id) || excused.count(row.operation_id)) continue;
    out.push_back(row.operation_id + ": no operation, and no reason in unexplored_routes()");
  }
  for (const auto& id : excused)
    if (!rows.count(id) || explored.count(id))
      out.push_back(
          id + ": unexplored_routes() names it, but " +
          (rows.count(id) ? "an operation reaches it" : "the route table has no such row"));
  return out;
}

}  // namespace runner::explore
