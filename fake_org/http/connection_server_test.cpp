// The server's own keep-alive loop and stream (decision 134): a response in
// one piece, requests read ahead, a client's "100 Continue" before its body,
// and a stop that does not wait out idle connections.
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <thread>

#include "http/connection_stream.h"
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

const std::string kApi = "/services/apexrest/cpm/v2";

std::string get_head(const std::string& path, const std::string& token) {
  return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token +
         "\r\n\r\n";
}

}  // namespace

TEST_CASE("the stream keeps what is written until flushed, then sends it all",
          "[http][connection]") {
  SocketPair pair;
  http::ConnectionStream stream(pair.ends[0], {});
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
  http::ConnectionStream stream(pair.ends[0], {});
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
  conn.send(get_head(kApi + "/SourceConnector", t.token()) +
            get_head(kApi + "/PaymentMethods", t.token()));
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
  conn.send(get_head(kApi + "/SourceConnector", t.token()));
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
  conn.send("POST " + kApi +
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
  conn.send(get_head(kApi + "/SourceConnector", t.token()));
  CHECK(conn.read_response().status == 200);
  REQUIRE(conn.open_and_silent());
  const auto before = std::chrono::steady_clock::now();
  t.embedded().stop();
  const auto waited = std::chrono::steady_clock::now() - before;
  CHECK(conn.closed_by_server());
  // httplib's own loop waited out the keep-alive timeout (600 s here).
  CHECK(waited < std::chrono::seconds(60));
}
