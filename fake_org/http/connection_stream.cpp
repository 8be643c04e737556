#include "connection_stream.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

namespace fake_org::http {

namespace {

// Kept output past this is sent at once: a large body need not sit whole in
// memory twice.
constexpr size_t kKeepAtMost = 64 * 1024;

void name_of(const sockaddr_storage& addr, socklen_t len, std::string& ip, int& port) {
  char host[NI_MAXHOST];
  if (getnameinfo(reinterpret_cast<const sockaddr*>(&addr), len, host, sizeof(host), nullptr, 0,
                  NI_NUMERICHOST) != 0)
    return;
  ip = host;
  if (addr.ss_family == AF_INET)
    port = ntohs(reinterpret_cast<const sockaddr_in&>(addr).sin_port);
  else if (addr.ss_family == AF_INET6)
    port = ntohs(reinterpret_cast<const sockaddr_in6&>(addr).sin6_port);
}

}  // namespace

ConnectionStream::ConnectionStream(socket_t sock, StreamTimeouts timeouts)
    : sock_(sock), timeouts_(timeouts) {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  if (getpeername(sock_, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
    name_of(addr, len, remote_ip_, remote_port_);
  len = sizeof(addr);
  if (getsockname(sock_, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
    name_of(addr, len, local_ip_, local_port_);
}

bool ConnectionStream::wait(short events, int timeout_ms) const {
  pollfd p{sock_, events, 0};
  for (;;) {
    const int n = poll(&p, 1, timeout_ms);
    if (n > 0) return true;
    if (n == 0 || errno != EINTR) return false;
  }
}

bool ConnectionStream::is_readable() const {
  return in_pos_ < in_end_ || wait(POLLIN, timeouts_.read_ms);
}

bool ConnectionStream::is_writable() const {
  return const_cast<ConnectionStream*>(this)->flush();
}

bool ConnectionStream::fill() {
  in_pos_ = in_end_ = 0;
  for (bool waited = false;;) {
    const ssize_t n = recv(sock_, in_.get(), kReadChunk, MSG_DONTWAIT);
    if (n > 0) {
      in_end_ = static_cast<size_t>(n);
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    // Nothing yet: what this side still owes the client goes first (a
    // "100 Continue" it waits for before sending the body).
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && !waited && flush() &&
        wait(POLLIN, timeouts_.read_ms)) {
      waited = true;
      continue;
    }
    return false;
  }
}

ssize_t ConnectionStream::read(char* ptr, size_t size) {
  if (in_pos_ == in_end_ && !fill()) return -1;
  if (size == 1) {  // httplib reads a request's head a byte at a time
    *ptr = in_[in_pos_++];
    return 1;
  }
  const size_t n = std::min(size, in_end_ - in_pos_);
  std::memcpy(ptr, in_.get() + in_pos_, n);
  in_pos_ += n;
  return static_cast<ssize_t>(n);
}

ssize_t ConnectionStream::write(const char* ptr, size_t size) {
  if (broken_) return -1;
  out_.append(ptr, size);
  if (out_.size() > kKeepAtMost && !flush()) return -1;
  return static_cast<ssize_t>(size);
}

bool ConnectionStream::flush() {
  size_t sent = 0;
  while (!broken_ && sent < out_.size()) {
    const ssize_t n =
        send(sock_, out_.data() + sent, out_.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      sent += static_cast<size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) &&
               wait(POLLOUT, timeouts_.write_ms)) {
      continue;
    } else {
      broken_ = true;
    }
  }
  out_.clear();
  return !broken_;
}

bool ConnectionStream::wait_for_request(int idle_ms, int stop_fd) {
  if (in_pos_ < in_end_) return true;
  if (!flush()) return false;
  pollfd p[2] = {{sock_, POLLIN, 0}, {stop_fd, POLLIN, 0}};
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(idle_ms);
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          until - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) return false;
    const int n = poll(p, stop_fd >= 0 ? 2 : 1, static_cast<int>(left));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || (p[1].revents & POLLIN)) return false;
    // Readable: a request, or the client closed (read() then sees the end).
    return true;
  }
}

void ConnectionStream::get_remote_ip_and_port(std::string& ip, int& port) const {
  ip = remote_ip_;
  port = remote_port_;
}

void ConnectionStream::get_local_ip_and_port(std::string& ip, int& port) const {
  ip = local_ip_;
  port = local_port_;
}

}  // namespace fake_org::http
