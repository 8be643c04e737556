#include "connection_server.h"

#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "connection_stream.h"

namespace fake_org::http {

namespace {

// A declared body nobody read longer than this ends the connection instead
// of being read and dropped.
constexpr size_t kDiscardAtMost = 64 * 1024;

}  // namespace

ConnectionServer::ConnectionServer() : stop_fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}

ConnectionServer::~ConnectionServer() {
  if (stop_fd_ >= 0) close(stop_fd_);
}

void ConnectionServer::interrupt_connections() {
  if (stop_fd_ < 0) return;
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = ::write(stop_fd_, &one, sizeof(one));
}

bool ConnectionServer::process_and_close_socket(socket_t sock) {
  const auto ms = [](time_t sec, time_t usec) {
    return static_cast<int>(sec * 1000 + usec / 1000);
  };
  ConnectionStream stream(
      sock,
      {ms(read_timeout_sec_, read_timeout_usec_), ms(write_timeout_sec_, write_timeout_usec_)},
      stop_fd_);
  const int idle_ms = ms(keep_alive_timeout_sec_, 0);
  bool served = false;
  // As httplib's loop: at most keep_alive_max_count_ requests, the last
  // answered with "Connection: close".
  for (size_t left = keep_alive_max_count_; left > 0 && svr_sock_ != INVALID_SOCKET; --left) {
    if (!stream.wait_for_request(idle_ms)) break;
    bool closed = false;
    served = process_request(stream, left == 1, closed, nullptr);
    bool keep = served && !closed && left > 1;
    // httplib reads no body of a GET and stops at a head it cannot parse:
    // the next request starts after the body the head declared, or, when
    // that is unknown or long, the connection ends with this answer.
    const auto unread = stream.unread_body();
    if (keep && (!unread || *unread > kDiscardAtMost)) {
      keep = false;
      stream.announce_close();
    }
    if (!stream.flush() || !keep || !stream.discard(*unread)) break;
  }
  stream.close_gracefully();
  return served;
}

}  // namespace fake_org::http
