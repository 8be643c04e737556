// The keep-alive watch (decision 135): connections between requests wait in
// one epoll set; a request that comes is served by a watch worker, one
// still arriving by a thread of its own, and an idle connection is closed.
#include "keep_alive_watch.h"

#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "connection_server.h"
#include "testing/raw_http.h"
#include "util/thread_cache.h"

using namespace fake_org::net;
using fake_org::testing::RawConnection;

namespace {

// The peer's end of a socket pair whose other end the watch owns.
struct Peer {
  int fd = -1;
  ~Peer() {
    if (fd >= 0) close(fd);
  }
  // Waits (up to the 60 s safety net) for the other end to close.
  bool sees_close() const {
    timeval tv{60, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char byte;
    return recv(fd, &byte, 1, 0) == 0;
  }
};

std::unique_ptr<Connection> connection_to(Peer& peer) {
  int ends[2];
  REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, ends) == 0);
  peer.fd = ends[1];
  return std::make_unique<Connection>(ends[0], StreamTimeouts{}, -1, 100);
}

// What the watch hands over, for the test thread to take.
struct Handed {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::unique_ptr<Connection>> got;
  KeepAliveWatch::Serve serve() {
    return [this](std::unique_ptr<Connection> c) {
      std::lock_guard<std::mutex> lock(mu);
      got.push_back(std::move(c));
      cv.notify_all();
    };
  }
  std::unique_ptr<Connection> next() {
    std::unique_lock<std::mutex> lock(mu);
    REQUIRE(cv.wait_for(lock, std::chrono::seconds(60), [this] { return !got.empty(); }));
    auto c = std::move(got.front());
    got.pop_front();
    return c;
  }
};

}  // namespace

TEST_CASE("a parked connection is handed over when its next request comes", "[http][watch]") {
  Handed handed;
  KeepAliveWatch watch(2, std::chrono::seconds(600), handed.serve());
  Peer peer;
  REQUIRE(watch.park(connection_to(peer)) == nullptr);
  CHECK(watch.parked() == 1);
  const std::string request = "GET / HTTP/1.1\r\nHost: a\r\n\r\n";
  REQUIRE(send(peer.fd, request.data(), request.size(), 0) == static_cast<ssize_t>(request.size()));
  auto c = handed.next();
  CHECK(watch.parked() == 0);
  REQUIRE(c->stream.next_request() == ConnectionStream::Arrival::kRequest);
  CHECK(c->stream.request_is_whole());
  // Parked again, it is watched again (its epoll entry stays).
  REQUIRE(watch.park(std::move(c)) == nullptr);
  REQUIRE(send(peer.fd, request.data(), request.size(), 0) > 0);
  CHECK(handed.next() != nullptr);
}

TEST_CASE("a request that comes while its connection is held is not lost", "[http][watch]") {
  // The connection's epoll entry is edge-triggered: the event for the second
  // request comes while the test holds the connection, and no other comes.
  Handed handed;
  KeepAliveWatch watch(1, std::chrono::seconds(600), handed.serve());
  Peer peer;
  REQUIRE(watch.park(connection_to(peer)) == nullptr);
  const std::string request = "GET / HTTP/1.1\r\nHost: a\r\n\r\n";
  REQUIRE(send(peer.fd, request.data(), request.size(), 0) == static_cast<ssize_t>(request.size()));
  auto c = handed.next();
  REQUIRE(c->stream.next_request() == ConnectionStream::Arrival::kRequest);
  REQUIRE(send(peer.fd, request.data(), request.size(), 0) == static_cast<ssize_t>(request.size()));
  // Time for the worker to see the event and mark the held connection.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  auto back = watch.park(std::move(c));
  if (!back) back = handed.next();  // the event came later: the watch hands it over
  CHECK(watch.parked() == 0);
  char byte;  // the second request, unread
  CHECK(recv(back->stream.socket(), &byte, 1, MSG_PEEK | MSG_DONTWAIT) == 1);
}

TEST_CASE("a connection that closes while parked is handed over, and ends", "[http][watch]") {
  Handed handed;
  KeepAliveWatch watch(1, std::chrono::seconds(600), handed.serve());
  Peer peer;
  REQUIRE(watch.park(connection_to(peer)) == nullptr);
  close(peer.fd);
  peer.fd = -1;
  CHECK(handed.next()->stream.next_request() == ConnectionStream::Arrival::kGone);
}

