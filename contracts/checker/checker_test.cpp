#include "checker.h"

#include <filesystem>
#include <set>
#include <thread>

#include <catch2/catch.hpp>

#include "route_table.h"
#include "uri.h"

using contracts::Checker;
using contracts::CheckResult;
using contracts::Profile;
using nlohmann::json;

namespace {

std::shared_ptr<const Checker> strict() {
  return Checker::embedded(Profile::kStrict);
}
std::shared_ptr<const Checker> lenient() {
  return Checker::embedded(Profile::kLenient);
}

const std::string kBase = "/services/apexrest/cpm/v2";

json processor(json is_default) {
  return {{"Name", "Stripe"},
          {"IsDefault", is_default},
          {"InitialPaymentonRecurring", "Required"},
          {"SupportsRecurring", true},
          {"RequiresPayerAction", true},
          {"Targets", json::array()},
          {"Parameters", json::array()},
          {"RequiredPackageActions", json::array()}};
}

json methods(json proc) {
  return {{"PaymentMethods", {{{"Name", "CreditCard"}, {"Processors", {proc}}}}}};
}

}  // namespace

TEST_CASE("responses map to schemas by method, path and status", "[routes]") {
  auto c = strict();
  CHECK(c->response_schema("POST", kBase + "/PaymentIntent", 200) == "payment_intent_response");
  CHECK(c->response_schema("GET", kBase + "/PaymentIntent/pi_abc", 200) ==
        "payment_intent_status_response");
  CHECK(c->response_schema("GET", kBase + "/Installment/a0B5J000001AbCdUAK", 200) ==
        "installment_response");
  CHECK(c->response_schema("GET", kBase + "/Recurring/a0D5J000003QrStUAK", 200) ==
        "recurring_response");
  CHECK(c->response_schema("GET", kBase + "/PaymentMethods", 200) == "payment_methods_response");
  CHECK(c->response_schema("GET", kBase + "/SourceConnector", 200) == "source_connectors_response");
  CHECK(c->response_schema("GET", kBase + "/PackageActions", 200) == "package_actions_response");
  CHECK(c->response_schema("POST", kBase + "/Payment", 200) == "payment_response");
  CHECK(c->response_schema("GET", kBase + "/Payment/a0B5J000001AbCdUAK", 200) ==
        "payment_status_response");
  CHECK(c->response_schema("POST", "/services/oauth2/token", 200) == "oauth_token_response");
  CHECK(c->response_schema("POST", "/services/oauth2/revoke", 200) == "oauth_revoke_response");

  SECTION("error statuses of a route") {
    CHECK(c->response_schema("POST", kBase + "/PaymentIntent", 400) == "error_400_response");
    CHECK(c->response_schema("POST", kBase + "/PaymentIntent", 422) == "error_response");
    CHECK(c->response_schema("GET", kBase + "/Installment/x", 404) == "error_response");
    CHECK(c->response_schema("POST", kBase + "/PaymentIntent", 409) == "error_response");
    CHECK(c->response_schema("GET", kBase + "/PaymentMethods", 500) == "error_response");
    CHECK(c->response_schema("GET", kBase + "/PaymentMethods", 401) == "platform_error_response");
    CHECK(c->response_schema("POST", "/services/oauth2/token", 400) == "oauth_error_response");
    CHECK(c->response_schema("POST", "/services/oauth2/token", 401) == "oauth_error_response");
    CHECK(c->response_schema("POST", "/services/oauth2/revoke", 400) == "oauth_error_response");
  }
  SECTION("unknown URLs and wrong methods get the platform's body") {
    CHECK(c->response_schema("GET", kBase + "/Nope", 404) == "platform_error_response");
    CHECK(c->response_schema("GET", kBase + "/PaymentIntent/", 404) == "platform_error_response");
    CHECK(c->response_schema("DELETE", kBase + "/PaymentIntent", 405) == "platform_error_response");
    CHECK(c->response_schema("GET", kBase + "/Nope", 405) == std::nullopt);
    CHECK(c->response_schema("GET", kBase + "/Nope", 200) == std::nullopt);
  }
  SECTION("full URLs, any base ending in /cpm/v2, relative paths, query strings") {
    CHECK(c->response_schema(
              "get", "https://org.example:8443/services/apexrest/cpm/v2/Installment/a0B?x=1#f",
              200) == "installment_response");
    CHECK(c->response_schema("GET", "/services/apexrest/ns/cpm/v2/PaymentMethods", 200) ==
          "payment_methods_response");
    CHECK(c->response_schema("GET", "/PaymentMethods?fields=all", 200) ==
          "payment_methods_response");
    CHECK(c->response_schema("GET", "/services/apexrest/cpm/v2x/PaymentMethods", 200) ==
          std::nullopt);
  }
  SECTION("paths outside the contract have no schema") {
    CHECK(c->response_schema("GET", "/admin/clock", 200) == std::nullopt);
    CHECK(c->response_schema("GET", "/services/oauth2/authorize", 302) == std::nullopt);
    CHECK(c->response_schema("GET", "/Nope", 404) == std::nullopt);
  }
  SECTION("lenient accepts any error body for statuses the contract does not list") {
    CHECK(lenient()->response_schema("GET", kBase + "/PaymentMethods", 503) ==
          "any_error_response");
    CHECK(lenient()->response_schema("GET", kBase + "/PaymentMethods", 403) ==
          "any_error_response");
    CHECK(c->response_schema("GET", kBase + "/PaymentMethods", 503) == std::nullopt);
    CHECK(lenient()->response_schema("GET", kBase + "/PaymentMethods", 201) == std::nullopt);
  }
}

