// The ceiling for bench/compare: cpp-httplib as fake-org uses it (TCP_NODELAY,
// one regex route per method, a worker per connection, the listen queue
// widened) with no work behind the routes. GET answers a fixed body of the
// size of default.yaml's GET /PaymentMethods; POST reads the body and answers
// a fixed intent-sized one. Whatever fake-org does beyond this is its own cost.
//
//   build/bin/bare-server --port 0   (prints "listening on http://127.0.0.1:PORT")
#include <httplib.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "util/listen_backlog.h"

int main(int argc, char** argv) {
  CLI::App app{"A bare cpp-httplib server: the ceiling bench/compare measures against"};
  int port = 0;
  size_t get_bytes = 1500;
  size_t threads = 256;
  app.add_option("--port", port, "Port to listen on (0: any free port)");
  app.add_option("--get-bytes", get_bytes, "Size of the GET body");
  // A kept-alive connection holds its worker, as in fake-org (which starts one
  // per connection): with httplib's default 8 the ceiling would queue.
  app.add_option("--threads", threads, "Workers (at least the connections measured)");
  CLI11_PARSE(app, argc, argv);

  const std::string get_body = "{\"pad\":\"" + std::string(get_bytes, 'x') + "\"}";
  const std::string post_body =
      "{\"Id\":\"pi_0000000000000000000000\",\"PaymentMethod\":{\"Name\":\"CreditCard\"},"
      "\"RedirectURL\":\"http://127.0.0.1/psp/checkout/cs_000000000000000000000000\"}";
  httplib::Server s;
  s.set_tcp_nodelay(true);
  s.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  s.Get(".*", [&](const httplib::Request&, httplib::Response& res) {
    res.set_content(get_body, "application/json;charset=UTF-8");
  });
  s.Post(".*", [&](const httplib::Request& req, httplib::Response& res) {
    res.set_content(req.body.empty() ? get_body : post_body, "application/json;charset=UTF-8");
  });
  const int bound = port == 0 ? s.bind_to_any_port("127.0.0.1") : port;
  if (port != 0 && !s.bind_to_port("127.0.0.1", port)) {
    std::fprintf(stderr, "cannot bind to 127.0.0.1:%d\n", port);
    return 1;
  }
  // As fake-org does: with httplib's backlog of 5, connections past the
  // queue wait a second for a SYN retransmit, and the many-connection
  // figures would describe only the connections let in.
  fake_org::util::widen_listen_backlog(bound);
  std::printf("listening on http://127.0.0.1:%d\n", bound);
  std::fflush(stdout);
  return s.listen_after_bind() ? 0 : 1;
}