TEST_CASE("a connection idle for the keep-alive timeout is closed", "[http][watch]") {
  Handed handed;
  KeepAliveWatch watch(2, std::chrono::milliseconds(20), handed.serve());
  Peer first, second;
  REQUIRE(watch.park(connection_to(first)) == nullptr);
  REQUIRE(watch.park(connection_to(second)) == nullptr);
  CHECK(first.sees_close());
  CHECK(second.sees_close());
  CHECK(watch.parked() == 0);
  // The timer is set again for a connection parked after the list emptied.
  Peer third;
  REQUIRE(watch.park(connection_to(third)) == nullptr);
  CHECK(third.sees_close());
  CHECK(handed.got.empty());
}

TEST_CASE("a request only starting does not count as idle", "[http][watch]") {
  Handed handed;
  KeepAliveWatch watch(2, std::chrono::milliseconds(200), handed.serve());
  Peer peer;
  REQUIRE(watch.park(connection_to(peer)) == nullptr);
  REQUIRE(send(peer.fd, "G", 1, 0) == 1);
  auto c = handed.next();  // handed over at its first byte, however long the rest takes
  CHECK(c->stream.next_request() == ConnectionStream::Arrival::kRequest);
  CHECK_FALSE(c->stream.request_is_whole());
}

TEST_CASE("a request that came before its timeout is served, though the workers were busy",
          "[http][watch]") {
  // One worker, held by A's request past B's timeout. B's request comes
  // before B's timeout, but after the timer that A's timeout had set fired:
  // the worker sees the timer first.
  std::mutex mu;
  std::condition_variable cv;
  bool release = false;
  Handed handed;
  auto to_handed = handed.serve();
  KeepAliveWatch watch(1, std::chrono::seconds(1), [&](std::unique_ptr<Connection> c) {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return release; });
    lock.unlock();
    to_handed(std::move(c));
  });
  Peer a, b;
  REQUIRE(watch.park(connection_to(a)) == nullptr);  // the timer: A's timeout, in 1 s
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  REQUIRE(watch.park(connection_to(b)) == nullptr);  // B's timeout: in 1.5 s
  REQUIRE(send(a.fd, "G", 1, 0) == 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(700));  // past A's timeout
  const std::string request = "GET / HTTP/1.1\r\nHost: a\r\n\r\n";
  REQUIRE(send(b.fd, request.data(), request.size(), 0) > 0);   // 0.3 s before B's
  std::this_thread::sleep_for(std::chrono::milliseconds(800));  // past B's
  {
    std::lock_guard<std::mutex> lock(mu);
    release = true;
  }
  cv.notify_all();
  handed.next();  // A
  auto got = handed.next();
  CHECK(got->stream.next_request() == ConnectionStream::Arrival::kRequest);
  CHECK(got->stream.request_is_whole());
}

TEST_CASE("stopping the watch closes what is parked, and what is parked after", "[http][watch]") {
  Handed handed;
  KeepAliveWatch watch(2, std::chrono::seconds(600), handed.serve());
  std::vector<Peer> peers(50);
  for (auto& p : peers) REQUIRE(watch.park(connection_to(p)) == nullptr);
  CHECK(watch.parked() == 50);
  watch.stop_workers();
  CHECK_FALSE(watch.watching());
  watch.close_parked();
  CHECK(watch.parked() == 0);
  for (auto& p : peers) CHECK(p.sees_close());
  Peer late;
  REQUIRE(watch.park(connection_to(late)) == nullptr);
  CHECK(late.sees_close());
}

TEST_CASE("connections parked from many threads with their requests there are handed over once",
          "[http][watch]") {
  // Each parker has sent the connection's next byte before parking it, so a
  // worker may take it the moment it is armed, as under load.
  Handed handed;
  KeepAliveWatch watch(2, std::chrono::seconds(600), handed.serve());
  constexpr int kConnections = 32, kRounds = 50, kParkers = 4;
  std::vector<Peer> peers(kConnections);
  std::vector<std::unique_ptr<Connection>> first;
  std::unordered_map<int, int> index_of;  // the watched end's fd: its peer's index
  for (int i = 0; i < kConnections; ++i) {
    first.push_back(connection_to(peers[i]));
    index_of[first.back()->stream.socket()] = i;
  }
  std::vector<std::atomic<int>> rounds(kConnections);
  std::atomic<int> handovers{0}, with_a_byte{0}, unsent{0};
  auto send_and_park = [&](std::unique_ptr<Connection> c) {
    const int i = index_of.at(c->stream.socket());
    if (++rounds[i] > kRounds) return;  // done: closed here
    unsent += static_cast<int>(send(peers[i].fd, "x", 1, 0) != 1);
    // Its byte is there: an event may reach it before park() ends, and
    // park() hands it back to be served, as a worker would.
    if (auto back = watch.park(std::move(c))) handed.serve()(std::move(back));
  };
  std::vector<std::thread> parkers;
  for (int t = 0; t < kParkers; ++t)
    parkers.emplace_back([&, t] {
      for (int i = t; i < kConnections; i += kParkers) send_and_park(std::move(first[i]));
      while (handovers.load() < kConnections * kRounds) {
        std::unique_ptr<Connection> c;
        {
          std::unique_lock<std::mutex> lock(handed.mu);
          if (!handed.cv.wait_for(lock, std::chrono::milliseconds(50),
                                  [&] { return !handed.got.empty(); }))
            continue;
          c = std::move(handed.got.front());
          handed.got.pop_front();
        }
        char byte;
        with_a_byte += static_cast<int>(recv(c->stream.socket(), &byte, 1, MSG_DONTWAIT) == 1);
        ++handovers;
        send_and_park(std::move(c));
      }
    });
  for (auto& t : parkers) t.join();
  CHECK(handovers.load() == kConnections * kRounds);
  CHECK(with_a_byte.load() == kConnections * kRounds);  // none handed over twice
  CHECK(unsent.load() == 0);
  CHECK(watch.parked() == 0);
}