TEST_CASE("requests map to schemas, bodiless ones to none", "[routes]") {
  auto c = strict();
  CHECK(c->request_schema("POST", kBase + "/PaymentIntent") == "payment_intent_request");
  CHECK(c->request_schema("POST", "/Payment") == "payment_request");
  CHECK(c->request_schema("GET", kBase + "/PaymentMethods") == std::nullopt);
  CHECK(c->request_schema("POST", "/services/oauth2/token") == std::nullopt);

  CheckResult none = c->check_request("GET", kBase + "/PaymentMethods", json());
  CHECK(none.ok());
  CHECK_FALSE(none.matched_schema);

  CheckResult bad = c->check_request("POST", kBase + "/PaymentIntent", json::object());
  CHECK(bad.schema == "payment_intent_request");
  CHECK_FALSE(bad.ok());
}

TEST_CASE("a status outside the contract is one violation", "[check_response]") {
  CheckResult r = strict()->check_response("POST", kBase + "/PaymentIntent", 201, json::object());
  CHECK_FALSE(r.matched_schema);
  REQUIRE(r.violations.size() == 1);
  CHECK(r.violations[0].keyword == "status");
  CHECK(r.violations[0].actual == "201");
  CHECK(r.violations[0].expected == "200, 400, 401, 404, 409, 413, 422, 500");
  CHECK(r.violations[0].message ==
        "HTTP 201 is not in the strict contract for POST /PaymentIntent; expected 200, 400, 401, "
        "404, 409, 413, 422, 500");
  // 413 (body too large) belongs to the operations that take a body only.
  CHECK(strict()
            ->check_response("GET", kBase + "/PaymentMethods", 413, json::object())
            .violations.size() == 1);

  CheckResult outside = strict()->check_response("GET", "/admin/webhooks", 200, json::array());
  CHECK(outside.ok());
  CHECK_FALSE(outside.matched_schema);
  CHECK(outside.report() == "no schema applies (outside the contract)");
}

