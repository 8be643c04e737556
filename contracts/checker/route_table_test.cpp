// The route table (contracts/routes.yaml) as the checker reads it: its
// contract rows are exactly the checker's routes, with their areas' answers;
// and a table that contradicts itself is refused with every problem named.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "checker.h"
#include "route_table.h"
#include "routes.h"

using contracts::parse_route_table;
using contracts::route_table;
using contracts::RouteTableError;

namespace {

std::string problems_of(const std::string& yaml) {
  try {
    parse_route_table(yaml, "test.yaml");
  } catch (const RouteTableError& e) {
    return e.what();
  }
  return "";
}

const char* const kAreas = R"(
areas:
  api:
    mount: $base_path
    guard: bearer
    contract:
      every_route: {500: error_response}
      lenient_route_error: any_error_response
      lenient_other_error: any_error_response
  admin:
    mount: /__admin/
    guard: loopback
)";

}  // namespace

TEST_CASE("the compiled route table is contracts/routes.yaml as parse_route_table reads it",
          "[routes]") {
  std::ifstream in(std::string(PROJECT_SOURCE_DIR) + "/contracts/routes.yaml");
  std::ostringstream yaml;
  yaml << in.rdbuf();
  const contracts::RouteTable parsed = parse_route_table(yaml.str());
  const contracts::RouteTable& compiled = route_table();
  REQUIRE(compiled.areas.size() == parsed.areas.size());
  for (size_t i = 0; i < parsed.areas.size(); ++i) {
    const auto& a = compiled.areas[i];
    const auto& b = parsed.areas[i];
    INFO("area " << b.name);
    CHECK(a.name == b.name);
    CHECK(a.mount == b.mount);
    CHECK(a.guard == b.guard);
    CHECK(a.not_found == b.not_found);
    CHECK(a.has_contract == b.has_contract);
    CHECK(a.contract.every_route == b.contract.every_route);
    CHECK(a.contract.no_route == b.contract.no_route);
    CHECK(a.contract.wrong_method == b.contract.wrong_method);
    CHECK(a.contract.lenient_route_error == b.contract.lenient_route_error);
    CHECK(a.contract.lenient_other_error == b.contract.lenient_other_error);
  }
  REQUIRE(compiled.rows.size() == parsed.rows.size());
  for (size_t i = 0; i < parsed.rows.size(); ++i) {
    const auto& a = compiled.rows[i];
    const auto& b = parsed.rows[i];
    INFO("row " << b.operation_id);
    CHECK(a.operation_id == b.operation_id);
    CHECK(a.method == b.method);
    CHECK(a.path == b.path);
    CHECK(a.area == b.area);
    CHECK(a.auth == b.auth);
    CHECK(a.request == b.request);
    CHECK(a.request_schema == b.request_schema);
    CHECK(a.responses == b.responses);
    CHECK(a.text_responses == b.text_responses);
    CHECK(a.params == b.params);
    CHECK(a.summary == b.summary);
    CHECK(a.openapi == b.openapi);
    CHECK(a.line == b.line);
  }
}

TEST_CASE("the checker's routes are the table's contract rows", "[routes]") {
  std::set<std::string> contract_rows;
  for (const auto& row : route_table().rows) {
    if (row.in_contract()) contract_rows.insert(row.method + " " + row.path);
  }
  std::set<std::string> checker_routes;
  for (const auto& route : contracts::routes::all())
    checker_routes.insert(route.method + " " + route.path);
  CHECK(checker_routes == contract_rows);
  CHECK(!contract_rows.empty());

  for (const auto& route : contracts::routes::all()) {
    INFO(route.method << " " << route.path);
    const contracts::RouteRow* row = nullptr;
    for (const auto& r : route_table().rows)
      if (r.method == route.method && r.path == route.path) row = &r;
    REQUIRE(row);
    const contracts::RouteArea* area = route_table().area(row->area);
    CHECK(route.oauth == (row->area == "oauth"));
    CHECK(route.request_schema == row->request_schema);
    // The row's own responses, then its area's for every route.
    std::map<int, std::string> expected = area->contract.every_route;
    for (const auto& [status, schema] : row->responses) expected[status] = schema;
    CHECK(route.responses == expected);
  }
}

TEST_CASE("every operation that takes a JSON or CSV body, and no other, allows 413", "[routes]") {
  for (const auto& route : contracts::routes::all()) {
    INFO(route.method << " " << route.path);
    const bool body = !route.request_schema.empty() || route.csv_request;
    CHECK(route.responses.count(413) == (body ? 1u : 0u));
  }
}