namespace {

// More than a connection's kernel buffers hold: the server's send buffer
// grows to 4 MiB (net.ipv4.tcp_wmem), the client's is fixed at 256 KiB.
constexpr size_t kBigBody = 8 << 20;

// A ConnectionServer with three routes, on a free port, and two watch workers.
struct SmallServer {
  ConnectionServer server;
  int port = 0;
  std::thread thread;
  explicit SmallServer(time_t keep_alive_seconds = 5) {
    ConnectionPoolLimits limits;
    limits.ready = 4;
    server.set_workers(limits, 2);
    server.set_keep_alive_max_count(100);
    server.set_keep_alive_timeout(keep_alive_seconds);
    server.Get("/big", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(std::string(kBigBody, 'b'), "text/plain");
    });
    server.Get("/hello", [](const httplib::Request&, httplib::Response& res) {
      res.set_content("hello", "text/plain");
    });
    server.Post("/echo", [](const httplib::Request& req, httplib::Response& res) {
      res.set_content(req.body, "text/plain");
    });
    port = server.bind_to_any_port("127.0.0.1");
    REQUIRE(port > 0);
    thread = std::thread([this] { server.listen_after_bind(); });
    while (!server.is_running()) std::this_thread::yield();
  }
  ~SmallServer() {
    server.interrupt_connections();
    server.stop();
    thread.join();
  }
  // Until every one of n connections waits in the watch (60 s at most).
  bool parked(size_t n) const {
    for (int i = 0; i < 60000 && server.parked_for_test() != n; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return server.parked_for_test() == n;
  }
};

const std::string kHello = "GET /hello HTTP/1.1\r\nHost: a\r\n\r\n";

std::string echo(const std::string& body) {
  return "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\n\r\n" + body;
}

}  // namespace

TEST_CASE("connections between requests wait in the watch, not on threads",
          "[http][watch][connection]") {
  SmallServer s;
  std::vector<std::unique_ptr<RawConnection>> conns;
  for (int i = 0; i < 200; ++i) {
    conns.push_back(std::make_unique<RawConnection>(s.port));
    conns.back()->send(kHello);
    REQUIRE(conns.back()->read_response().body == "hello");
  }
  CHECK(s.parked(200));
  for (auto& c : conns) {
    c->send(echo("again"));
    CHECK(c->read_response().body == "again");
  }
  CHECK(s.parked(200));
}

TEST_CASE("requests still arriving on kept-alive connections do not hold up the others",
          "[http][watch][connection]") {
  SmallServer s;
  // More slow clients than watch workers: each sends half a request after
  // its first, and waits.
  std::vector<std::unique_ptr<RawConnection>> slow;
  for (int i = 0; i < 5; ++i) {
    slow.push_back(std::make_unique<RawConnection>(s.port));
    slow.back()->send(kHello);
    REQUIRE(slow.back()->read_response().status == 200);
  }
  REQUIRE(s.parked(5));
  for (auto& c : slow) c->send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Le");
  RawConnection quick(s.port);
  quick.send(kHello);
  REQUIRE(quick.read_response().status == 200);
  quick.send(echo("quick"));  // from the watch, on a worker no slow client holds
  CHECK(quick.read_response().body == "quick");
  // Answered before any slow client's read timeout (5 s) could have ended it:
  // each is still there to finish its request.
  for (auto& c : slow) {
    c->send("ngth: 4\r\n\r\nslow");
    CHECK(c->read_response().body == "slow");
  }
}

