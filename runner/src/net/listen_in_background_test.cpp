// A server stopped right after listen_in_background() returns must stop: the
// record proxy hung on an instant Ctrl-C (its loop had not started, so
// httplib's stop() did nothing and the join waited for ever).
#include "net/listen_in_background.h"

#include <catch2/catch.hpp>

using namespace runner;

TEST_CASE("a server stopped at once after listen_in_background ends its thread", "[net][process]") {
  for (int i = 0; i < 200; ++i) {
    httplib::Server server;
    REQUIRE(server.bind_to_any_port("127.0.0.1") > 0);
    std::thread loop = listen_in_background(server);
    CHECK(server.is_running());
    server.stop();
    loop.join();  // hangs (CTest's timeout) if stop() came before the loop ran
    CHECK_FALSE(server.is_running());
  }
}
