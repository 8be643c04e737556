// Request targets up to the platform's 16,384 bytes are served; longer ones
// answer 414 (decision 141). httplib alone refuses past 8,192.
#include <catch2/catch.hpp>

#include "testing/raw_http.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;

namespace {

// A query target of exactly `length` bytes: an IN list of ids no record has,
// padded in a string literal's spaces.
std::string query_target(size_t length) {
  std::string soql = "SELECT Id FROM Contact WHERE LastName IN ('";
  const std::string head = kDataApi + "/query?q=";
  std::string target = head + httplib::detail::encode_query_param(soql);
  const std::string tail = httplib::detail::encode_query_param("')");
  REQUIRE(target.size() + tail.size() < length);
  target += std::string(length - target.size() - tail.size(), 'x');
  target += tail;
  REQUIRE(target.size() == length);
  return target;
}

}  // namespace

TEST_CASE("request targets up to 16,384 bytes are served, longer ones answer 414",
          "[http][transport]") {
  TestOrg t(fixture("default.yaml"));
  RawConnection conn(t.embedded().port());
  for (const size_t length : {size_t{8000}, size_t{8193}, size_t{12000}, size_t{16384}}) {
    INFO(length);
    conn.send(request_head("GET", query_target(length), t.token()));
    RawResponse r = conn.read_response();
    INFO(r.body.substr(0, 300));
    CHECK(r.status == 200);
    CHECK(r.json()["totalSize"] == 0);
  }
  // The connection stays usable after long targets: the next request is its own.
  conn.send(request_head("GET", kDataApi + "/limits", t.token()));
  CHECK(conn.read_response().status == 200);

  RawConnection other(t.embedded().port());
  other.send(request_head("GET", query_target(16385), t.token()));
  RawResponse refused = other.read_response();
  CHECK(refused.status == 414);
  CHECK(refused.json()[0]["errorCode"] == "URI_TOO_LONG");
  RawConnection far(t.embedded().port());
  far.send(request_head("GET", query_target(40000), t.token()));
  CHECK(far.read_response().status == 414);
}

TEST_CASE("a long target keeps its path and query parameters as sent", "[http][transport]") {
  TestOrg t(fixture("default.yaml"));
  auto created = t.post(kDataApi + "/sobjects/Contact", {{"LastName", "Long"}});
  REQUIRE(created.status == 201);
  const std::string id = created.json["id"];
  // A record read past 8,192 bytes: the path's id and ?fields= both reach the handler.
  RawConnection conn(t.embedded().port());
  conn.send(request_head(
      "GET",
      kDataApi + "/sobjects/Contact/" + id + "/?fields=LastName&pad=" + std::string(10000, 'p'),
      t.token()));
  RawResponse r = conn.read_response();
  INFO(r.body.substr(0, 300));
  CHECK(r.status == 200);
  CHECK(r.json()["LastName"] == "Long");
  CHECK_FALSE(r.json().contains("FirstName"));
}
