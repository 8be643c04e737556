// POST/GET/DELETE /__admin/faults: the next N matching API requests answer an
// injected status and body without running their operation.
#include <catch2/catch.hpp>

#include "http/fault_injector.h"
#include "testing/intent_body.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

IntentBody card_payment() {
  // Nothing listens there: the events are only logged, which is what is checked.
  return IntentBody::one_time()
      .contact({{"LastName", "Faulty"}})
      .webhook("http://127.0.0.1:9/hooks");
}

json faults(TestOrg& t) {
  auto r = t.get("/__admin/faults", false);
  REQUIRE(r.status == 200);
  return r.json["faults"];
}

}  // namespace

TEST_CASE("an injected fault answers the next N matching requests without running them",
          "[http][admin][faults]") {
  TestOrg t(fixture("default.yaml"));
  size_t contacts = t.count("Contact");
  size_t reports = t.count("cpm__Inbound_Report__c");
  auto webhooks = [&t] { return t.get("/__admin/webhooks", false).json["events"].size(); };
  size_t events = webhooks();
  auto added = t.post(
      "/__admin/faults",
      {{"method", "POST"}, {"path", "/PaymentIntent"}, {"status", 503}, {"times", 2}}, false);
  INFO(added.body);
  REQUIRE(added.status == 201);
  const std::string message =
      "Injected fault: POST /PaymentIntent answers 503 without running (POST /__admin/faults); "
      "nothing was changed";
  CHECK(added.json ==
        json({{"method", "POST"},
              {"path", "/PaymentIntent"},
              {"status", 503},
              {"remaining", 2},
              {"body", {{"Errors", {{{"error_code", "999"}, {"error_message", message}}}}}}}));

  auto first = t.post("/PaymentIntent", card_payment());
  CHECK(first.status == 503);
  CHECK(code_of(first) == "999");
  CHECK(message_of(first) == message);
  json left = faults(t);
  REQUIRE(left.size() == 1);
  CHECK(left[0]["remaining"] == 1);
  CHECK(t.get("/PaymentMethods").status == 200);  // another path: untouched
  CHECK(t.post("/PaymentIntent", card_payment()).status == 503);
  CHECK(faults(t).empty());
  CHECK(t.count("Contact") == contacts);  // nothing ran
  CHECK(t.count("cpm__Installment__c") == 0);
  CHECK(t.count("cpm__Inbound_Report__c") == reports);
  CHECK(webhooks() == events);  // no event was emitted

  // The same checks see a request that does run.
  auto third = t.post("/PaymentIntent", card_payment());
  CHECK(third.status == 200);
  CHECK(t.count("Contact") == contacts + 1);
  CHECK(t.count("cpm__Inbound_Report__c") == reports + 1);
  CHECK(webhooks() > events);

  // The journal tells injected answers from the org's own.
  auto journal = t.get("/__admin/requests?method=POST&path=/PaymentIntent", false).json["requests"];
  REQUIRE(journal.size() == 3);
  CHECK(journal[0]["injected_fault"] == true);
  CHECK(journal[0]["status"] == 503);
  CHECK(journal[2]["injected_fault"] == false);
}

TEST_CASE("a fault on '/X/*' with any method and its own body, before the token check",
          "[http][admin][faults]") {
  TestOrg t(fixture("default.yaml"));
  auto created = t.post("/PaymentIntent", card_payment());
  REQUIRE(created.status == 200);
  std::string pi = created.json["Id"];
  REQUIRE(t.post("/__admin/faults",
                 {{"path", t.org().config().base_path() + "/PaymentIntent/*"},
                  {"status", 500},
                  {"body", {{"oops", true}}}},
                 false)
              .status == 201);
  CHECK(faults(t)[0]["method"] == "*");
  CHECK(faults(t)[0]["path"] == "/PaymentIntent/*");  // stored relative to the API base
  auto read = t.get("/PaymentIntent/" + pi, false);   // no token: the fault comes first
  CHECK(read.status == 500);
  CHECK(read.json == json({{"oops", true}}));
  CHECK(t.get("/PaymentIntent/" + pi).status == 200);  // times defaults to 1

  // A 401 can be injected too, e.g. to test a client's token refresh.
  REQUIRE(t.post("/__admin/faults",
                 {{"method", "GET"}, {"path", "/PaymentMethods"}, {"status", 401}}, false)
              .status == 201);
  CHECK(t.get("/PaymentMethods").status == 401);
  CHECK(t.get("/PaymentMethods").status == 200);
}

