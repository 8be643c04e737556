// A plain request served without httplib's process_request (decisions 208,
// 215): parsed as httplib parses it, its body read as httplib reads it, and
// answered byte for byte as httplib answers it.
#include "plain_request.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "connection_server.h"
#include "testing/raw_http.h"

using namespace fake_org;
using namespace fake_org::testing;

namespace {

// A ConnectionServer whose handlers echo what they were given, with or
// without the plain path; the same requests must get the same bytes.
class PlainEchoServer {
 public:
  explicit PlainEchoServer(bool plain) {
    net::PlainHandlers h;
    h.pre_routing = [](const httplib::Request& req, httplib::Response& res) {
      if (req.path == "/left" || req.method != "GET")
        return httplib::Server::HandlerResponse::Unhandled;
      if (req.path == "/throws") throw std::runtime_error("boom");
      std::string text = req.method + " " + req.target + " " + req.path + " " + req.version;
      for (const auto& [k, v] : req.params) text += " " + k + "=" + v;
      for (const auto& [k, v] : req.headers)
        if (k != "REMOTE_PORT" && k != "LOCAL_PORT") text += "\n" + k + ": " + v;  // differ
      res.status = req.path == "/missing" ? 404 : res.status;
      if (req.path != "/empty") res.set_content(text, "text/x-echo");
      return httplib::Server::HandlerResponse::Handled;
    };
    h.route = [](const httplib::Request& req, httplib::Response& res) {
      if (req.path == "/throws") throw std::runtime_error("boom");
      std::string text = "routed " + req.method + " " + req.path + " [" + req.body + "]";
      for (const auto& [k, v] : req.params) text += " " + k + "=" + v;
      res.set_content(text, "text/plain");
    };
    h.post_routing = [](const httplib::Request&, httplib::Response& res) {
      res.set_header("X-Post", std::to_string(res.status));
    };
    // As the fake's: an answer with a body is left as it is, one without
    // gets the handler's.
    h.error = [](const httplib::Request&, httplib::Response& res) {
      if (!res.body.empty()) {
        res.body += " (error handler)";
        return httplib::Server::HandlerResponse::Unhandled;
      }
      res.set_content("(error handler's own)", "text/plain");
      return httplib::Server::HandlerResponse::Handled;
    };
    h.exception = [](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
      res.status = 500;
      res.set_content("exception", "text/plain");
    };
    h.logger = [](const httplib::Request&, const httplib::Response&) {};
    server_.set_pre_routing_handler(h.pre_routing);
    server_.Get(".*", h.route);
    server_.Post(".*", h.route);
    server_.Put(".*", h.route);
    server_.Patch(".*", h.route);
    server_.Delete(".*", h.route);
    server_.set_payload_max_length(64);
    server_.set_post_routing_handler(h.post_routing);
    server_.set_error_handler(h.error);
    server_.set_exception_handler(h.exception);
    server_.set_logger(h.logger);
    server_.set_keep_alive_max_count(100);
    if (plain) server_.serve_plain_requests(h);
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::yield();
  }
  ~PlainEchoServer() {
    server_.stop();
    thread_.join();
  }
  int port() const { return port_; }
  // The answers to `requests` sent together on one connection, as sent.
  std::string answers(const std::string& requests, size_t count) {
    RawConnection conn(port_);
    conn.send(requests);
    std::string all;
    for (size_t i = 0; i < count; ++i) {
      const RawResponse r = conn.read_response();
      all += r.head + "\n" + r.body + "\n";
    }
    return all;
  }

 private:
  net::ConnectionServer server_;
  int port_ = 0;
  std::thread thread_;
};

}  // namespace

TEST_CASE("a plain GET is parsed as httplib parses it", "[http][connection]") {
  httplib::Request req;
  REQUIRE(net::parse_plain_request(
      "GET /a/b?x=1&y=two HTTP/1.1\r\nHost: h\r\nX-Pad:  v a l  \r\nhost: again\r\n\r\n", req,
      1000));
  CHECK(req.method == "GET");
  CHECK(req.version == "HTTP/1.1");
  CHECK(req.target == "/a/b?x=1&y=two");
  CHECK(req.path == "/a/b");
  CHECK(req.get_param_value("x") == "1");
  CHECK(req.get_param_value("y") == "two");
  CHECK(req.get_header_value("X-Pad") == "v a l");
  CHECK(req.get_header_value_count("HOST") == 2);
  CHECK(req.get_header_value("Host", 1) == "again");
  httplib::Request coded;
  REQUIRE(net::parse_plain_request("GET /a%20b?q=SELECT%20Id+x HTTP/1.1\r\nHost: h\r\n\r\n", coded,
                                   1000));
  CHECK(coded.path == "/a b");
  CHECK(coded.target == "/a%20b?q=SELECT%20Id+x");
  CHECK(coded.get_param_value("q") == "SELECT Id x");
}

