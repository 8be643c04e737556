// The route table (contracts/routes.yaml) against the server's handlers: every
// row is mounted with a handler and every handler has a row; a mismatch stops
// the mount. Then the router's matching, area by area, on the real table.
#include <catch2/catch.hpp>

#include <set>

#include "app/org_factory.h"
#include "checker/route_table.h"
#include "fixture/fixture_loader.h"
#include "http/dispatch.h"
#include "http/fault_injector.h"
#include "http/request_journal.h"
#include "http/routes.h"

using namespace fake_org;
using namespace fake_org::http;
using contracts::route_table;

namespace {

const std::string kBase = "/services/apexrest/cpm/v2";

OrgServices default_org() {
  auto load = load_embedded_fixture("default.yaml");
  REQUIRE(load.ok());
  auto built = app::build_org(*load.config);
  REQUIRE(built.ok());
  return *built;
}

std::set<std::string> table_ids() {
  std::set<std::string> ids;
  for (const auto& row : route_table().rows) ids.insert(row.operation_id);
  return ids;
}

// A do-nothing handler for each operationId given.
Handlers noop_handlers(const std::set<std::string>& ids) {
  Handlers handlers;
  for (const std::string& id : ids) handlers.on(id, [](Call&) {});
  return handlers;
}

std::string mount_error(Handlers handlers) {
  try {
    Router router(route_table(), std::move(handlers), {kBase, {}});
  } catch (const MountError& e) {
    return e.what();
  }
  return "";
}

Router table_router() {
  return Router(route_table(), noop_handlers(table_ids()), {kBase, {}});
}

}  // namespace

TEST_CASE("every row of the route table has a server handler and every handler a row", "[routes]") {
  OrgServices services = default_org();
  RequestJournal journal(kBase);
  FaultInjector faults;
  Handlers handlers = all_handlers(services, journal, faults, false);
  const std::vector<std::string> ids = handlers.operation_ids();
  CHECK(std::set<std::string>(ids.begin(), ids.end()) == table_ids());
  CHECK(mount_error(std::move(handlers)).empty());
}

TEST_CASE("a row without a handler stops the mount, naming the row", "[routes]") {
  std::set<std::string> ids = table_ids();
  ids.erase("getRecurring");
  ids.erase("getAdminClock");
  const std::string error = mount_error(noop_handlers(ids));
  INFO(error);
  CHECK(error.find("no handler for getRecurring (GET /Recurring/{ID}, contracts/routes.yaml:") !=
        std::string::npos);
  CHECK(error.find("no handler for getAdminClock (GET /clock") != std::string::npos);
}

TEST_CASE("a handler without a row stops the mount, naming the handler", "[routes]") {
  std::set<std::string> ids = table_ids();
  ids.insert("getMandate");
  const std::string error = mount_error(noop_handlers(ids));
  INFO(error);
  CHECK(error.find("handler getMandate has no row in contracts/routes.yaml") != std::string::npos);
}

TEST_CASE("an operationId given two handlers stops the mount", "[routes]") {
  Handlers handlers = noop_handlers(table_ids());
  handlers.on("postPaymentIntent", [](Call&) {});
  CHECK(mount_error(std::move(handlers)).find("two handlers for postPaymentIntent") !=
        std::string::npos);
}

TEST_CASE("the router finds a row by segments and captures its parameters", "[routes]") {
  Router router = table_router();
  const std::string path = kBase + "/PaymentIntent/pi_1";  // m.path is a view into it
  auto m = router.match("GET", path);
  REQUIRE(m.outcome == Router::Outcome::kHandled);
  CHECK(m.row->operation_id == "getPaymentIntent");
  CHECK(m.area->name == "api");
  CHECK(m.path == "/PaymentIntent/pi_1");
  CHECK(m.params.at("ID") == "pi_1");
  CHECK(router.match("GET", kBase + "/PaymentIntent/pi%5F2").params.at("ID") == "pi_2");

  auto record = router.match("GET", "/__admin/records/Contact/003x");
  REQUIRE(record.outcome == Router::Outcome::kHandled);
  CHECK(record.row->operation_id == "getAdminRecord");
  CHECK(record.params.at("Type") == "Contact");
  CHECK(record.params.at("Id") == "003x");
}