TEST_CASE("a violation says where, which keyword, expected and actual", "[check_response]") {
  json body = methods(processor("true"));
  CheckResult r = strict()->check_response("GET", kBase + "/PaymentMethods", 200, body);
  CHECK(r.schema == "payment_methods_response");
  REQUIRE(r.violations.size() == 1);
  const auto& v = r.violations[0];
  CHECK(v.pointer == "/PaymentMethods/0/Processors/0/IsDefault");
  CHECK(v.keyword == "type");
  CHECK(v.schema_location == "strict/configuration.json#/definitions/isDefault/type");
  CHECK(v.expected == "\"boolean\"");
  CHECK(v.actual == "string \"true\"");
  CHECK(r.report() ==
        "schema payment_methods_response: 1 violation\n"
        "  /PaymentMethods/0/Processors/0/IsDefault: type: expected \"boolean\"; got string "
        "\"true\" [strict/configuration.json#/definitions/isDefault/type]");

  CheckResult l = lenient()->check_response("GET", kBase + "/PaymentMethods", 200, body);
  CHECK(l.ok());
  CHECK(l.report() == "schema payment_methods_response: ok");
}

TEST_CASE("every failure is reported, not just the first", "[check_response]") {
  json proc = processor(true);
  proc.erase("Targets");
  proc["InitialPaymentonRecurring"] = "Sometimes";
  proc["RecurringRequiresInitialPayment"] = true;
  CheckResult r = strict()->validate("payment_methods_response", methods(proc));
  std::set<std::pair<std::string, std::string>> got;
  for (const auto& v : r.violations) got.insert({v.pointer, v.keyword});
  const std::string p = "/PaymentMethods/0/Processors/0";
  CHECK(got == std::set<std::pair<std::string, std::string>>{
                   {p, "required"},
                   {p + "/InitialPaymentonRecurring", "enum"},
                   {p + "/RecurringRequiresInitialPayment", "additionalProperties"}});
  for (const auto& v : r.violations) {
    if (v.keyword == "enum") CHECK(v.expected == "one of [\"Required\",\"Optional\",\"No\"]");
    if (v.keyword == "required") CHECK(v.expected == "property \"Targets\"");
  }
}

TEST_CASE("webhooks are checked by their type", "[check_webhook]") {
  json data = {{"Id", "pi_abc123"}, {"Status", "Matched"}, {"Payer", json::object()}};
  CheckResult ok = strict()->check_webhook({{"type", "paymentIntent.processed"}, {"data", data}});
  CHECK(ok.schema == "webhook_payment_intent");
  CHECK(ok.ok());

  CheckResult typo = strict()->check_webhook({{"type", "paymentIntent.done"}, {"data", data}});
  CHECK(typo.schema == "webhook_payment_intent");
  REQUIRE(typo.violations.size() == 1);
  CHECK(typo.violations[0].pointer == "/type");
  CHECK(typo.violations[0].keyword == "enum");

  CheckResult inst = strict()->check_webhook({{"type", "installment"}, {"data", data}});
  CHECK(inst.schema == "webhook_installment");
  CHECK_FALSE(inst.ok());

  CheckResult untyped = strict()->check_webhook({{"data", data}});
  CHECK(untyped.schema == "webhook");
  CHECK_FALSE(untyped.ok());
}

TEST_CASE("an unknown schema name is a violation, not an exception", "[validate]") {
  CheckResult r = strict()->validate("no_such_schema", json::object());
  CHECK_FALSE(r.matched_schema);
  REQUIRE(r.violations.size() == 1);
  CHECK(r.violations[0].keyword == "schema");
  CHECK(r.violations[0].actual == "no_such_schema");
}

TEST_CASE("the embedded checker is built once per profile", "[embedded]") {
  CHECK(strict() == Checker::embedded(Profile::kStrict));
  CHECK(strict() != lenient());
  CHECK(strict()->profile() == Profile::kStrict);
  CHECK(lenient()->profile() == Profile::kLenient);
  CHECK(contracts::profile_from_string("lenient") == Profile::kLenient);
  CHECK(contracts::profile_from_string("loose") == std::nullopt);
}

