#pragma once
// Starts a bound httplib server's accept loop on its own thread and returns
// once the loop runs (or has already ended). httplib 0.11's stop() does
// nothing until then, so a server stopped right after it started (a Ctrl-C
// at once, a test that ends fast) would otherwise listen for ever and its
// thread never join.
#include <httplib.h>

#include <atomic>
#include <memory>
#include <thread>

namespace runner {

inline std::thread listen_in_background(httplib::Server& server) {
  auto ended = std::make_shared<std::atomic<bool>>(false);
  std::thread loop([&server, ended] {
    server.listen_after_bind();
    *ended = true;
  });
  while (!server.is_running() && !*ended) std::this_thread::yield();
  return loop;
}

}  // namespace runner