TEST_CASE("a request with a Content-Length body is plain too", "[http][connection]") {
  httplib::Request req;
  REQUIRE(net::parse_plain_request(
      "POST /p?x=1 HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n"
      "Content-Length: 12\r\n\r\n",
      req, 12));
  CHECK(req.method == "POST");
  CHECK(req.path == "/p");
  CHECK(req.get_param_value("x") == "1");
  CHECK(req.get_header_value("Content-Length") == "12");
  CHECK(req.body.empty());  // read once the pre-routing handler leaves it
  for (const char* method : {"PUT", "PATCH", "DELETE"}) {
    httplib::Request other;
    CHECK(net::parse_plain_request(
        std::string(method) + " /p HTTP/1.1\r\nContent-Length: 0\r\n\r\n", other, 0));
    CHECK(other.method == method);
  }
}

TEST_CASE("a request with a body httplib reads otherwise is left to it", "[http][connection]") {
  const char* heads[] = {
      "POST /a HTTP/1.1\r\nHost: h\r\n\r\n",             // no length: to the connection's end
      "POST /a HTTP/1.1\r\nContent-Length: 13\r\n\r\n",  // past the limit: httplib's 413
      "POST /a HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n",
      "POST /a HTTP/1.1\r\nContent-Length: +1\r\n\r\n",
      "POST /a HTTP/1.1\r\nContent-Length: 1 1\r\n\r\n",
      "POST /a HTTP/1.1\r\nContent-Length: 0000000000000000001\r\n\r\n",
      "POST /a HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
      "POST /a HTTP/1.1\r\nContent-Length: 1\r\nContent-Encoding: gzip\r\n\r\n",
      "POST /a HTTP/1.1\r\nContent-Length: 1\r\nExpect: 100-continue\r\n\r\n",
      ("POST /a HTTP/1.1\r\nContent-Length: 1\r\n"
       "Content-Type: application/x-www-form-urlencoded\r\n\r\n"),
      "POST /a HTTP/1.1\r\nContent-Length: 1\r\nContent-Type: Multipart/Form-Data; b=x\r\n\r\n",
      "POST /a HTTP/1.0\r\nContent-Length: 1\r\n\r\n",
      "OPTIONS /a HTTP/1.1\r\nContent-Length: 0\r\n\r\n",
      "post /a HTTP/1.1\r\nContent-Length: 0\r\n\r\n",
  };
  for (const char* head : heads) {
    INFO(head);
    httplib::Request req;
    CHECK_FALSE(net::parse_plain_request(head, req, 12));
  }
}

TEST_CASE("a GET httplib reads otherwise is left to it", "[http][connection]") {
  const char* heads[] = {
      "HEAD /a HTTP/1.1\r\nHost: h\r\n\r\n",
      "GET /a HTTP/1.0\r\nHost: h\r\n\r\n",
      "GET /a%0Ab HTTP/1.1\r\nHost: h\r\n\r\n",
      "GET /a#frag HTTP/1.1\r\nHost: h\r\n\r\n",
      "GET /a?b?c HTTP/1.1\r\nHost: h\r\n\r\n",
      "GET http://h/a HTTP/1.1\r\nHost: h\r\n\r\n",
      "GET  /a HTTP/1.1\r\nHost: h\r\n\r\n",
      "GET /a HTTP/1.1\r\nX-Coded: a%41\r\n\r\n",
      "GET /a HTTP/1.1\r\nRange: bytes=0-1\r\n\r\n",
      "GET /a HTTP/1.1\r\nExpect: 100-continue\r\n\r\n",
      "GET /a HTTP/1.1\r\nAccept-Encoding: gzip\r\n\r\n",
      "GET /a HTTP/1.1\r\ncontent-length: 0\r\n\r\n",
      "GET /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
      "GET /a HTTP/1.1\r\nX-Bad : v\r\n\r\n",
      "GET /a HTTP/1.1\r\nX-Empty:\r\n\r\n",
      "GET /a HTTP/1.1\r\nNo colon\r\n\r\n",
      "GET /a HTTP/1.1\r\nX-Lf: a\nb\r\n\r\n",
  };
  for (const char* head : heads) {
    INFO(head);
    httplib::Request req;
    CHECK_FALSE(net::parse_plain_request(head, req, 1000));
  }
}

