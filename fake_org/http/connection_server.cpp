#include "connection_server.h"

#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "connection_stream.h"

namespace fake_org::http {

ConnectionServer::ConnectionServer() : stop_fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}

ConnectionServer::~ConnectionServer() {
  if (stop_fd_ >= 0) close(stop_fd_);
}

void ConnectionServer::interrupt_idle_connections() {
  if (stop_fd_ < 0) return;
  const uint64_t one = 1;
  [[maybe_unused]] const ssize_t n = ::write(stop_fd_, &one, sizeof(one));
}

bool ConnectionServer::process_and_close_socket(socket_t sock) {
  const auto ms = [](time_t sec, time_t usec) {
    return static_cast<int>(sec * 1000 + usec / 1000);
  };
  ConnectionStream stream(sock, {ms(read_timeout_sec_, read_timeout_usec_),
                                 ms(write_timeout_sec_, write_timeout_usec_)});
  const int idle_ms = ms(keep_alive_timeout_sec_, 0);
  bool served = false;
  // As httplib's loop: at most keep_alive_max_count_ requests, the last
  // answered with "Connection: close".
  for (size_t left = keep_alive_max_count_; left > 0 && svr_sock_ != INVALID_SOCKET; --left) {
    if (!stream.wait_for_request(idle_ms, stop_fd_)) break;
    bool closed = false;
    served = process_request(stream, left == 1, closed, nullptr);
    if (!stream.flush() || !served || closed) break;
  }
  shutdown(sock, SHUT_RDWR);
  close(sock);
  return served;
}

}  // namespace fake_org::http