TEST_CASE("a kept-alive connection's chunked, pipelined and 100-continue requests",
          "[http][watch][connection]") {
  SmallServer s;
  RawConnection conn(s.port);
  conn.send(kHello);
  REQUIRE(conn.read_response().status == 200);
  REQUIRE(s.parked(1));
  SECTION("a chunked body is read whole on a thread of its own") {
    conn.send(
        "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: "
        "chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n");
    CHECK(conn.read_response().body == "abc");
  }
  SECTION("pipelined requests are each answered, in order") {
    conn.send(echo("one") + kHello + echo("three"));
    CHECK(conn.read_response().body == "one");
    CHECK(conn.read_response().body == "hello");
    CHECK(conn.read_response().body == "three");
    CHECK(s.parked(1));
  }
  SECTION("a client waiting for 100 Continue gets it") {
    conn.send(
        "POST /echo HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n");
    CHECK(conn.read_head() == "HTTP/1.1 100 Continue");
    conn.send("body");
    CHECK(conn.read_response().body == "body");
  }
}

TEST_CASE("the 100th request from the watch is the last", "[http][watch][connection]") {
  SmallServer s;
  RawConnection conn(s.port);
  for (int i = 1; i <= 100; ++i) {
    conn.send(kHello);
    const auto r = conn.read_response();
    REQUIRE(r.status == 200);
    CHECK((r.header("Connection") == "close") == (i == 100));
  }
  CHECK(conn.closed_by_server());
}

TEST_CASE("clients that do not read their answers do not hold up the others",
          "[http][watch][connection]") {
  SmallServer s;
  // As many such clients as the watch has workers; each asks for more than
  // the socket buffers hold, after a first request that parked it.
  std::vector<std::unique_ptr<RawConnection>> stalled;
  for (int i = 0; i < 2; ++i) {
    stalled.push_back(std::make_unique<RawConnection>(s.port));
    stalled.back()->set_receive_buffer(256 << 10);
    stalled.back()->send(kHello);
    REQUIRE(stalled.back()->read_response().status == 200);
  }
  RawConnection quick(s.port);
  quick.send(kHello);
  REQUIRE(quick.read_response().status == 200);
  REQUIRE(s.parked(3));
  for (auto& c : stalled) c->send("GET /big HTTP/1.1\r\nHost: a\r\n\r\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // both answers begun
  quick.send(echo("quick"));
  CHECK(quick.read_response().body == "quick");
  // Before the write timeout (5 s) could end theirs: each answer arrives
  // whole (read at once, so neither waits for the other's).
  std::vector<size_t> got(stalled.size());
  std::vector<std::thread> readers;
  for (size_t i = 0; i < stalled.size(); ++i)
    readers.emplace_back([&, i] { got[i] = stalled[i]->read_body_size(); });
  for (auto& t : readers) t.join();
  for (size_t n : got) CHECK(n == kBigBody);
}

TEST_CASE("empty lines do not keep an idle connection open", "[http][watch][connection]") {
  SmallServer s(1);
  RawConnection conn(s.port);
  conn.send(kHello);
  REQUIRE(conn.read_response().status == 200);
  // An empty line every 200 ms for up to 4 s: the connection has been idle
  // for its 1 s once an empty line comes after that, and is closed then.
  for (int i = 0; i < 20 && conn.open_and_silent(); ++i) {
    conn.send("\r\n");
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  CHECK_FALSE(conn.open_and_silent());
  CHECK(conn.closed_by_server());
}

namespace {
std::mutex gave_back_mu;
std::condition_variable gave_back_cv;
int gave_back = 0;
void count_give_back() {
  std::lock_guard<std::mutex> lock(gave_back_mu);
  ++gave_back;
  gave_back_cv.notify_all();
}
}  // namespace

TEST_CASE("a drain wakes a sleeping watch worker to give its caches back", "[http][watch]") {
  Handed handed;
  KeepAliveWatch watch(1, std::chrono::seconds(600), [&handed](std::unique_ptr<Connection> c) {
    fake_org::util::on_thread_give_back(count_give_back);  // on the worker's thread
    handed.serve()(std::move(c));
  });
  Peer peer;
  REQUIRE(watch.park(connection_to(peer)) == nullptr);
  REQUIRE(send(peer.fd, "GET / HTTP/1.1\r\n\r\n", 18, 0) == 18);
  auto c = handed.next();
  // Long enough for the worker to be back in its wait: without the wake it
  // would sleep there until its next event, which never comes.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  int before = 0;
  {
    std::lock_guard<std::mutex> lock(gave_back_mu);
    before = gave_back;
  }
  fake_org::util::drain_thread_caches();
  std::unique_lock<std::mutex> lock(gave_back_mu);
  CHECK(gave_back_cv.wait_for(lock, std::chrono::seconds(60), [&] { return gave_back > before; }));
}
