#pragma once
// Raw HTTP/1.1 over one loopback socket, for requests httplib::Client never
// sends (a POST without Content-Length, a broken chunked body) and to show a
// keep-alive connection stays usable after them.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

namespace fake_org::testing {

struct RawResponse {
  int status = 0;
  std::string head;  // status line and headers
  std::string body;
  nlohmann::json json() const { return nlohmann::json::parse(body, nullptr, false); }
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

  void send(const std::string& text) {
    size_t done = 0;
    while (done < text.size()) {
      ssize_t n = ::send(fd_, text.data() + done, text.size() - done, MSG_NOSIGNAL);
      REQUIRE(n > 0);
      done += static_cast<size_t>(n);
    }
  }

  // One response: status line, headers, then Content-Length bytes of body.
  RawResponse read_response() {
    RawResponse r;
    size_t end;
    while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) REQUIRE(fill());
    r.head = buffer_.substr(0, end);
    buffer_.erase(0, end + 4);
    r.status = std::atoi(r.head.substr(r.head.find(' ') + 1, 3).c_str());
    size_t length = 0;
    auto at = r.head.find("Content-Length: ");
    if (at != std::string::npos) length = std::strtoul(r.head.c_str() + at + 16, nullptr, 10);
    while (buffer_.size() < length) REQUIRE(fill());
    r.body = buffer_.substr(0, length);
    buffer_.erase(0, length);
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

}  // namespace fake_org::testing
