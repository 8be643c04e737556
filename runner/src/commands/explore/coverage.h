#pragma once
// What a run's cases exercised of the contract: per route (operationId) the
// valid and near-miss requests, and per request-schema property whether a
// valid request sent it and a near-miss changed it (or the object holding it).
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands/explore/explore_case.h"

namespace runner::explore {

struct RouteCoverage {
  size_t valid = 0, near_miss = 0;
};
struct PropertyCoverage {
  bool valid = false, near_miss = false;
};

struct Coverage {
  std::map<std::string, RouteCoverage> routes;  // by operationId
  // "<schema>#<pointer>", array items as "*"; every property the request
  // schemas of the operations' bodies name, touched or not (a map's members,
  // such as CrmFields' field names, are not properties).
  std::map<std::string, PropertyCoverage> properties;
};

Coverage coverage(const std::vector<Case>& cases);

// A property's key in Coverage::properties: "<schema>#<pointer>", array
// indexes as "*".
std::string property_key(const std::string& schema, const std::string& pointer);

// The named properties of a request schema, as pointers ("/Payer/Contact").
std::vector<std::string> schema_properties(const std::string& schema);

// What the cases left out: a route of operations() without a valid request,
// one that can be changed (a body, an id) without a near-miss, a property a
// valid request sent that no near-miss changed. One line each; empty: none.
std::vector<std::string> coverage_gaps(const Coverage& c);

void print_coverage(const Coverage& c, std::ostream& out);
nlohmann::json coverage_json(const Coverage& c);

}  // namespace runner::explore
