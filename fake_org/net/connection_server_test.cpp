// The server's own keep-alive loop and stream (decision 134): a response in
// one piece, requests read ahead, a client's "100 Continue" before its body,
// and a stop that does not wait out idle connections.
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <thread>

#include "connection_stream.h"
#include "request_framing.h"
#include "testing/raw_http.h"
#include "testing/test_org.h"

using namespace fake_org;
using namespace fake_org::testing;

namespace {

struct SocketPair {
  int ends[2] = {-1, -1};
  SocketPair() { REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, ends) == 0); }
  ~SocketPair() {
    for (int fd : ends)
      if (fd >= 0) close(fd);
  }
  // What the peer can read now without waiting.
  std::string available() const {
    std::string got;
    char chunk[65536];
    for (ssize_t n; (n = recv(ends[1], chunk, sizeof chunk, MSG_DONTWAIT)) > 0;)
      got.append(chunk, static_cast<size_t>(n));
    return got;
  }
};

const std::string kApiPath = "/services/apexrest/cpm/v2";

}  // namespace

TEST_CASE("the stream keeps what is written until flushed, then sends it all",
          "[http][connection]") {
  SocketPair pair;
  net::ConnectionStream stream(pair.ends[0], {});
  CHECK(stream.write("HTTP/1.1 200 OK\r\n\r\n", 19) == 19);
  const std::string big(200 * 1024, 'x');  // past what the stream keeps at once
  CHECK(stream.write(big.data(), 100) == 100);
  CHECK(pair.available().empty());
  std::string got;
  REQUIRE(stream.write(big.data(), big.size()) == static_cast<ssize_t>(big.size()));
  got += pair.available();  // the stream sent on its own once it kept too much
  CHECK(!got.empty());
  REQUIRE(stream.flush());
  got += pair.available();
  CHECK(got == "HTTP/1.1 200 OK\r\n\r\n" + big.substr(0, 100) + big);
  CHECK(pair.available().empty());
}

TEST_CASE("the stream reads ahead, and sends what it owes before it waits to read",
          "[http][connection]") {
  SocketPair pair;
  net::ConnectionStream stream(pair.ends[0], {});
  REQUIRE(send(pair.ends[1], "first", 5, 0) == 5);
  char buf[16];
  CHECK(stream.read(buf, 3) == 3);
  CHECK(stream.is_readable());  // the rest is already in the stream
  CHECK(stream.read(buf, sizeof buf) == 2);
  CHECK(std::string(buf, 2) == "st");
  stream.write("HTTP/1.1 100 Continue\r\n\r\n", 25);
  // The peer sends its body only once it has the interim response: a
  // stream that waited to read before sending would wait for ever.
  std::thread peer([&pair] {
    std::string got;
    char chunk[64];
    while (got.size() < 25) {
      const ssize_t n = recv(pair.ends[1], chunk, sizeof chunk, 0);
      if (n <= 0) return;
      got.append(chunk, static_cast<size_t>(n));
    }
    if (got == "HTTP/1.1 100 Continue\r\n\r\n") send(pair.ends[1], "body", 4, 0);
  });
  const ssize_t n = stream.read(buf, sizeof buf);
  peer.join();
  REQUIRE(n == 4);
  CHECK(std::string(buf, 4) == "body");
  shutdown(pair.ends[1], SHUT_WR);
  CHECK(stream.read(buf, sizeof buf) == -1);  // the end of input
}

TEST_CASE("requests sent together on one connection are each answered", "[http][connection]") {
  TestOrg t(fixture("default.yaml"));
  RawConnection conn(t.embedded().port());
  conn.send(request_head("GET", kApiPath + "/SourceConnector", t.token()) +
            request_head("GET", kApiPath + "/PaymentMethods", t.token()));
  auto first = conn.read_response();
  auto second = conn.read_response();
  CHECK(first.status == 200);
  CHECK(first.json().contains("SourceConnectors"));
  CHECK(second.status == 200);
  CHECK(second.json().contains("PaymentMethods"));
}

TEST_CASE("a client that half-closes after its request still gets the answer",
          "[http][connection]") {
  TestOrg t(fixture("default.yaml"));
  RawConnection conn(t.embedded().port());
  conn.send(request_head("GET", kApiPath + "/SourceConnector", t.token()));
  conn.finish_sending();
  // httplib's own stream took the end of input for a peer that was gone and
  // wrote nothing.
  auto r = conn.read_response();
  CHECK(r.status == 200);
  CHECK(r.json().contains("SourceConnectors"));
}

TEST_CASE("a client that asks for 100 Continue gets it before it sends the body",
          "[http][connection]") {
  TestOrg t(fixture("default.yaml"));
  RawConnection conn(t.embedded().port());
  const std::string body = "{}";
  conn.send("POST " + kApiPath +
            "/PaymentIntent HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + t.token() +
            "\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n" +
            "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n");
  const std::string interim = conn.read_head();
  CHECK(interim == "HTTP/1.1 100 Continue");
  conn.send(body);
  auto r = conn.read_response();
  CHECK(r.status == 400);  // an empty intent: the spec's error, answered on this connection
  CHECK(r.json().contains("Errors"));
}

