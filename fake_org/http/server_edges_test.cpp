// The server at the edges of HTTP: requests without a body or its length,
// bodies httplib cannot read, wrong methods on known paths, and the admin
// API's loopback rule.
#include <catch2/catch.hpp>

#include "testing/raw_http.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

const std::string kApi = "/services/apexrest/cpm/v2";

}  // namespace

TEST_CASE("a POST with no body and no Content-Length is answered at once: body missing (010)",
          "[http][body]") {
  TestOrg t(fixture("default.yaml"));
  RawConnection conn(t.embedded().port());
  // Before the fix httplib read this request's "body" until the connection
  // closed; the next request on the connection would have been swallowed.
  conn.send(request_head("POST", kApi + "/PaymentIntent", t.token()));
  auto r = conn.read_response();
  CHECK(r.status == 400);
  INFO(r.body);
  REQUIRE(r.json()["Errors"].size() == 1);
  CHECK(r.json()["Errors"][0]["error_code"] == "010");
  CHECK(r.json()["Errors"][0]["error_message"].get<std::string>().find("body is missing") !=
        std::string::npos);

  conn.send(request_head("GET", kApi + "/SourceConnector", t.token()));
  auto next = conn.read_response();
  CHECK(next.status == 200);
  CHECK(next.json().contains("SourceConnectors"));
}

TEST_CASE("a POST to the token endpoint without Content-Length gets the OAuth error at once",
          "[http][body]") {
  TestOrg t(fixture("default.yaml"));
  RawConnection conn(t.embedded().port());
  conn.send(request_head("POST", "/services/oauth2/token", ""));
  auto r = conn.read_response();
  CHECK(r.status == 400);
  INFO(r.body);
  CHECK(r.json().contains("error"));
}

TEST_CASE("an empty or blank body on POST /PaymentIntent is a missing body, not {}",
          "[http][body]") {
  TestOrg t(fixture("default.yaml"));
  for (const char* body : {"", "  \r\n"}) {
    auto r = t.post_raw("/PaymentIntent", body);
    CHECK(r.status == 400);
    INFO(r.body);
    REQUIRE(r.json["Errors"].size() == 1);
    CHECK(code_of(r) == "010");
    CHECK(message_of(r).find("body is missing") != std::string::npos);
  }
  auto legacy = t.post_raw("/Payment", "");
  CHECK(legacy.status == 200);  // the older interface reports failures in the body
  CHECK(legacy.body.find("body is missing") != std::string::npos);
}

TEST_CASE("a body httplib cannot read gets the spec's Errors body on the API", "[http][body]") {
  TestOrg t(fixture("default.yaml"));
  RawConnection conn(t.embedded().port());
  conn.send(
      request_head("POST", kApi + "/PaymentIntent", t.token(), "Transfer-Encoding: chunked\r\n") +
      "zz\r\nnot a chunk\r\n0\r\n\r\n");
  auto r = conn.read_response();
  CHECK(r.status == 400);
  INFO(r.body);
  REQUIRE(r.json().contains("Errors"));
  CHECK(r.json()["Errors"][0]["error_code"] == "010");
  CHECK(r.json()["Errors"][0]["error_message"].get<std::string>().find("could not be read") !=
        std::string::npos);
}