TEST_CASE("the embedded checker holds every schema file and every schema the route table names",
          "[embedded]") {
  // The message schemas are the top level of contracts/schemas (common/,
  // strict/ and lenient/ hold their parts), each embedded by the build.
  std::set<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(
           std::filesystem::path(PROJECT_SOURCE_DIR) / "contracts/schemas"))
    if (entry.is_regular_file() && entry.path().extension() == ".json")
      files.insert(entry.path().stem().string());
  REQUIRE_FALSE(files.empty());
  for (auto checker : {strict(), lenient()}) {
    const std::vector<std::string> names = checker->schema_names();
    CHECK(std::set<std::string>(names.begin(), names.end()) == files);
  }

  std::set<std::string> named;
  auto add = [&](const std::string& schema) {
    if (!schema.empty()) named.insert(schema);
  };
  auto add_all = [&](const std::map<int, std::string>& by_status) {
    for (const auto& [status, schema] : by_status) add(schema);
  };
  const contracts::RouteTable& table = contracts::route_table();
  for (const auto& row : table.rows) {
    add(row.request_schema);
    add_all(row.responses);
  }
  for (const auto& area : table.areas) {
    add_all(area.contract.every_route);
    add_all(area.contract.no_route);
    add_all(area.contract.wrong_method);
    add(area.contract.lenient_route_error);
    add(area.contract.lenient_other_error);
  }
  REQUIRE_FALSE(named.empty());
  for (const auto& schema : named) {
    INFO("the route table names schema " << schema);
    CHECK(files.count(schema) == 1);
    CHECK(strict()->validate(schema, nullptr).matched_schema);
  }
}

TEST_CASE("one checker validates on many threads at once", "[threads]") {
  auto c = strict();
  json bad = methods(processor("true"));
  json good = methods(processor(true));
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        auto r1 = c->validate("payment_methods_response", bad);
        auto r2 = c->validate("payment_methods_response", good);
        if (r1.violations.size() != 1 || !r2.ok()) ++failures[t];
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(failures == std::vector<int>{0, 0, 0, 0});
}

TEST_CASE("schema sets: the profile overrides, ids must match names, refs must resolve",
          "[from_files]") {
  const std::string base = "https://schemas.fake-crm-org.invalid/cpm/v2/";
  auto doc = [&](const std::string& name, json body) {
    body["$id"] = base + name;
    return body.dump();
  };
  std::map<std::string, std::string> files = {
      {"msg.json", doc("msg.json", {{"$ref", "part.json"}})},
      {"strict/part.json", doc("part.json", {{"type", "integer"}})},
      {"lenient/part.json", doc("part.json", {{"type", {"integer", "string"}}})},
  };
  auto s = Checker::from_files(files, Profile::kStrict);
  auto l = Checker::from_files(files, Profile::kLenient);
  CHECK(s->schema_names() == std::vector<std::string>{"msg"});
  CHECK_FALSE(s->validate("msg", "x").ok());
  CHECK(l->validate("msg", "x").ok());
  CHECK(s->validate("msg", 3).ok());
  CHECK(s->validate("msg", "x").violations.at(0).schema_location == "strict/part.json#/type");

  auto wrong_id = files;
  wrong_id["msg.json"] = json({{"$id", base + "other.json"}, {"type", "string"}}).dump();
  CHECK_THROWS_WITH(Checker::from_files(wrong_id, Profile::kStrict),
                    Catch::Contains("msg.json") && Catch::Contains("$id"));

  auto broken_ref = files;
  broken_ref["msg.json"] = doc("msg.json", {{"$ref", "missing.json#/definitions/x"}});
  CHECK_THROWS_WITH(Checker::from_files(broken_ref, Profile::kStrict),
                    Catch::Contains("cannot fetch") && Catch::Contains("missing.json"));

  auto dangling = files;
  dangling["msg.json"] = doc("msg.json", {{"$ref", "part.json#/definitions/nope"}});
  CHECK_THROWS_WITH(Checker::from_files(dangling, Profile::kStrict),
                    Catch::Contains("points to nothing"));
}

