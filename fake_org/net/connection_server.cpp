#include "connection_server.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <thread>

#include "keep_alive_watch.h"

namespace fake_org::net {

namespace {

// Puts back a request target the stream stood in for (decision 141), parsed
// as httplib parses one: the path percent-decoded, the query into params.
void restore_long_target(httplib::Request& req, std::string target) {
  const size_t q = target.find('?');
  req.path = httplib::detail::decode_url(target.substr(0, q), false);
  req.params.clear();
  if (q != std::string::npos && q + 1 < target.size())
    httplib::detail::parse_query_text(target.substr(q + 1), req.params);
  req.target = std::move(target);
}

// A declared body nobody read longer than this ends the connection instead
// of being read and dropped.
constexpr size_t kDiscardAtMost = 64 * 1024;

}  // namespace

// httplib's task queue for this server: the pool that accepted connections
// and requests still arriving are served on, and the watch that holds
// connections between requests.
class ConnectionServer::Workers final : public httplib::TaskQueue {
 public:
  Workers(ConnectionServer& server, ConnectionPoolLimits limits, size_t watchers)
      : server(server),
        pool(limits),
        watch(watchers, std::chrono::milliseconds(server.idle_ms()),
              [&server](std::unique_ptr<Connection> c) { server.serve_from_watch(std::move(c)); }) {
  }
  void enqueue(std::function<void()> job) override { pool.enqueue(std::move(job)); }
  // The watch's workers end first (what they hand the pool is still
  // served), then the pool's; what is parked closes last, when nothing can
  // park any more.
  void shutdown() override {
    watch.stop_workers();
    pool.shutdown();
    watch.close_parked();
    server.workers_ = nullptr;  // httplib deletes this next
  }

  ConnectionServer& server;
  ConnectionPool pool;
  KeepAliveWatch watch;
};

ConnectionServer::ConnectionServer(SSL_CTX* tls)
    : stop_fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)), tls_(tls) {
  new_task_queue = [this] {
    const size_t watchers =
        watchers_ > 0 ? watchers_ : std::max(2u, std::thread::hardware_concurrency());
    auto* workers = new Workers(*this, pool_limits_, watchers);
    workers_ = workers;
    return workers;
  };
}

ConnectionServer::~ConnectionServer() {
  if (stop_fd_ >= 0) close(stop_fd_);
}

void ConnectionServer::set_workers(ConnectionPoolLimits pool, size_t watchers) {
  pool_limits_ = pool;
  watchers_ = watchers;
}

void ConnectionServer::set_head_limits(int head_ms, size_t slow_heads_per_peer) {
  head_ms_ = head_ms;
  slow_heads_ = std::make_unique<SlowHeads>(slow_heads_per_peer);
}

void ConnectionServer::interrupt_connections() {
  if (stop_fd_ < 0) return;
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = ::write(stop_fd_, &one, sizeof(one));
}

size_t ConnectionServer::parked_for_test() const {
  const Workers* w = workers_;
  return w ? w->watch.parked() : 0;
}

bool ConnectionServer::process_and_close_socket(socket_t sock) {
  const auto ms = [](time_t sec, time_t usec) {
    return static_cast<int>(sec * 1000 + usec / 1000);
  };
  auto c = std::make_unique<Connection>(
      sock,
      StreamTimeouts{ms(read_timeout_sec_, read_timeout_usec_),
                     ms(write_timeout_sec_, write_timeout_usec_), head_ms_},
      stop_fd_, keep_alive_max_count_);
  if (tls_ && !accept_tls(*c)) return true;
  if (c->stream.wait_for_request(idle_ms())) serve_on_thread(std::move(c));
  return true;
}

bool ConnectionServer::accept_tls(Connection& c) {
  // Due by the first head's deadline, from accept: a handshake trickled in
  // must not buy its head a fresh one.
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(head_ms_);
  std::string peer;
  int port = 0;
  c.stream.get_remote_ip_and_port(peer, port);
  if (!slow_heads_->enter(peer)) {
    c.stream.close_idle();  // no session yet to answer 503 in
    return false;
  }
  const bool ok = c.stream.start_tls(tls_.get(), until);
  slow_heads_->leave(peer);
  return ok;
}

void ConnectionServer::serve_on_thread(std::unique_ptr<Connection> c) {
  c->stream.set_wait_to_write(true);
  const bool keep = serve_one(*c);
  continue_on_thread(std::move(c), keep);
}

void ConnectionServer::continue_on_thread(std::unique_ptr<Connection> c, bool keep) {
  c->stream.set_wait_to_write(true);
  for (;;) {
    if (!c->stream.flush() || !keep) return;
    // The next request goes to the watch unless it is read already
    // (pipelined): a pool thread that kept a fast client, whose next request
    // is often there at once, ran beside the watch's workers and spread
    // their latency.
    Workers* w = workers_;
    if (!c->stream.holds_input() && w && w->watch.watching()) {
      // Handed back when an event reached it while this thread held it,
      // maybe for the request this thread read: served as the watch
      // serves, which parks it again rather than wait here.
      if ((c = w->watch.park(std::move(c)))) serve_from_watch(std::move(c));
      return;
    }
    // No watch (stopping, or the system gave it no thread): this thread
    // waits, as httplib's loop does.
    if (!c->stream.wait_for_request(idle_ms())) return;
    keep = serve_one(*c);
  }
}