TEST_CASE("a body over org.max_body_bytes gets 413 with the Errors body and creates nothing",
          "[http][body]") {
  TestOrg t(fixture_text(R"y(
extends: default.yaml
org:
  max_body_bytes: 2048
)y"));
  auto before = t.get("/__admin/records/Contact", false).json["totalSize"];
  json body = {{"Payer", {{"Contact", {{"LastName", "Big"}, {"Email", "big@example.org"}}}}},
               {"OneTime", {{"Amount", 10}, {"CurrencyISOCode", "EUR"}}},
               {"PaymentMethod", {{"Name", "Credit Card"}, {"Processor", "Stripe"}}},
               {"Settings", {{"Note", std::string(4096, 'x')}}}};
  auto r = t.post("/PaymentIntent", body);
  CHECK(r.status == 413);
  INFO(r.body);
  REQUIRE(r.json["Errors"].size() == 1);
  CHECK(code_of(r) == "999");
  CHECK(message_of(r).find("2048 bytes") != std::string::npos);
  CHECK(t.get("/__admin/records/Contact", false).json["totalSize"] == before);
  // Under the limit the same org answers as usual.
  CHECK(t.get("/PaymentMethods").status == 200);
}

TEST_CASE("a known path with the wrong method gets 405, Allow and a JSON body", "[http][405]") {
  TestOrg t(fixture("default.yaml"));
  struct Case {
    const char* method;
    const char* path;
    const char* allow;
  };
  for (const Case& c :
       {Case{"GET", "/services/oauth2/token", "POST, OPTIONS"},
        Case{"PUT", "/services/oauth2/token", "POST, OPTIONS"},
        Case{"DELETE", "/services/oauth2/revoke", "GET, HEAD, POST, OPTIONS"},
        Case{"PATCH", "/services/oauth2/authorize", "GET, HEAD, POST, OPTIONS"},
        Case{"PUT", "/__admin/clock", "GET, HEAD, POST, OPTIONS"},
        Case{"PATCH", "/__admin/reset", "POST, OPTIONS"},
        Case{"PUT", "/services/apexrest/cpm/v2/PaymentMethods", "GET, HEAD, OPTIONS"}}) {
    auto r = t.send(c.method, c.path, "{}");
    INFO(c.method << " " << c.path << ": " << r.body);
    CHECK(r.status == 405);
    auto allow = r.headers.find("Allow");
    REQUIRE(allow != r.headers.end());
    CHECK(allow->second == c.allow);
    REQUIRE(r.json.is_array());
    CHECK(r.json[0]["errorCode"] == "METHOD_NOT_ALLOWED");
    CHECK(r.json[0]["message"].get<std::string>().find(c.method) != std::string::npos);
  }
  // The PSP's pages (TestOrg::send would put them under the API base).
  auto callback = t.client().Put("/psp/callback", "{}", "application/json");
  REQUIRE(callback);
  CHECK(callback->status == 405);
  CHECK(callback->get_header_value("Allow") == "POST, OPTIONS");
  auto checkout = t.client().Delete("/psp/checkout/abc123");
  REQUIRE(checkout);
  CHECK(checkout->status == 405);
  CHECK(checkout->get_header_value("Allow") == "GET, HEAD, POST, OPTIONS");
  CHECK(json::parse(checkout->body)[0]["errorCode"] == "METHOD_NOT_ALLOWED");
  // Unknown paths stay 404 whatever the method.
  CHECK(t.send("PUT", "/__admin/no-such-thing", "{}").status == 404);
  CHECK(t.send("GET", "/services/oauth2/no-such-thing", "").status == 404);
}

TEST_CASE("the contract self-check reads compressed responses", "[http][contracts]") {
  // httplib compresses "application/json" bodies (the token endpoint's) for a
  // client that accepts it, before the self-check sees them. TestOrg's
  // destructor fails the test on any violation the monitor saw.
  TestOrg t(fixture("default.yaml"));
  t.client().set_decompress(false);  // to see the Content-Encoding the server chose
  for (const char* encoding : {"gzip", "br"}) {
    auto r =
        t.client().Post("/services/oauth2/token", httplib::Headers{{"Accept-Encoding", encoding}},
                        httplib::Params{{"grant_type", "client_credentials"},
                                        {"client_id", "local-client"},
                                        {"client_secret", "local-secret"}});
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK(r->get_header_value("Content-Encoding") == encoding);
  }
  REQUIRE(t.embedded().contract_monitor() != nullptr);
  CHECK(t.embedded().contract_monitor()->violations() == 0);
}