TEST_CASE("a plain GET gets the bytes httplib would send", "[http][connection]") {
  const std::string host = "Host: h\r\n";
  const std::string requests =
      "GET /echo?a=1&b HTTP/1.1\r\n" + host + "X-One: 1\r\n\r\n" +  // served plainly
      "GET /missing HTTP/1.1\r\n" + host + "\r\n" +                 // the error handler
      "GET /empty HTTP/1.1\r\n" + host + "\r\n" +                   // Content-Length: 0
      "GET /throws HTTP/1.1\r\n" + host + "\r\n" +                  // the exception handler
      "GET /left HTTP/1.1\r\n" + host + "\r\n" +                    // to the GET handler
      "GET /echo%21?q=a%20b HTTP/1.1\r\n" + host + "\r\n" +         // decoded
      "GET /echo HTTP/1.1\r\n" + host + "Accept-Encoding: identity\r\n\r\n" +  // httplib's own
      "GET /last HTTP/1.1\r\n" + host + "Connection: close\r\n\r\n";
  PlainEchoServer plain(true), httplib_only(false);
  const std::string expected = httplib_only.answers(requests, 8);
  CHECK(expected.find("GET /echo?a=1&b /echo HTTP/1.1 a=1 b=") != std::string::npos);
  CHECK(expected.find("(error handler)") != std::string::npos);
  CHECK(expected.find("exception") != std::string::npos);
  CHECK(expected.find("routed") != std::string::npos);
  CHECK(expected.find("Connection: close") != std::string::npos);
  CHECK(plain.answers(requests, 8) == expected);
}

TEST_CASE("a plain request with a body gets the bytes httplib would send", "[http][connection]") {
  const std::string host = "Host: h\r\n";
  const std::string json = "Content-Type: application/json\r\n";
  const std::string requests =
      "POST /echo?a=1 HTTP/1.1\r\n" + host + json + "Content-Length: 7\r\n\r\n{\"a\":1}" +
      "PUT /put HTTP/1.1\r\n" + host + "Content-Length: 3\r\n\r\nabc" +
      "PATCH /patch HTTP/1.1\r\n" + host + "Content-Length: 0\r\n\r\n" +
      "DELETE /delete HTTP/1.1\r\n" + host + "Content-Length: 2\r\n\r\nxy" +
      "POST /throws HTTP/1.1\r\n" + host + "Content-Length: 1\r\n\r\nz" +
      // httplib's own paths, between plain ones: a form, a body past the limit.
      "POST /form HTTP/1.1\r\n" + host +
      "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 7\r\n\r\nk=v&w=x" +
      "POST /big HTTP/1.1\r\n" + host + "Content-Length: 65\r\n\r\n" + std::string(65, 'b') +
      "POST /last HTTP/1.1\r\n" + host + "Content-Length: 4\r\nConnection: close\r\n\r\nlast";
  PlainEchoServer plain(true), httplib_only(false);
  const std::string expected = httplib_only.answers(requests, 8);
  CHECK(expected.find("routed POST /echo [{\"a\":1}] a=1") != std::string::npos);
  CHECK(expected.find("routed DELETE /delete [xy]") != std::string::npos);
  CHECK(expected.find("routed POST /form [k=v&w=x] k=v w=x") != std::string::npos);
  CHECK(expected.find("413") != std::string::npos);
  CHECK(plain.answers(requests, 8) == expected);
}

TEST_CASE("a body that arrives later, or never, is read as httplib reads it",
          "[http][connection]") {
  PlainEchoServer plain(true), httplib_only(false);
  for (PlainEchoServer* server : {&plain, &httplib_only}) {
    RawConnection conn(server->port());
    conn.send("POST /slow HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nhalf ");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    conn.send("done!");
    CHECK(conn.read_response().body == "routed POST /slow [half done!]");
  }
  std::string answers[2];
  for (int i = 0; i < 2; ++i) {
    RawConnection conn((i == 0 ? plain : httplib_only).port());
    conn.send("POST /cut HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nhalf ");
    conn.finish_sending();
    const RawResponse r = conn.read_response();
    answers[i] = r.head + "\n" + r.body;
  }
  CHECK(answers[0].find("400") != std::string::npos);
  CHECK(answers[0] == answers[1]);
}