TEST_CASE("compiled on first use, a broken schema is a violation on every thread", "[from_files]") {
  // The embedded checker compiles this way: a request's thread must get an
  // answer, not an exception, and the other schemas still check.
  const std::string base = "https://schemas.fake-crm-org.invalid/cpm/v2/";
  std::map<std::string, std::string> files = {
      {"good.json", json({{"$id", base + "good.json"}, {"type", "integer"}}).dump()},
      {"broken.json", json({{"$id", base + "broken.json"}, {"$ref", "missing.json"}}).dump()},
  };
  CHECK_THROWS(Checker::from_files(files, Profile::kStrict));
  auto c = Checker::from_files(files, Profile::kStrict, contracts::Compile::kOnFirstUse);
  CHECK(c->schema_names() == std::vector<std::string>{"broken", "good"});
  std::vector<std::string> seen(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < seen.size(); ++t)
    threads.emplace_back([&, t] {
      CheckResult r = c->validate("broken", 1);
      if (r.violations.size() == 1)
        seen[t] = r.violations[0].keyword + ": " + r.violations[0].message;
    });
  for (auto& t : threads) t.join();
  for (const auto& s : seen) {
    CHECK_THAT(s, Catch::StartsWith("schema: schema \"broken\" does not compile: "));
    CHECK_THAT(s, Catch::Contains("missing.json"));
  }
  CHECK(c->validate("good", 1).ok());
  CHECK_FALSE(c->validate("good", "x").ok());
}

// valijson 1.0 compiled "propertyNames" under its parent's pointer, so under a
// "$ref" the parent became the name schema and every name failed; the
// scenario schema's "capture" and "matcher" definitions met it.
TEST_CASE("propertyNames applies to the names, also where a $ref leads", "[propertyNames]") {
  const std::string base = "https://schemas.fake-crm-org.invalid/cpm/v2/";
  json names = {{"type", "object"}, {"propertyNames", {{"pattern", "^[a-z]+$"}}}};
  json msg = {{"$id", base + "msg.json"},
              {"definitions", {{"names", names}, {"closed", {{"propertyNames", false}}}}},
              {"properties",
               {{"inline", names},
                {"local", {{"$ref", "#/definitions/names"}}},
                {"again", {{"$ref", "#/definitions/names"}}},
                {"remote", {{"$ref", "common/part.json"}}},
                {"into", {{"$ref", "#/definitions/names/propertyNames"}}},
                {"closed", {{"$ref", "#/definitions/closed"}}}}}};
  json part = names;
  part["$id"] = base + "common/part.json";
  auto checker = Checker::from_files({{"msg.json", msg.dump()}, {"common/part.json", part.dump()}},
                                     Profile::kStrict);
  auto verdict = [&](const json& body) { return checker->validate("msg", body).ok(); };
  for (const char* key : {"inline", "local", "again", "remote"}) {
    INFO(key);
    CHECK(verdict({{key, {{"abc", 1}, {"x", true}}}}));
    CHECK(verdict({{key, json::object()}}));
    CHECK_FALSE(verdict({{key, {{"abc", 1}, {"Bad", 2}}}}));
  }
  CHECK(verdict({{"into", "abc"}}));
  CHECK_FALSE(verdict({{"into", "ABC"}}));
  CHECK(verdict({{"closed", json::object()}}));
  CHECK_FALSE(verdict({{"closed", {{"a", 1}}}}));

  // valijson names no failing property; the report does.
  CheckResult r = checker->validate("msg", {{"local", {{"abc", 1}, {"Bad", 2}}}});
  REQUIRE(r.violations.size() == 1);
  const auto& v = r.violations[0];
  CHECK(v.pointer == "/local/Bad");
  CHECK(v.keyword == "propertyNames");
  CHECK(v.schema_location == "msg.json#/definitions/names/propertyNames");
  CHECK(v.actual == "property \"Bad\"");
  CHECK_THAT(v.expected, Catch::Contains("^[a-z]+$"));
}