TEST_CASE("the route table refuses rows that contradict it, naming each with its line",
          "[routes]") {
  const std::string text = problems_of(std::string(kAreas) + R"(
routes:
  - operationId: getThing
    method: GET
    path: /Thing
    area: api
    auth: bearer
    respones: {}
  - operationId: getThing
    method: FETCH
    path: Thing
    area: api
    auth: bearer
  - operationId: getOther
    method: GET
    path: /Other
    area: nowhere
    auth: bearer
  - operationId: getAdminThing
    method: GET
    path: /thing/{id}
    area: admin
    auth: none
    params: {name: {chars: word}}
    responses: {200: some_response, 2000: other}
)");
  INFO(text);
  CHECK(text.find("test.yaml:20: getThing: unknown key 'respones'") != std::string::npos);
  CHECK(text.find("getThing: method must be one of") != std::string::npos);
  CHECK(text.find("getThing: path must start with '/'") != std::string::npos);
  CHECK(text.find("getThing: operationId used twice") != std::string::npos);
  CHECK(text.find("getOther: unknown area 'nowhere'") != std::string::npos);
  CHECK(text.find("getAdminThing: area admin checks its guard on every row") != std::string::npos);
  CHECK(text.find("getAdminThing: params names {name}, which the path lacks") != std::string::npos);
  CHECK(text.find("'2000' is not an HTTP status") != std::string::npos);
  CHECK(text.find("getAdminThing: names response schemas, but area admin has no contract") !=
        std::string::npos);

  CHECK(problems_of(std::string(kAreas) + R"(
routes:
  - {operationId: a, method: GET, path: /x, area: api, auth: bearer}
  - {operationId: b, method: GET, path: /x, area: api, auth: bearer}
)")
            .find("b: GET /x twice in area api") != std::string::npos);
  CHECK(problems_of(std::string(kAreas) + "routes:\n  - {operationId: a, method: GET, path: /x, "
                                          "area: api, auth: bearer}\n")
            .empty());
}

TEST_CASE("a response marked content: text is plain text, outside the schemas", "[routes]") {
  const contracts::RouteTable t = parse_route_table(std::string(kAreas) + R"(
routes:
  - operationId: getThing
    method: GET
    path: /Thing
    area: api
    auth: bearer
    responses:
      200: some_response
      403: {content: text, example: Bad_OAuth_Token, description: The platform's code.}
)",
                                                    "test.yaml");
  REQUIRE(t.rows.size() == 1);
  CHECK(t.rows[0].responses == std::map<int, std::string>{{200, "some_response"}});
  CHECK(t.rows[0].text_responses == std::set<int>{403});
  // Text alone would leave the row outside the contract, its text unchecked.
  CHECK(problems_of(std::string(kAreas) + R"(
routes:
  - {operationId: a, method: GET, path: /x, area: api, auth: bearer, responses: {403: {content: text}}}
)")
            .find("a: a row with text responses names a schema for another status") !=
        std::string::npos);
}

TEST_CASE("the identity service and the login hosts' OAuth rows are in the contract", "[routes]") {
  namespace routes = contracts::routes;
  const std::string id = "/login/id/00D5J0000001234UAA/0055J0000000001QAA";
  routes::Match m = routes::match("GET", "http://localhost:8080" + id + "?oauth_token=x");
  REQUIRE(m.route);
  CHECK(m.area == routes::Area::kOAuth);
  CHECK(routes::response_schema(m, 200, contracts::Profile::kStrict) ==
        std::optional<std::string>("identity_response"));
  CHECK(routes::text_response(m, 403));
  CHECK(routes::response_schema(m, 403, contracts::Profile::kStrict) == std::nullopt);
  CHECK(routes::response_schema(m, 403, contracts::Profile::kLenient) == std::nullopt);
  auto checker = contracts::Checker::embedded(contracts::Profile::kStrict);
  CHECK(checker->check_response("GET", id, 403, "Bad_OAuth_Token").ok());
  CHECK(checker->check_response("GET", id, 404, "Bad_Id").ok());
  // A status the row lists neither as a schema nor as text is still a violation.
  CHECK_FALSE(checker->check_response("GET", id, 500, "oops").ok());
  CHECK(routes::match("POST", "/test/services/oauth2/token").route);
  CHECK(routes::match("GET", "/services/oauth2/userinfo").route);
  CHECK(routes::match("GET", "/id/00D5J0000001234/0055J0000000001").route);
  // The API's paths are the API's still.
  CHECK(routes::match("GET", "/services/apexrest/cpm/v2/PaymentMethods").area ==
        routes::Area::kApi);
}

TEST_CASE("the checker reads trailing and doubled slashes as the platform serves them",
          "[routes]") {
  namespace routes = contracts::routes;
  for (const char* url :
       {"/services/data/v59.0/query/?q=SELECT+Id+FROM+Contact", "//services/data/v59.0/query",
        "http://localhost:8080//services/data/v68.0/query/"}) {
    INFO(url);
    routes::Match m = routes::match("GET", url);
    REQUIRE(m.route);
    CHECK(m.area == routes::Area::kData);
    CHECK(m.route->path == "/{version}/query");
    CHECK(routes::response_schema(m, 200, contracts::Profile::kStrict) ==
          std::optional<std::string>("query_response"));
  }
  CHECK(routes::match("GET", "/services/data/").route->path == "/services/data");
  CHECK(routes::match("POST", "/services/apexrest/cpm/v2/PaymentIntent/").route);
  // A query's answer is either a batch of records or, with columns=true, its columns.
  auto checker = contracts::Checker::embedded(contracts::Profile::kStrict);
  const nlohmann::json columns = {{"columnMetadata", nlohmann::json::array()},
                                  {"entityName", "Contact"},
                                  {"groupBy", false},
                                  {"idSelected", false},
                                  {"keyPrefix", "003"}};
  CHECK(checker->check_response("GET", "/services/data/v59.0/query/", 200, columns).ok());
  const nlohmann::json records = {
      {"totalSize", 0}, {"done", true}, {"records", nlohmann::json::array()}};
  CHECK(checker->check_response("GET", "/services/data/v59.0/queryAll", 200, records).ok());
  nlohmann::json both = columns;
  both["records"] = nlohmann::json::array();
  CHECK_FALSE(checker->check_response("GET", "/services/data/v59.0/query", 200, both).ok());
}
