// The request log writes one line per request whatever the request holds:
// CR, LF and ESC a client sent (raw, or percent-encoded in the path, which
// httplib decodes) are escaped, so no request forges a log line or drives
// the terminal that shows the log.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "app/embedded.h"
#include "http/request_log.h"
#include "http/server.h"
#include "testing/eventually.h"
#include "testing/fixtures.h"
#include "testing/raw_http.h"
#include "testing/stderr_capture.h"

using namespace fake_org;
using namespace fake_org::testing;

namespace {

bool log_has_control_byte(const std::string& text) {
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && c != '\n') || c == 0x7F) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("a request log line escapes the control bytes a client sent", "[http][log][security]") {
  httplib::Request req;
  req.method = "GET";
  req.path = "/x\r\nGET /forged 200 0.1ms\x1b[31m\x7f";
  httplib::Response res;
  res.status = 404;
  const std::string line = http::request_log_line(http::LogLevel::kInfo, req, res, 1.5);
  CHECK(line == "GET /x\\x0d\\x0aGET /forged 200 0.1ms\\x1b[31m\\x7f 404 1.5ms\n");
  req.method = "POST";
  req.body = "{\"a\": \"\n\x1b[2J\"}";
  req.set_header("Content-Type", "application/json");
  const std::string debug = http::request_log_line(http::LogLevel::kDebug, req, res, 1.0);
  CHECK(std::count(debug.begin(), debug.end(), '\n') == 3);  // the line, request, response
  CHECK_FALSE(log_has_control_byte(debug));
}

TEST_CASE("the request log of a running server keeps one line per request",
          "[http][log][security]") {
  EmbeddedOptions o;
  o.log_level = http::LogLevel::kInfo;
  auto org = EmbeddedOrg::start(fixture("default.yaml"), o);
  StderrCapture log;
  RawConnection c(org->port());
  c.send("GET /nothing-here/%0D%0AGET%20/forged%20200%20%1B[31mred HTTP/1.1\r\nHost: x\r\n\r\n");
  auto r = c.read_response();
  CHECK(r.status == 404);
  REQUIRE(eventually([&] { return log.text().find("forged") != std::string::npos; }));
  const std::string text = log.text();
  INFO(text);
  CHECK_FALSE(log_has_control_byte(text));
  CHECK(text.find("\nGET /forged") == std::string::npos);
  CHECK(text.find("GET /nothing-here/\\x0d\\x0aGET /forged 200 \\x1b[31mred 404 ") !=
        std::string::npos);
}
