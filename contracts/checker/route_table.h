#pragma once
// contracts/routes.yaml as data: every route fake-org serves, one row per
// method and path. fake-org's router mounts the rows; the checker
// (routes.h) takes the rows that name response schemas as the contract.
//
// A RouteTable is immutable once built. route_table() builds the table the
// build compiled from the file (route_table_data.h) once (a function-local
// static) and is safe to call from any thread.
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace contracts {

enum class AuthKind { kBearer, kClient, kNone, kLoopback, kSignature };
enum class RequestContent { kNone, kJson, kForm, kCsv };
// What a {Name} segment accepts besides "not empty".
enum class ParamChars { kAny, kWord };  // kWord: [A-Za-z0-9_]+

// Schemas the contract allows for answers that are not a row's own.
struct AreaContract {
  std::map<int, std::string> every_route;   // any row of the area may answer these
  std::map<int, std::string> no_route;      // a path under the mount that no row has
  std::map<int, std::string> wrong_method;  // a row's path with another method
  std::string lenient_route_error;          // lenient profile: any other 4xx/5xx of a row
  std::string lenient_other_error;          // ... of no row
};

struct RouteArea {
  std::string name;
  // "$base_path": the org's base path and every path under it; "/": whole
  // paths from the root; "/x/": every path under /x/ (rows' paths keep the
  // leading slash).
  std::string mount;
  AuthKind guard = AuthKind::kNone;  // runs before routing: kBearer, kLoopback or kNone
  std::string not_found;             // the 404 message; "{path}" stands for the request's path
  bool has_contract = false;
  AreaContract contract;
};

struct RouteRow {
  std::string operation_id;
  std::string method;
  std::string path;  // relative to the area's mount; {Name} captures a segment
  std::string area;
  AuthKind auth = AuthKind::kNone;
  RequestContent request = RequestContent::kNone;
  std::string request_schema;            // with kJson
  std::map<int, std::string> responses;  // status -> schema
  // Statuses whose body is the platform's plain text (`content: text`), not
  // JSON: the identity service's "Bad_OAuth_Token" and the like.
  std::set<int> text_responses;
  std::map<std::string, ParamChars> params;
  std::string summary;
  bool openapi = false;
  int line = 0;  // in the table's source

  // A row that names a response schema is part of the contract.
  bool in_contract() const { return !responses.empty(); }
};

struct RouteTable {
  std::vector<RouteArea> areas;
  std::vector<RouteRow> rows;

  const RouteArea* area(std::string_view name) const;
};

class RouteTableError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses a table and checks it (unknown keys, duplicates, rows that
// contradict their area); the error lists every problem with its line.
RouteTable parse_route_table(std::string_view yaml,
                             const std::string& source = "contracts/routes.yaml");

// The table compiled into the binary: contracts/routes.yaml as
// parse_route_table read it at build time.
const RouteTable& route_table();

// Splits at every '/', empty segments kept: "/PaymentIntent/{ID}" ->
// {"", "PaymentIntent", "{ID}"}, "/a//b/" -> {"", "a", "", "b", ""}.
std::vector<std::string_view> path_segments(std::string_view path);
inline bool is_param_segment(std::string_view s) {
  return s.size() > 2 && s.front() == '{' && s.back() == '}';
}

}  // namespace contracts