TEST_CASE("stopping the server ends idle keep-alive connections at once", "[http][connection]") {
  EmbeddedOptions options;
  options.keep_alive_seconds = 600;  // far past the test's own timeout
  TestOrg t(fixture("default.yaml"), options);
  RawConnection conn(t.embedded().port());
  conn.send(request_head("GET", kApiPath + "/SourceConnector", t.token()));
  CHECK(conn.read_response().status == 200);
  REQUIRE(conn.open_and_silent());
  const auto before = std::chrono::steady_clock::now();
  t.embedded().stop();
  const auto waited = std::chrono::steady_clock::now() - before;
  CHECK(conn.closed_by_server());
  // httplib's own loop waited out the keep-alive timeout (600 s here).
  CHECK(waited < std::chrono::seconds(60));
}

TEST_CASE("what a request's head says of the body after it", "[http][connection]") {
  using net::declared_body_length;
  CHECK(declared_body_length("GET / HTTP/1.1\r\nHost: a\r\n\r\n") == 0u);
  CHECK(declared_body_length("POST / HTTP/1.1\r\ncontent-length:  12 \r\n\r\n") == 12u);
  CHECK(declared_body_length("POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n") ==
        2u);
  // Where the body ends is not plain: the connection cannot go on.
  CHECK_FALSE(
      declared_body_length("POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 40\r\n\r\n"));
  CHECK_FALSE(declared_body_length("POST / HTTP/1.1\r\nContent-Length: abc\r\n\r\n"));
  CHECK_FALSE(declared_body_length("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n"));
  CHECK_FALSE(
      declared_body_length("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n"));
  CHECK_FALSE(declared_body_length("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"));
}

TEST_CASE("a body on a GET is skipped: the next request is answered, not the body",
          "[http][connection]") {
  TestOrg t(fixture("default.yaml"));
  RawConnection conn(t.embedded().port());
  const std::string body = R"({"a":1})";
  conn.send("GET " + kApiPath +
            "/SourceConnector HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + t.token() +
            "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
  CHECK(conn.read_response().status == 200);
  // An empty line between requests is allowed too.
  conn.send("\r\n" + request_head("GET", kApiPath + "/PaymentMethods", t.token()));
  auto next = conn.read_response();
  CHECK(next.status == 200);
  CHECK(next.json().contains("PaymentMethods"));
  CHECK(conn.open_and_silent());  // no stray answer to the body's bytes
}

TEST_CASE("a head longer than what the stream reads at once still frames its body",
          "[http][connection]") {
  TestOrg t(fixture("default.yaml"));
  RawConnection conn(t.embedded().port());
  std::string long_headers;
  for (int i = 0; i < 4; ++i)
    long_headers += "X-Long-" + std::to_string(i) + ": " + std::string(7000, 'v') + "\r\n";
  const std::string body = "ignored";
  conn.send("GET " + kApiPath +
            "/SourceConnector HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + t.token() +
            "\r\n" + long_headers + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" +
            body + request_head("GET", kApiPath + "/PaymentMethods", t.token()));
  CHECK(conn.read_response().status == 200);
  auto next = conn.read_response();
  CHECK(next.status == 200);
  CHECK(next.json().contains("PaymentMethods"));
}

TEST_CASE("a head the server cannot read is answered, then the connection ends",
          "[http][connection]") {
  TestOrg t(fixture("default.yaml"));
  RawConnection conn(t.embedded().port());
  conn.send("FOO / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" +
            request_head("GET", kApiPath + "/SourceConnector", t.token()));
  auto r = conn.read_response();
  CHECK(r.status == 400);
  CHECK(r.header("Connection") == "close");
  CHECK(conn.closed_by_server());  // where the next request starts is unknown
}

TEST_CASE("the 1000th request on a connection is the last, and every answer arrives",
          "[http][connection]") {
  TestOrg t(fixture("default.yaml"));
  RawConnection conn(t.embedded().port());
  std::string many;
  for (int i = 0; i < 1050; ++i)
    many += request_head("GET", kApiPath + "/SourceConnector", t.token());
  conn.send(many);
  for (int i = 1; i <= 1000; ++i) {
    auto r = conn.read_response();
    REQUIRE(r.status == 200);
    CHECK(r.header("Connection") == (i == 1000 ? "close" : ""));
  }
  // Closed after the last answer, not reset: the 50 unanswered requests were
  // dropped without the answers before them.
  CHECK(conn.closed_by_server());
}

TEST_CASE("stopping the server ends a request that is still arriving", "[http][connection]") {
  TestOrg t(fixture("default.yaml"));
  RawConnection conn(t.embedded().port());
  conn.send("GET " + kApiPath + "/SourceConnector HTTP/1.1\r\nHost: 127.0.0.1\r\n");
  const auto before = std::chrono::steady_clock::now();
  t.embedded().stop();
  CHECK(conn.reads_to_the_end());  // a 400 for the head cut short, or nothing
  // It waited for the rest of the head for its read timeout (5 s) before.
  CHECK(std::chrono::steady_clock::now() - before < std::chrono::seconds(4));
}
