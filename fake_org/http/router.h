#pragma once
// Method + path-template routing for one area of the server (the API under its
// base path, the admin API). Tells "no such path" (404) from "path exists,
// wrong method" (405), which cpp-httplib's own routing cannot.
//
// Routes are added at start-up only; dispatch is read-only and thread-safe.
#include <httplib.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace fake_org::http {

struct Call {
  const httplib::Request& req;
  httplib::Response& res;
  std::map<std::string, std::string> params;  // "{ID}" segments by name
  std::string client_id;                      // of the bearer token, when authenticated
};

class Router {
 public:
  using Handler = std::function<void(Call&)>;
  // pattern: "/PaymentIntent/{ID}"; segments in braces capture one path segment.
  void add(std::string method, std::string pattern, Handler handler);

  enum class Outcome { kHandled, kNotFound, kMethodNotAllowed };
  struct Match {
    Outcome outcome = Outcome::kNotFound;
    const Handler* handler = nullptr;
    std::map<std::string, std::string> params;
    std::string allowed;  // "GET, POST" for 405 answers
  };
  Match match(std::string_view method, std::string_view path) const;

 private:
  struct Route {
    std::string method;
    std::vector<std::string> segments;
    Handler handler;
  };
  std::vector<Route> routes_;
};

// cpp-httplib routes by method, so a path it serves for POST only answers a
// GET with 404. This registers every other method of pattern (GET, POST, PUT,
// PATCH, DELETE) to answer 405 with Allow: allowed ("GET, POST").
void answer_other_methods_with_405(httplib::Server& server, const std::string& pattern,
                                   const std::string& allowed);

}  // namespace fake_org::http
