// HTTPS in fake-org's own connection loop (decision 218): the head timeout
// and the per-peer slow-head cap hold for TLS connections from accept, the
// handshake included, and after the handshake a connection is served as a
// plain one (keep-alive, pipelining, large bodies both ways).
#include <httplib.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "app/embedded.h"
#include "testing/eventually.h"
#include "testing/fixtures.h"
#include "testing/raw_http.h"
#include "testing/tls_client.h"

using namespace fake_org;
using namespace fake_org::testing;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

// An org served over HTTPS with a certificate made for it.
struct TlsOrg {
  explicit TlsOrg(EmbeddedOptions options = {}) {
    static int made = 0;
    dir = "/tmp/fake-org-tls-test-" + std::to_string(getpid()) + "-" + std::to_string(++made);
    cert = TestCertFiles::make(dir);
    options.tls_cert_file = cert.cert_file;
    options.tls_key_file = cert.key_file;
    org = EmbeddedOrg::start(fixture("default.yaml"), options);
  }
  ~TlsOrg() {
    org.reset();
    if (std::system(("rm -rf " + dir).c_str()) != 0) WARN("could not remove " << dir);
  }
  int port() const { return org->port(); }
  // A client that checks the org's certificate.
  std::unique_ptr<httplib::SSLClient> client() const {
    auto c = std::make_unique<httplib::SSLClient>("127.0.0.1", port());
    c->set_ca_cert_path(cert.cert_file.c_str());
    c->enable_server_certificate_verification(true);
    c->set_read_timeout(60, 0);  // a failure detector, not a timing check
    return c;
  }
  std::string token() const {
    auto r = client()->Post("/services/oauth2/token",
                            httplib::Params{{"grant_type", "client_credentials"},
                                            {"client_id", "local-client"},
                                            {"client_secret", "local-secret"}});
    REQUIRE(r);
    REQUIRE(r->status == 200);
    return json::parse(r->body)["access_token"].get<std::string>();
  }

  std::string dir;
  TestCertFiles cert;
  std::unique_ptr<EmbeddedOrg> org;
};

const std::string kApiPath = "/services/apexrest/cpm/v2";

// A head deadline short enough to wait out in a test.
EmbeddedOptions short_head_timeout() {
  EmbeddedOptions o;
  o.head_timeout_ms = 600;
  return o;
}

// Ended by that deadline: not sooner, and well before the 5 s read timeout
// httplib's loop waited out.
void check_ended_by_head_deadline(std::chrono::steady_clock::time_point start) {
  const auto took = std::chrono::steady_clock::now() - start;
  CHECK(took >= 500ms);
  CHECK(took < 2500ms);
}

int health_status(const TlsOrg& t) {
  auto r = t.client()->Get("/__admin/health");
  return r ? r->status : 0;
}

}  // namespace

TEST_CASE("fake-org refuses to start HTTPS with a certificate it cannot load", "[tls]") {
  EmbeddedOptions o;
  o.tls_cert_file = "/nonexistent/cert.pem";
  o.tls_key_file = "/nonexistent/key.pem";
  CHECK_THROWS_WITH(EmbeddedOrg::start(fixture("default.yaml"), o),
                    Catch::Contains("cannot load TLS certificate /nonexistent/cert.pem / key "
                                    "/nonexistent/key.pem"));
  o.tls_key_file.clear();
  CHECK_THROWS_WITH(EmbeddedOrg::start(fixture("default.yaml"), o),
                    Catch::Contains("--tls-cert and --tls-key must be given together"));
}

