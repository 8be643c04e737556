#pragma once
// httplib's server with its keep-alive loop replaced: a connection is served
// through a ConnectionStream (one send per response, reading ahead, the
// addresses learnt once), and an idle connection waits in one poll that
// stopping the server ends, where httplib polls every 10 ms and sleeps 1 ms
// between polls for the whole keep-alive timeout (decision 134).
//
// Routing, parsing and writing stay httplib's: process_request is the same
// function httplib's own loop calls.
//
// Locking rule: stop_fd_ is made before the server starts and closed after
// it stops; interrupt() only writes to it, from any thread.
#include <httplib.h>

namespace fake_org::http {

class ConnectionServer : public httplib::Server {
 public:
  ConnectionServer();
  ~ConnectionServer() override;
  ConnectionServer(const ConnectionServer&) = delete;
  ConnectionServer& operator=(const ConnectionServer&) = delete;

  // Ends every idle connection's wait now, and each busy one after its
  // current request: for stopping without waiting out keep-alive timeouts.
  void interrupt_idle_connections();

 private:
  bool process_and_close_socket(socket_t sock) override;

  int stop_fd_;  // an eventfd, readable once interrupt_idle_connections() ran
};

}  // namespace fake_org::http
