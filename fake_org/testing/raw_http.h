#pragma once
// Raw HTTP/1.1 over one loopback socket, for what httplib::Client never sends
// (a POST without Content-Length, a broken chunked body) or never shows (its
// client URL-decodes every response header value), and to show a keep-alive
// connection stays usable after a request.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "util/ascii.h"

namespace fake_org::testing {

struct RawResponse {
  int status = 0;
  std::string head;  // status line and headers, as sent
  std::string body;

  nlohmann::json json() const { return nlohmann::json::parse(body, nullptr, false); }
  // The value of the first header of that name (any case), as sent; "" when absent.
  std::string header(const std::string& name) const {
    const std::string wanted = ascii_lower(name) + ":";
    for (size_t at = head.find("\r\n"); at != std::string::npos;) {
      const size_t start = at + 2;
      const size_t end = head.find("\r\n", start);
      const std::string line = head.substr(start, end == std::string::npos ? end : end - start);
      if (ascii_lower(line.substr(0, wanted.size())) == wanted) {
        const size_t value = line.find_first_not_of(' ', wanted.size());
        return value == std::string::npos ? "" : line.substr(value);
      }
      at = end;
    }
    return "";
  }
};

class RawConnection {
 public:
  explicit RawConnection(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd_ >= 0);
    // A safety net so a server that never answers fails the test instead of
    // hanging it; no test measures time with it.
    timeval tv{60, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  }
  ~RawConnection() {
    if (fd_ >= 0) ::close(fd_);
  }
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  // The server has neither closed the connection nor sent anything on it.
  bool open_and_silent() const {
    char byte;
    ssize_t n = ::recv(fd_, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
  }

  // The server closed the connection (an end of input waits to be read).
  bool closed_by_server() const {
    char byte;
    return ::recv(fd_, &byte, 1, MSG_PEEK) == 0;
  }

  // The body length of the next response that states one, read and
  // dropped; 0 when the connection ends first. No Catch assertion: safe
  // from another thread.
  size_t read_body_size() {
    size_t end;
    while ((end = buffer_.find("\r\n\r\n")) == std::string::npos)
      if (!fill()) return 0;
    RawResponse r;
    r.head = buffer_.substr(0, end);
    buffer_.erase(0, end + 4);
    const size_t n = std::strtoul(r.header("Content-Length").c_str(), nullptr, 10);
    while (buffer_.size() < n)
      if (!fill()) return 0;
    buffer_.erase(0, n);
    return n;
  }

  // A fixed receive buffer (the kernel then does not grow it). Far below the
  // loopback's 64 KiB segments a sender waits on acknowledgements and a
  // transfer crawls, so keep it well above that.
  void set_receive_buffer(int bytes) {
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes);
  }

  // Says this side sends nothing more; answers can still come back.
  void finish_sending() { ::shutdown(fd_, SHUT_WR); }

  // Reads whatever else comes; true when the server then closed (not reset).
  bool reads_to_the_end() {
    while (fill()) {
    }
    return closed_by_server();
  }

  // A head with no body after it (an interim "100 Continue"), without its
  // blank line.
  std::string read_head() {
    size_t end;
    while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) REQUIRE(fill());
    std::string head = buffer_.substr(0, end);
    buffer_.erase(0, end + 4);
    return head;
  }

  void send(const std::string& text) {
    size_t done = 0;
    while (done < text.size()) {
      ssize_t n = ::send(fd_, text.data() + done, text.size() - done, MSG_NOSIGNAL);
      REQUIRE(n > 0);
      done += static_cast<size_t>(n);
    }
  }

  // One response: status line, headers, then Content-Length bytes of body,
  // or without a Content-Length everything until the server closes.
  RawResponse read_response() {
    RawResponse r;
    size_t end;
    while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) REQUIRE(fill());
    r.head = buffer_.substr(0, end);
    buffer_.erase(0, end + 4);
    REQUIRE(r.head.rfind("HTTP/1.1 ", 0) == 0);
    r.status = std::atoi(r.head.substr(9, 3).c_str());
    const std::string length = r.header("Content-Length");
    if (length.empty()) {
      while (fill()) {
      }
      r.body = std::move(buffer_);
      buffer_.clear();
      return r;
    }
    const size_t n = std::strtoul(length.c_str(), nullptr, 10);
    while (buffer_.size() < n) REQUIRE(fill());
    r.body = buffer_.substr(0, n);
    buffer_.erase(0, n);
    return r;
  }

 private:
  bool fill() {
    char chunk[4096];
    ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<size_t>(n));
    return true;
  }
  int fd_ = -1;
  std::string buffer_;
};

// A request's head as a raw client writes it, with a bearer token unless
// `token` is empty and `extra` header lines (each ending in CRLF).
inline std::string request_head(const std::string& method, const std::string& path,
                                const std::string& token, const std::string& extra = "") {
  std::string head = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  if (!token.empty()) head += "Authorization: Bearer " + token + "\r\n";
  return head + extra + "\r\n";
}

// One request on a connection of its own, closed after the response; the
// body goes as a form unless another type is named.
inline RawResponse raw_request(
    int port, const std::string& method, const std::string& target,
    const std::string& body = std::string(),
    const std::string& content_type = "application/x-www-form-urlencoded") {
  RawConnection conn(port);
  conn.send(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" +
            "Content-Type: " + content_type + "\r\nContent-Length: " + std::to_string(body.size()) +
            "\r\n\r\n" + body);
  return conn.read_response();
}

}  // namespace fake_org::testing
