#pragma once
// httplib's server with its keep-alive loop replaced (decisions 134, 135).
//
// - A connection is served through a ConnectionStream: one send per
//   response, reading ahead, the addresses learnt once.
// - Between requests a connection waits in the keep-alive watch (one epoll
//   set, about one worker per core), not on a thread of its own: a request
//   that arrives whole is served by the watch's worker that saw it; one
//   still arriving (a slow client, a chunked body, a client waiting for
//   "100 Continue") goes to a pool thread, which may wait for it.
// - A new connection's first request is awaited on the pool thread that
//   accepted it, so a PSP page waiting for its callback (which comes on a
//   new connection) never waits for a watch worker.
// - Waits end when the server stops, where httplib polls an idle connection
//   every 10 ms for the whole keep-alive timeout.
// - Since it reads ahead, the loop skips a body httplib left unread, and
//   ends the connection when where the next request starts is unknown.
//
// Routing, parsing and writing stay httplib's: process_request is the same
// function httplib's own loop calls.
//
// - A request's head must be whole within the head timeout (30 s), and one
//   peer address holds at most so many workers with heads still arriving.
// - With a TLS context, every connection is HTTPS (decision 218): its
//   handshake runs on the pool thread that accepted it, counted as a slow
//   head and due by the first request's head deadline; after it, the
//   connection is served as a plain one, through the stream's transport.
//
// Locking rule: stop_fd_ and tls_ are made before the server starts and
// closed after it stops (OpenSSL guards a context shared by sessions); head_ms_ and slow_heads_ are
// set before it starts (SlowHeads guards its counts); interrupt_connections() only writes to it,
// from any thread. workers_ is set by httplib's accept loop before it accepts, and cleared after
// every thread that reads it has ended.
#include "httplib_seam.h"

#include <openssl/ssl.h>

#include <atomic>
#include <memory>

#include "connection.h"
#include "connection_pool.h"
#include "plain_request.h"
#include "slow_heads.h"

namespace fake_org::net {

class ConnectionServer : public httplib::Server {
 public:
  // With `tls` (owned from now on), connections are HTTPS.
  explicit ConnectionServer(SSL_CTX* tls = nullptr);
  ~ConnectionServer() override;
  ConnectionServer(const ConnectionServer&) = delete;
  ConnectionServer& operator=(const ConnectionServer&) = delete;

  // Before listening: the pool's limits, and the watch's workers (0: one per
  // core, at least 2).
  void set_workers(ConnectionPoolLimits pool, size_t watchers = 0);
  // Before listening: how long a request's head may take from its first
  // byte, and how many connections one peer address may hold a worker with
  // while their heads arrive (slow_heads.h).
  void set_head_limits(int head_ms, size_t slow_heads_per_peer);
  // Ends every connection's waits now (an idle one, a request still
  // arriving, an answer the client does not read): for stopping without
  // waiting out keep-alive and read timeouts.
  void interrupt_connections();
  // Before listening: the handlers httplib was given, so a plain request is
  // served without httplib's parse and writer (plain_request.h); none given, or
  // some missing, and every request goes through httplib.
  void serve_plain_requests(PlainHandlers handlers) { plain_ = std::move(handlers); }
  // For tests: connections waiting in the watch for their next request.
  size_t parked_for_test() const;

 private:
  class Workers;
  bool process_and_close_socket(socket_t sock) override;
  // A connection whose next request has begun, on a pool thread.
  void serve_on_thread(std::unique_ptr<Connection> c);
  // On a pool thread: sends what the last answer still owes, then, when
  // `keep`, serves the requests already read and parks the connection.
  void continue_on_thread(std::unique_ptr<Connection> c, bool keep);
  // A parked connection with bytes (or an end), on a watch worker.
  void serve_from_watch(std::unique_ptr<Connection> c);
  void hand_to_pool(std::unique_ptr<Connection> c);
  void finish_on_pool(std::unique_ptr<Connection> c, bool keep);
  void close_on_pool(std::unique_ptr<Connection> c);
  // Serves the request begun, its answer kept in the stream; false when the
  // connection is to end after the answer.
  bool serve_one(Connection& c);
  // Serves the request begun when it is plain (plain_request.h), setting
  // `closed` and `served` as process_request would; false, having read
  // nothing, for any other.
  bool serve_plain(Connection& c, bool last, bool& closed, bool& served);
  // Answers 503 and ends the connection: its peer holds too many slow heads.
  void refuse_slow_head(Connection& c);
  // The TLS handshake of a connection just accepted; false when it is
  // closed instead (failed, too slow, or its peer over the slow-head cap).
  bool accept_tls(Connection& c);
  int idle_ms() const { return static_cast<int>(keep_alive_timeout_sec_ * 1000); }

  int stop_fd_;  // an eventfd, readable once interrupt_connections() ran
  struct CtxFree {
    void operator()(SSL_CTX* ctx) const { SSL_CTX_free(ctx); }
  };
  std::unique_ptr<SSL_CTX, CtxFree> tls_;
  ConnectionPoolLimits pool_limits_;
  int head_ms_ = 30000;
  std::unique_ptr<SlowHeads> slow_heads_ = std::make_unique<SlowHeads>(256);
  size_t watchers_ = 0;
  PlainHandlers plain_;
  std::atomic<Workers*> workers_{nullptr};  // httplib's task queue, while listening
};

}  // namespace fake_org::net
