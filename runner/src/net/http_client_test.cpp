// The HTTP client's keep-alive against a server that closes idle
// connections (httplib servers do after 5 s; these tests set 1 s): a
// connection idle too long is not reused, a reused one the server closed
// meanwhile is retried once on a fresh connection, and a request that timed
// out is never sent twice.
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <httplib.h>

#include <catch2/catch.hpp>

#include "net/http_client.h"
#include "testing/free_port.h"
#include "testing/temp_dir.h"
#include "testing/test_cert.h"

using common_testing::TestCert;
using namespace runner;
using namespace runner::testing;

namespace {

// A server answering /port with the client's port (one per connection) and
// /count with how many requests reached it; /slow waits until released.
//
// Locking: mutex_ guards released_; counters are atomic.
class IdleClosingServer {
 public:
  IdleClosingServer(std::unique_ptr<httplib::Server> server, std::string scheme)
      : server_(std::move(server)), scheme_(std::move(scheme)) {
    server_->set_keep_alive_timeout(1);
    server_->Get("/port", [](const httplib::Request& req, httplib::Response& res) {
      res.set_content(req.get_header_value("REMOTE_PORT"), "text/plain");
    });
    server_->Post("/count", [this](const httplib::Request&, httplib::Response& res) {
      res.set_content(std::to_string(++posts_), "text/plain");
    });
    server_->Post("/slow", [this](const httplib::Request&, httplib::Response& res) {
      ++slow_;
      std::unique_lock<std::mutex> lock(mutex_);
      released_cv_.wait(lock, [this] { return released_; });
      res.set_content("late", "text/plain");
    });
    port_ = server_->bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_->listen_after_bind(); });
    while (!server_->is_running()) std::this_thread::yield();
  }
  ~IdleClosingServer() {
    release();
    server_->stop();
    thread_.join();
  }
  std::string url(const std::string& path) const {
    return scheme_ + "://127.0.0.1:" + std::to_string(port_) + path;
  }
  void release() {
    std::lock_guard<std::mutex> lock(mutex_);
    released_ = true;
    released_cv_.notify_all();
  }
  int posts() const { return posts_; }
  int slow() const { return slow_; }

 private:
  std::unique_ptr<httplib::Server> server_;
  std::string scheme_;
  int port_ = 0;
  std::thread thread_;
  std::atomic<int> posts_{0};
  std::atomic<int> slow_{0};
  std::mutex mutex_;
  std::condition_variable released_cv_;
  bool released_ = false;
};

HttpRequest get(const std::string& url) {
  HttpRequest r;
  r.url = url;
  return r;
}

HttpRequest post(const std::string& url) {
  HttpRequest r;
  r.method = "POST";
  r.url = url;
  r.body = "{}";
  return r;
}

// Longer than the servers' keep-alive timeout of 1 s.
void outlast_keep_alive() {
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
}

}  // namespace

TEST_CASE("http client: a connection idle longer than the idle limit is not reused", "[net]") {
  IdleClosingServer server(std::make_unique<httplib::Server>(), "http");
  // Half a second: a loaded CI machine (sanitizers, two cores) can stall the
  // test between two sends for a good part of 100 ms.
  HttpClient client({}, std::chrono::milliseconds(500));
  const std::string first = client.send(get(server.url("/port"))).body;
  const std::string again = client.send(get(server.url("/port"))).body;
  CHECK(again == first);  // kept alive while fresh
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  HttpResponse later = client.send(get(server.url("/port")));
  CHECK(later.status == 200);
  CHECK(later.body != first);  // a new connection, so a new client port
}

TEST_CASE("http client: a reused connection the server closed while idle is retried once",
          "[net]") {
  TempDir dir("runner_http_client");
  TestCert cert = TestCert::make();
  const std::string cert_file = (dir.path / "cert.pem").string();
  cert.write(cert_file, (dir.path / "key.pem").string());
  std::unique_ptr<IdleClosingServer> server;
  SECTION("http") {
    server = std::make_unique<IdleClosingServer>(std::make_unique<httplib::Server>(), "http");
  }
  SECTION("https") {
    server = std::make_unique<IdleClosingServer>(
        std::make_unique<httplib::SSLServer>(cert.cert.get(), cert.key.get()), "https");
  }
  // An idle limit far above the server's keep-alive: only the retry can help.
  HttpClient client(TlsOptions{cert_file}, std::chrono::hours(1));
  REQUIRE(client.send(post(server->url("/count"))).body == "1");
  outlast_keep_alive();
  HttpResponse r = client.send(post(server->url("/count")));
  CHECK(r.status == 200);
  CHECK(r.body == "2");  // the POST reached the server once
  CHECK(server->posts() == 2);
}

TEST_CASE("http client: a request that timed out on a reused connection is not sent again",
          "[net]") {
  IdleClosingServer server(std::make_unique<httplib::Server>(), "http");
  HttpClient client;
  REQUIRE(client.send(get(server.url("/port"))).status == 200);
  CHECK_THROWS_AS(client.send(post(server.url("/slow")), std::chrono::milliseconds(200)),
                  HttpError);
  // A retry would have reached the server while the client waited for it.
  CHECK(server.slow() == 1);
  server.release();
  CHECK(client.send(get(server.url("/port"))).status == 200);
}

namespace {

// The HttpError's text, "" when the request succeeded.
std::string transport_failure(HttpClient& client, const std::string& url,
                              std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
  try {
    client.send({"POST", url, {}, "{}"}, timeout);
  } catch (const HttpError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("http client: a transport failure says what happened, with its figures", "[net]") {
  HttpClient client;
  const int dead = free_port();
  const std::string host = "127.0.0.1:" + std::to_string(dead);
  CHECK_THAT(transport_failure(client, "http://" + host + "/x"),
             Catch::EndsWith("connection refused to " + host + " (nothing listens there)"));

  IdleClosingServer server(std::make_unique<httplib::Server>(), "http");
  CHECK_THAT(transport_failure(client, server.url("/slow"), std::chrono::milliseconds(300)),
             Catch::Contains("no answer from 127.0.0.1:") &&
                 Catch::EndsWith(" within 300 ms (read timeout)"));
  server.release();

  // https:// to a server that speaks plain HTTP.
  IdleClosingServer plain(std::make_unique<httplib::Server>(), "http");
  std::string url = plain.url("/count");
  url.replace(0, 4, "https");
  CHECK_THAT(transport_failure(client, url),
             Catch::Contains("failed: the server speaks plain HTTP (use http:// in the URL)"));
}

TEST_CASE("http client: a body that is not JSON says where parsing stopped", "[net]") {
  HttpResponse r;
  r.headers = {{"Content-Type", "text/html"}};
  r.body = "<!DOCTYPE html>\n<html>oops</html>";
  CHECK_THAT(r.not_json_reason(),
             Catch::StartsWith("not JSON (Content-Type text/html; parsing stopped at byte 1): "
                               "<!DOCTYPE html> <html>"));
  r.body = "{\"a\": 1}";
  CHECK(r.not_json_reason().empty());
}
