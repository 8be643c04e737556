#pragma once
// The router: the rows of the route table (contracts/routes.yaml) bound to
// their handlers by operationId. Tells "no such path" (404) from "path
// exists, wrong method" (405), which cpp-httplib's own routing cannot.
//
// Locking rule: a Router is immutable once constructed (at start-up); match()
// only reads and is safe from any number of threads.
#include <httplib.h>

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "checker/route_table.h"

namespace fake_org::http {

struct Call {
  const httplib::Request& req;
  httplib::Response& res;
  std::map<std::string, std::string> params;  // "{ID}" segments by name
  std::string client_id;                      // of the bearer token, when authenticated
};

using Handler = std::function<void(Call&)>;

// Handlers by operationId, before they are mounted.
class Handlers {
 public:
  void on(const std::string& operation_id, Handler handler);
  bool has(const std::string& operation_id) const { return by_id_.count(operation_id) > 0; }
  std::vector<std::string> operation_ids() const;

 private:
  friend class Router;
  std::map<std::string, Handler> by_id_;
  std::vector<std::string> twice_;  // ids given two handlers
};

// A row without a handler, a handler without a row, or a handler given twice.
class MountError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct MountOptions {
  std::string base_path;           // where the area mounted at "$base_path" lives
  std::vector<std::string> areas;  // the areas to mount; empty: all of the table's
  // Mount only the rows that have a handler: a test of one handler group.
  // Every handler still needs a row. The server never mounts partially.
  bool partial = false;
};

class Router {
 public:
  // Binds every row of the mounted areas to its handler; throws MountError
  // naming each row without a handler and each handler without a row (and
  // each operationId given two handlers).
  Router(const contracts::RouteTable& table, Handlers handlers, MountOptions options);

  // kOptions: an OPTIONS request for a path some row has (`allowed` lists
  // its methods); OPTIONS never reaches a handler.
  enum class Outcome { kHandled, kNotFound, kMethodNotAllowed, kOptions };
  struct Match {
    Outcome outcome = Outcome::kNotFound;
    const contracts::RouteArea* area = nullptr;  // null: under no area's mount
    const contracts::RouteRow* row = nullptr;
    const Handler* handler = nullptr;
    std::map<std::string, std::string> params;
    std::string allowed;    // "GET, HEAD, POST, OPTIONS" for 405 and OPTIONS answers
    std::string_view path;  // the request's path relative to the area's mount
  };
  // `path` is the request's whole path: the areas mounted at "/" first (the
  // path must be one of theirs), then the first area whose mount it is under.
  // Empty segments never count ("/a//b/" is "/a/b"); HEAD takes a GET row.
  Match match(std::string_view method, std::string_view path) const;

  // The distinct paths of the mounted rows, whole ("/services/oauth2/token").
  std::vector<std::string> mounted_paths() const;
  std::vector<const contracts::RouteArea*> areas() const;

 private:
  struct Segment {
    std::string text;  // the literal, or the parameter's name
    bool param = false;
    contracts::ParamChars chars = contracts::ParamChars::kAny;
  };
  struct Entry {
    const contracts::RouteRow* row;
    std::vector<Segment> segments;
    Handler handler;
  };
  struct Mount {
    const contracts::RouteArea* area;
    std::string prefix;    // "" for "/", "/__admin" for "/__admin/"
    bool bare_ok = false;  // the prefix alone is under the mount ($base_path)
    // Entries by their first literal segment; those that start with a
    // parameter are tried for every path.
    std::map<std::string, std::vector<Entry>, std::less<>> by_first;
    std::vector<Entry> param_first;
  };
  void add_entry(Mount& mount, const contracts::RouteRow& row, Handler handler);
  bool match_in(const Mount& mount, std::string_view method, std::string_view path, Match& m) const;
  std::vector<Mount> mounts_;  // root mounts first, then by prefix
};

}  // namespace fake_org::http