TEST_CASE("formats with a regular grammar are asserted, 1.0 is an integer", "[formats]") {
  const std::string base = "https://schemas.fake-crm-org.invalid/cpm/v2/";
  json msg = {{"$id", base + "msg.json"},
              {"properties",
               {{"ip", {{"type", "string"}, {"format", "ipv4"}}},
                {"pointer", {{"format", "json-pointer"}}},
                {"host", {{"format", "hostname"}, {"allOf", {{{"maxLength", 20}}}}}},
                {"count", {{"type", "integer"}}}}}};
  auto checker = Checker::from_files({{"msg.json", msg.dump()}}, Profile::kStrict);
  CHECK(checker->validate("msg", {{"ip", "10.0.0.1"}, {"pointer", "/a~1b"}, {"host", "a.example"}})
            .ok());
  CheckResult r = checker->validate("msg", {{"ip", "10.0.0.256"}});
  REQUIRE(r.violations.size() == 1);
  CHECK(r.violations[0].keyword == "format");
  CHECK(r.violations[0].pointer == "/ip");
  CHECK(r.violations[0].schema_location == "msg.json#/properties/ip/format");
  CHECK(r.violations[0].expected == "format \"ipv4\"");
  CHECK_FALSE(checker->validate("msg", {{"pointer", "a/b"}}).ok());
  CHECK_FALSE(checker->validate("msg", {{"host", "-bad-.example"}}).ok());
  CHECK_FALSE(checker->validate("msg", {{"host", "a-very-long-name.example"}}).ok());
  // Other formats stay annotations, as draft-07 allows.
  json uri = {{"$id", base + "uri.json"}, {"format", "uri"}};
  CHECK(Checker::from_files({{"uri.json", uri.dump()}}, Profile::kStrict)
            ->validate("uri", "not a uri")
            .ok());

  CHECK(checker->validate("msg", {{"count", 3.0}}).ok());
  CHECK_FALSE(checker->validate("msg", {{"count", 3.5}}).ok());
}

TEST_CASE("URI references resolve per RFC 3986 5.4", "[uri]") {
  using contracts::uri::resolve;
  const std::string b = "http://a/b/c/d;p?q";
  CHECK(resolve(b, "g") == "http://a/b/c/g");
  CHECK(resolve(b, "./g") == "http://a/b/c/g");
  CHECK(resolve(b, "g/") == "http://a/b/c/g/");
  CHECK(resolve(b, "/g") == "http://a/g");
  CHECK(resolve(b, "//g") == "http://g");
  CHECK(resolve(b, "?y") == "http://a/b/c/d;p?y");
  CHECK(resolve(b, "#s") == "http://a/b/c/d;p?q#s");
  CHECK(resolve(b, "") == "http://a/b/c/d;p?q");
  CHECK(resolve(b, "..") == "http://a/b/");
  CHECK(resolve(b, "../g") == "http://a/b/g");
  CHECK(resolve(b, "../../g") == "http://a/g");
  CHECK(resolve(b, "../../../g") == "http://a/g");
  CHECK(resolve(b, "g;x=1/../y") == "http://a/b/c/y");
  CHECK(resolve(b, "g:h") == "g:h");
  CHECK(resolve("https://s/v2/common/ids.json", "values.json#/definitions/url") ==
        "https://s/v2/common/values.json#/definitions/url");
  CHECK(resolve("https://s/v2/records.json", "common/ids.json") == "https://s/v2/common/ids.json");
}

TEST_CASE("JSON pointers escape and unescape", "[uri]") {
  using namespace contracts::uri;
  CHECK(pointer_append("/a", "b/c~d") == "/a/b~1c~0d");
  CHECK(pointer_tokens("/a/b~1c~0d/~01") == std::vector<std::string>{"a", "b/c~d", "~1"});
  CHECK(pointer_tokens("") == std::vector<std::string>{});
  CHECK(pointer_for_valijson("/x-bundle/1/100%") == "/x-bundle/1/100%25");
  CHECK(percent_decode("a%20b%2") == "a b%2");
}