TEST_CASE("every area ignores empty segments: doubled and trailing slashes route", "[routes]") {
  Router router = table_router();
  CHECK(router.match("GET", kBase + "/PaymentMethods/").outcome == Router::Outcome::kHandled);
  CHECK(router.match("GET", kBase + "//PaymentMethods").outcome == Router::Outcome::kHandled);
  CHECK(router.match("GET", "/__admin//health/").outcome == Router::Outcome::kHandled);
  // The mount itself: the API's base path is the API's (401 before 404); the
  // admin API's is not.
  auto bare = router.match("GET", kBase);
  CHECK(bare.area != nullptr);
  CHECK(bare.outcome == Router::Outcome::kNotFound);
  CHECK(router.match("GET", kBase + "X/PaymentMethods").area == nullptr);
  CHECK(router.match("GET", "/__admin").area == nullptr);
  CHECK(router.match("GET", "/__admin/").area->name == "admin");

  CHECK(router.match("POST", "/services/oauth2/token").outcome == Router::Outcome::kHandled);
  CHECK(router.match("POST", "/services/oauth2/token/").outcome == Router::Outcome::kHandled);
  CHECK(router.match("POST", "//services/oauth2/token").outcome == Router::Outcome::kHandled);
  // The data API as the platform's own examples and clients write it.
  const std::vector<std::pair<std::string, std::string>> data = {
      {"GET", "/services/data/v59.0/query/"},
      {"GET", "/services/data/v59.0/queryAll/"},
      {"GET", "/services/data/v59.0/sobjects/Contact/"},
      {"POST", "/services/data/v59.0/sobjects/Contact/"},
      {"GET", "/services/data/v59.0/"},
      {"GET", "//services/data/v59.0/query"},
      {"GET", "//services/data/v51.0/sobjects/User/005x/"},
      {"GET", "///services/data/v59.0//limits//"}};
  for (const auto& [method, path] : data) {
    INFO(method << " " << path);
    auto m = router.match(method, path);
    CHECK(m.outcome == Router::Outcome::kHandled);
    CHECK(m.area->name == "data");
  }
  CHECK(router.match("GET", "/services/data/").row->operation_id == "getDataVersions");
  CHECK(router.match("GET", "//services/data").row->operation_id == "getDataVersions");
  CHECK(router.match("GET", "/services/data/v59.0/query/").row->operation_id == "getDataQuery");
  // A session id is a word: anything else is no PSP page at all.
  CHECK(router.match("GET", "/psp/checkout/ps_AB12").outcome == Router::Outcome::kHandled);
  CHECK(router.match("GET", "/psp/checkout/ps-AB12").area == nullptr);
  CHECK(router.match("POST", "/psp/checkout/ps_1/challenge").row->operation_id ==
        "postPspChallenge");
}

TEST_CASE("a known path with another method lists the allowed ones in a fixed order", "[routes]") {
  Router router = table_router();
  auto faults = router.match("PUT", "/__admin/faults");
  CHECK(faults.outcome == Router::Outcome::kMethodNotAllowed);
  CHECK(faults.allowed == "GET, HEAD, POST, DELETE, OPTIONS");
  CHECK(router.match("DELETE", "/services/oauth2/revoke").allowed == "GET, HEAD, POST, OPTIONS");
  CHECK(router.match("PATCH", "/psp/checkout/abc").allowed == "GET, HEAD, POST, OPTIONS");
  CHECK(router.match("PUT", kBase + "/PaymentIntent").allowed == "POST, OPTIONS");
}

TEST_CASE("HEAD takes the GET row in every area, OPTIONS takes none", "[routes]") {
  Router router = table_router();
  CHECK(router.match("HEAD", "/services/oauth2/authorize").row->operation_id == "getAuthorize");
  CHECK(router.match("HEAD", "/psp/checkout/abc").outcome == Router::Outcome::kHandled);
  CHECK(router.match("HEAD", "/services/oauth2/token").allowed == "POST, OPTIONS");
  CHECK(router.match("HEAD", kBase + "/PaymentMethods").row->operation_id == "getPaymentMethods");
  CHECK(router.match("HEAD", "/services/data/v59.0").row->operation_id == "getDataResources");
  CHECK(router.match("HEAD", "/__admin/health").row->operation_id == "getAdminHealth");

  auto options = router.match("OPTIONS", "/services/data/v59.0/sobjects/Contact");
  CHECK(options.outcome == Router::Outcome::kOptions);
  CHECK(options.row == nullptr);
  CHECK(options.allowed == "GET, HEAD, POST, OPTIONS");
  CHECK(router.match("OPTIONS", kBase + "/PaymentIntent").allowed == "POST, OPTIONS");
  CHECK(router.match("OPTIONS", "/services/data/v59.0/nope").outcome == Router::Outcome::kNotFound);
}

TEST_CASE("404 bodies come from the area", "[routes]") {
  Router router = table_router();
  httplib::Response admin;
  send_not_found(admin, router.match("GET", "/__admin/nope").area, "/__admin/nope");
  CHECK(admin.status == 404);
  CHECK(nlohmann::json::parse(admin.body)[0]["message"] == "No admin endpoint /__admin/nope");
  httplib::Response api;
  send_not_found(api, router.match("GET", kBase + "/Nope").area, kBase + "/Nope");
  CHECK(nlohmann::json::parse(api.body)[0]["message"] == "Could not find a match for URL");
  httplib::Response nowhere;
  send_not_found(nowhere, nullptr, "/elsewhere");
  CHECK(nlohmann::json::parse(nowhere.body)[0]["errorCode"] == "NOT_FOUND");
}
