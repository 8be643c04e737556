#pragma once
// httplib's server with its keep-alive loop replaced: a connection is served
// through a ConnectionStream (one send per response, reading ahead, the
// addresses learnt once), and its waits end when the server stops, where
// httplib polls an idle connection every 10 ms and sleeps 1 ms between polls
// for the whole keep-alive timeout (decision 134). Since it reads ahead, the
// loop skips a body httplib left unread, and ends the connection when where
// the next request starts is unknown.
//
// Routing, parsing and writing stay httplib's: process_request is the same
// function httplib's own loop calls.
//
// Locking rule: stop_fd_ is made before the server starts and closed after
// it stops; interrupt_connections() only writes to it, from any thread.
#include <httplib.h>

namespace fake_org::http {

class ConnectionServer : public httplib::Server {
 public:
  ConnectionServer();
  ~ConnectionServer() override;
  ConnectionServer(const ConnectionServer&) = delete;
  ConnectionServer& operator=(const ConnectionServer&) = delete;

  // Ends every connection's waits now (an idle one, a request still
  // arriving, an answer the client does not read): for stopping without
  // waiting out keep-alive and read timeouts.
  void interrupt_connections();

 private:
  bool process_and_close_socket(socket_t sock) override;

  int stop_fd_;  // an eventfd, readable once interrupt_connections() ran
};

}  // namespace fake_org::http