TEST_CASE("faults: bad requests are refused with the reason, DELETE and reset clear them",
          "[http][admin][faults]") {
  TestOrg t(fixture("default.yaml"));
  auto message = [&](const json& body) {
    auto r = t.post("/__admin/faults", body, false);
    CHECK(r.status == 400);
    return message_of(r);
  };
  CHECK(message({{"path", "/PaymentIntent"}, {"drop", true}}) ==
        "'drop' is not supported: cpp-httplib 0.11 gives handlers no way to close a connection "
        "without writing a status line (decisions 48)");
  CHECK(message({{"path", "/PaymentIntent"}, {"status", 99}}) ==
        "'status' must be an HTTP status from 200 to 599; got 99");
  for (int status : {204, 205, 304})
    CHECK(message({{"path", "/PaymentIntent"}, {"status", status}}) ==
          "'status' " + std::to_string(status) +
              " is refused: a 204, 205 or 304 answer has no body, and a fault always sends one; "
              "use 200 to 599 otherwise");
  CHECK(message({{"path", "/services/oauth2/token"}}) ==
        "'path' /services/oauth2/token is an OAuth path; faults apply only to API paths such as "
        "\"/PaymentIntent\" (OAuth endpoints are not covered)");
  for (const char* path : {"/PaymentIntent*", "/*/Installment", "/Payment*/x", "/a/**"})
    CHECK(message({{"path", path}}) ==
          std::string("'path' ") + path +
              " would never match: '*' is allowed only as the whole last segment, as in "
              "\"/PaymentIntent/*\"");
  CHECK(message({{"path", "/PaymentIntent"}, {"times", 0}}) ==
        "'times' must be a whole number from 1 (the default) to 1000000; got 0");
  CHECK(message({{"path", "/PaymentIntent"}, {"method", "post"}}) ==
        "'method' must be one of GET, POST, PUT, PATCH, DELETE or \"*\" (any); got \"post\"");
  CHECK(message({{"status", 503}}).rfind("'path' is required", 0) == 0);
  CHECK(message({{"path", "/x"}, {"delay", 5}}) ==
        "Unknown key 'delay'; a fault has method, path, status, body and times");
  CHECK(faults(t).empty());

  json fault = {{"path", "/PaymentMethods"}, {"times", 5}};
  REQUIRE(t.post("/__admin/faults", fault, false).status == 201);
  auto cleared = t.send("DELETE", "/__admin/faults", "", false);
  CHECK(cleared.status == 200);
  CHECK(cleared.json == json::parse(R"({"faults":[]})"));
  CHECK(t.get("/PaymentMethods").status == 200);

  REQUIRE(t.post("/__admin/faults", fault, false).status == 201);
  REQUIRE(t.post("/__admin/reset", json::object(), false).status == 200);
  CHECK(faults(t).empty());
  CHECK(t.get("/PaymentMethods").status == 200);
}

TEST_CASE("fault precedence: exact path, then deeper '/*', a named method before '*'",
          "[admin][faults]") {
  http::FaultInjector f;
  CHECK_FALSE(f.take("GET", "/a/b"));  // none set: the fast path
  auto fault = [](std::string method, std::string path, int status) {
    http::Fault x;
    x.method = std::move(method);
    x.path = std::move(path);
    x.status = status;
    x.remaining = 10;
    return x;
  };
  f.add(fault("*", "/*", 500));
  f.add(fault("*", "/a/*", 501));
  f.add(fault("GET", "/a/*", 502));
  f.add(fault("*", "/a/b", 503));
  f.add(fault("GET", "/a/b", 504));
  CHECK(f.take("GET", "/a/b")->status == 504);
  CHECK(f.take("POST", "/a/b")->status == 503);
  CHECK(f.take("GET", "/a/c")->status == 502);
  CHECK(f.take("POST", "/a/c/d")->status == 501);
  CHECK(f.take("POST", "/a")->status == 500);  // "/a/*" is under /a, not /a itself
  CHECK(f.take("GET", "/z")->status == 500);
  f.add(fault("GET", "/a/b", 504));  // replaces, with a fresh count
  CHECK(f.list().size() == 5);
  f.clear();
  CHECK_FALSE(f.take("GET", "/a/b"));
}
