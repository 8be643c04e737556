// What RFC 9112 asks of a request's head where cpp-httplib 0.11 falls short:
// an absolute-form target is served, white space before a header's colon and
// a Transfer-Encoding that does not end in chunked are refused at once (not
// after the read timeout), and an OAuth form over the body limit answers in
// the OAuth error shape.
#include <catch2/catch.hpp>

#include <chrono>

#include "testing/raw_http.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;
using nlohmann::json;

namespace {

const std::string kHeadTokenForm =
    "grant_type=client_credentials&client_id=local-client&client_secret=local-secret";

}  // namespace

TEST_CASE("an absolute-form request target is served as its path", "[http][framing]") {
  TestOrg t(fixture("default.yaml"));
  const std::string port = std::to_string(t.embedded().port());
  RawConnection c(t.embedded().port());
  c.send("GET http://127.0.0.1:" + port + "/services/data HTTP/1.1\r\nHost: elsewhere\r\n\r\n");
  auto versions = c.read_response();
  INFO(versions.body);
  CHECK(versions.status == 200);
  CHECK(versions.body.find("\"version\"") != std::string::npos);
  // The authority is the Host (RFC 9112 3.2.2), so the admin guard judges it.
  c.send("GET HTTP://127.0.0.1:" + port +
         "/__admin/health?x=1 HTTP/1.1\r\nHost: evil.example\r\n\r\n");
  CHECK(c.read_response().status == 200);
  RawConnection rebound(t.embedded().port());
  rebound.send("GET http://evil.example/__admin/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  CHECK(rebound.read_response().status == 403);
}

TEST_CASE("a Transfer-Encoding not ending in chunked answers 400 at once", "[http][framing]") {
  TestOrg t(fixture("default.yaml"));
  for (const char* coding :
       {"chunked, identity", "identity", "gzip, chunked", "chunked, chunked"}) {
    INFO(coding);
    RawConnection c(t.embedded().port());
    const auto start = std::chrono::steady_clock::now();
    c.send(
        "POST /services/oauth2/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
        "application/x-www-form-urlencoded\r\nTransfer-Encoding: " +
        std::string(coding) + "\r\n\r\n");
    auto r = c.read_response();
    INFO(r.body);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
    CHECK(r.status == 400);
    CHECK(r.json().value("error", "") == "invalid_request");
    CHECK(r.body.find("Transfer-Encoding") != std::string::npos);
    CHECK(r.header("Connection") == "close");
  }
  // Chunked alone is read as before.
  RawConnection ok(t.embedded().port());
  ok.send(
      "POST /services/oauth2/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
      "application/x-www-form-urlencoded\r\nTransfer-Encoding: Chunked\r\n\r\n" +
      [] {
        char size[16];
        std::snprintf(size, sizeof size, "%zx", kHeadTokenForm.size());
        return std::string(size);
      }() +
      "\r\n" + kHeadTokenForm + "\r\n0\r\n\r\n");
  CHECK(ok.read_response().status == 200);
}

TEST_CASE("a chunked body's trailer fields are taken and dropped", "[http][framing]") {
  TestOrg t(fixture("default.yaml"));
  // Split in two chunks, with an extension, and two trailer fields after the last.
  const std::string first = kHeadTokenForm.substr(0, 10), rest = kHeadTokenForm.substr(10);
  char rest_size[16];
  std::snprintf(rest_size, sizeof rest_size, "%zX", rest.size());
  RawConnection c(t.embedded().port());
  c.send(
      "POST /services/oauth2/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
      "application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n"
      "a;name=value\r\n" +
      first + "\r\n" + rest_size + "\r\n" + rest +
      "\r\n0\r\nX-Checksum: abc\r\nX-Other: 1\r\n\r\n");
  auto r = c.read_response();
  INFO(r.body);
  CHECK(r.status == 200);
  CHECK(r.body.find("access_token") != std::string::npos);
}

TEST_CASE("white space before a header's colon is refused", "[http][framing]") {
  TestOrg t(fixture("default.yaml"));
  RawConnection c(t.embedded().port());
  c.send(
      "POST /services/oauth2/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
      "application/x-www-form-urlencoded\r\nContent-Length : " +
      std::to_string(kHeadTokenForm.size()) + "\r\n\r\n" + kHeadTokenForm);
  auto r = c.read_response();
  INFO(r.body);
  CHECK(r.status == 400);
  CHECK(r.body.find("white space before its colon") != std::string::npos);
  CHECK(r.header("Connection") == "close");
}

TEST_CASE("an OAuth form over the body limit answers in the OAuth shape", "[http][framing]") {
  TestOrg t(fixture_text("extends: default.yaml\norg:\n  max_body_bytes: 2048\n"));
  auto r = raw_request(t.embedded().port(), "POST", "/services/oauth2/token",
                       kHeadTokenForm + "&pad=" + std::string(4000, 'x'));
  INFO(r.body);
  CHECK(r.status == 400);
  CHECK(r.json().value("error", "") == "invalid_request");
  CHECK(r.json().value("error_description", "").find("2048 bytes") != std::string::npos);
  // The payment API keeps its own shape for the same limit.
  auto api =
      raw_request(t.embedded().port(), "POST", t.org().config().base_path() + "/PaymentIntent",
                  std::string(4000, 'x'), "application/json");
  CHECK(api.status == 413);
  CHECK(api.body.find("Errors") != std::string::npos);
}