void ConnectionServer::serve_from_watch(std::unique_ptr<Connection> c) {
  // The whole answer is kept and sent without waiting: a client slower to
  // read than this side writes must not hold up every connection the watch
  // serves.
  c->stream.set_wait_to_write(false);
  for (;;) {
    switch (c->stream.next_request()) {
      case ConnectionStream::Arrival::kRequest:
        break;
      case ConnectionStream::Arrival::kGone:
        return;
      case ConnectionStream::Arrival::kNothingYet:
        // Empty lines alone do not make a connection less idle.
        if (std::chrono::steady_clock::now() - c->answered_at >=
            std::chrono::milliseconds(idle_ms()))
          return c->stream.close_idle();
        c = workers_.load()->watch.park(std::move(c));
        if (!c) return;
        continue;  // an event came meanwhile: read again
    }
    if (!c->stream.request_is_whole()) return hand_to_pool(std::move(c));
    const bool keep = serve_one(*c);
    switch (c->stream.send_kept()) {
      case ConnectionStream::Sent::kBroken:
        return;
      case ConnectionStream::Sent::kPart:
        return finish_on_pool(std::move(c), keep);
      case ConnectionStream::Sent::kAll:
        break;
    }
    if (!keep) return close_on_pool(std::move(c));
    // Back to the watch unless the next request is read already
    // (pipelined), or came while this worker answered (handed back).
    if (!c->stream.holds_input()) {
      c = workers_.load()->watch.park(std::move(c));
      if (!c) return;
    }
  }
}

namespace {

// A std::function must be copyable; a job the pool drops (it is stopping)
// closes the connection with its holder.
using Held = std::shared_ptr<std::unique_ptr<Connection>>;
Held hold(std::unique_ptr<Connection> c) {
  return std::make_shared<std::unique_ptr<Connection>>(std::move(c));
}

}  // namespace

void ConnectionServer::hand_to_pool(std::unique_ptr<Connection> c) {
  workers_.load()->pool.enqueue(
      [this, held = hold(std::move(c))] { serve_on_thread(std::move(*held)); });
}

void ConnectionServer::finish_on_pool(std::unique_ptr<Connection> c, bool keep) {
  workers_.load()->pool.enqueue(
      [this, keep, held = hold(std::move(c))] { continue_on_thread(std::move(*held), keep); });
}

void ConnectionServer::close_on_pool(std::unique_ptr<Connection> c) {
  // Closing waits for the client to end its side (up to a second) when it
  // has not: not on a watch worker, which the other connections need.
  if (!c->stream.close_may_wait()) return;
  workers_.load()->pool.enqueue([held = hold(std::move(c))] { held->reset(); });
}

bool ConnectionServer::serve_one(Connection& c) {
  // As httplib's loop: at most keep_alive_max_count_ requests, the last
  // answered with "Connection: close".
  const bool last = c.requests_left <= 1;
  --c.requests_left;
  // A head not yet here whole holds this worker while it arrives: counted
  // against its peer's slow heads for that long.
  std::string slow_peer;
  const bool slow = !c.stream.head_is_here();
  if (slow) {
    int port = 0;
    c.stream.get_remote_ip_and_port(slow_peer, port);
    if (!slow_heads_->enter(slow_peer)) {
      refuse_slow_head(c);
      return false;
    }
  }
  bool closed = false;
  bool served = false;
  if (slow || !serve_plain(c, last, closed, served))
    served = process_request(c.stream, last, closed, [&c](httplib::Request& req) {
      std::string target = c.stream.take_long_target();
      if (!target.empty()) restore_long_target(req, std::move(target));
    });
  if (slow) slow_heads_->leave(slow_peer);
  c.answered_at = std::chrono::steady_clock::now();
  bool keep = served && !closed && !last && svr_sock_ != INVALID_SOCKET;
  // httplib reads no body of a GET and stops at a head it cannot parse:
  // the next request starts after the body the head declared, or, when
  // that is unknown or long, the connection ends with this answer.
  const auto unread = c.stream.unread_body();
  if (keep && (!unread || *unread > kDiscardAtMost)) {
    keep = false;
    c.stream.announce_close();
  }
  return keep && c.stream.discard(*unread);
}

bool ConnectionServer::serve_plain(Connection& c, bool last, bool& closed, bool& served) {
  if (!plain_.complete()) return false;
  const std::string_view head = c.stream.buffered_head();
  if (head.empty()) return false;
  httplib::Request req;
  if (!parse_plain_request(head, req, payload_max_length_)) return false;
  c.stream.take_buffered_head(head.size());
  served = net::serve_plain_request(c.stream, req, plain_,
                                    {last, keep_alive_timeout_sec_, keep_alive_max_count_}, closed);
  return true;
}

void ConnectionServer::refuse_slow_head(Connection& c) {
  static const std::string kBody =
      "[{\"message\":\"This address already holds too many connections whose request is "
      "still arriving: send each request whole, or fewer at once\",\"errorCode\":"
      "\"SERVER_UNAVAILABLE\"}]";
  const std::string answer =
      "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: " +
      std::to_string(kBody.size()) + "\r\nRetry-After: 1\r\nConnection: close\r\n\r\n" + kBody;
  c.stream.write(answer.data(), answer.size());
}

}  // namespace fake_org::net