TEST_CASE("over TLS, a head that trickles in ends at the head timeout",
          "[tls][http][connection][security]") {
  TlsOrg t(short_head_timeout());
  TlsConnection c(t.port());
  REQUIRE(c.handshake());
  const auto start = std::chrono::steady_clock::now();
  REQUIRE(c.send("GET /__admin/health HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
  // A header line every 100 ms: far inside the 5 s read timeout each time.
  bool ended = false;
  for (int i = 0; i < 40 && !ended; ++i) {
    ended = c.server_acted_within(100ms);
    if (!ended) REQUIRE(c.send("X-Slow-" + std::to_string(i) + ": a\r\n"));
  }
  CHECK(ended);
  check_ended_by_head_deadline(start);
  auto r = c.read_response();
  CHECK(r.status == 400);
  CHECK(r.header("Connection") == "close");
  CHECK(health_status(t) == 200);  // whole requests are served as before
}

TEST_CASE("over TLS, a handshake that does not finish ends at the head timeout",
          "[tls][http][connection][security]") {
  TlsOrg t(short_head_timeout());
  TlsConnection c(t.port());
  const auto start = std::chrono::steady_clock::now();
  SECTION("a client that sends nothing") {
    // httplib's loop waited out its 5 s read timeout.
    CHECK(c.server_acted_within(2500ms));
  }
  SECTION("a ClientHello trickled in a byte every 50 ms") {
    const std::string hello = client_hello();
    REQUIRE(hello.size() > 100);  // longer than the deadline at this pace
    bool ended = false;
    for (size_t i = 0; i < hello.size() && !ended; ++i) {
      c.send_raw(hello.substr(i, 1));
      ended = c.server_acted_within(50ms);
    }
    CHECK(ended);
  }
  check_ended_by_head_deadline(start);
  CHECK(c.closed_without_answer());
  CHECK(health_status(t) == 200);
}

TEST_CASE("over TLS, a peer past --max-slow-heads is refused while another is served",
          "[tls][http][connection][security]") {
  EmbeddedOptions o;
  o.max_slow_heads = 2;
  TlsOrg t(o);
  // Two handshakes not begun: each holds a worker, counted for 127.0.0.1.
  std::vector<std::unique_ptr<TlsConnection>> slow;
  for (int i = 0; i < 2; ++i) slow.push_back(std::make_unique<TlsConnection>(t.port()));
  std::this_thread::sleep_for(300ms);
  // No TLS session to answer 503 in: the third is closed at once.
  TlsConnection third(t.port());
  const auto start = std::chrono::steady_clock::now();
  CHECK_FALSE(third.handshake());
  CHECK(std::chrono::steady_clock::now() - start < 2000ms);
  // Another address is another peer: served, handshake and all.
  TlsConnection other(t.port(), "127.0.0.2");
  REQUIRE(other.handshake());
  REQUIRE(other.send(request_head("GET", "/__admin/health", "")));
  CHECK(other.read_response().status == 200);
  // Once a slow handshake ends its worker is no longer counted.
  slow.front().reset();
  CHECK(eventually([&] { return health_status(t) == 200; }));
}

TEST_CASE("over TLS, keep-alive and pipelined requests are served, large bodies whole both ways",
          "[tls][http][connection]") {
  TlsOrg t;
  const std::string token = t.token();
  TlsConnection c(t.port());
  REQUIRE(c.handshake());
  // Two requests sent together, then a third on the same connection.
  REQUIRE(c.send(request_head("GET", kApiPath + "/SourceConnector", token) +
                 request_head("GET", kApiPath + "/PaymentMethods", token)));
  auto first = c.read_response();
  auto second = c.read_response();
  CHECK(first.status == 200);
  CHECK(first.json().contains("SourceConnectors"));
  CHECK(second.status == 200);
  CHECK(second.json().contains("PaymentMethods"));
  REQUIRE(c.send(request_head("GET", kApiPath + "/PaymentMethods", token)));
  CHECK(c.read_response().status == 200);

  // A 2 MB body, then 20 of 60 KB (bodies the journal keeps), on the same
  // connection: the journal shows each arrived whole.
  const auto post = [&](size_t n) {
    const std::string body = "{\"Origin\": \"" + std::string(n, 'x') + "\"}";
    REQUIRE(c.send(request_head("POST", kApiPath + "/PaymentIntent", token,
                                "Content-Type: application/json\r\nContent-Length: " +
                                    std::to_string(body.size()) + "\r\n") +
                   body));
    CHECK(c.read_response().status == 400);  // no such origin: read, and answered
    return body.size();
  };
  const size_t big = post(2 * 1024 * 1024);
  for (int i = 0; i < 20; ++i) post(60 * 1024);
  REQUIRE(c.send(request_head("GET", "/__admin/requests?method=POST&path=/PaymentIntent", "")));
  auto listed = c.read_response();
  REQUIRE(listed.status == 200);
  CHECK(listed.body.size() > 1024 * 1024);  // one answer of over a megabyte, whole
  const json requests = listed.json()["requests"];
  REQUIRE(requests.size() == 21);
  CHECK(requests[0]["body"].get<std::string>().rfind("(" + std::to_string(big) + " bytes", 0) == 0);
  for (size_t i = 1; i < requests.size(); ++i)
    CHECK(requests[i]["body"]["Origin"].get<std::string>().size() == 60 * 1024);

  // httplib's client on one kept connection: a compressed body in, a
  // compressed answer out.
  auto client = t.client();
  client->set_keep_alive(true);
  client->set_decompress(false);  // to see the Content-Encoding the server chose
  for (int i = 0; i < 3; ++i) {
    auto r = client->Get("/__admin/requests?method=POST&path=/PaymentIntent");
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK(r->body == listed.body);
    auto token_answer =
        client->Post("/services/oauth2/token", httplib::Headers{{"Accept-Encoding", "gzip"}},
                     httplib::Params{{"grant_type", "client_credentials"},
                                     {"client_id", "local-client"},
                                     {"client_secret", "local-secret"}});
    REQUIRE(token_answer);
    CHECK(token_answer->status == 200);
    CHECK(token_answer->get_header_value("Content-Encoding") == "gzip");
  }
  client->set_compress(true);
  const std::string body = "{\"Origin\": \"" + std::string(500 * 1024, 'y') + "\"}";
  auto posted = client->Post((kApiPath + "/PaymentIntent").c_str(),
                             {{"Authorization", "Bearer " + token}}, body, "application/json");
  REQUIRE(posted);
  CHECK(posted->status == 400);
  auto last = client->Get("/__admin/requests?method=POST&path=/PaymentIntent&limit=1");
  REQUIRE(last);
  CHECK(json::parse(last->body)["requests"][0]["body"].get<std::string>().rfind(
            "(" + std::to_string(body.size()) + " bytes", 0) == 0);
}
