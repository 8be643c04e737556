#pragma once
// HTTPS for the tests without any file checked in: a self-signed certificate
// for 127.0.0.1 made by the test, and a TLS client over one loopback socket
// that can stall where httplib::SSLClient never would (before its
// handshake, in the middle of a head) and connect from another 127.x
// address (another peer for the slow-head cap).
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <memory>
#include <string>

#include "testing/raw_http.h"
#include "testing/test_cert.h"

namespace fake_org::testing {

// The shared test certificate (common/testing/test_cert.h) as PEM files.
struct TestCertFiles {
  std::string cert_file, key_file;

  // Into `dir` (made if missing) as cert.pem and key.pem.
  static TestCertFiles make(const std::string& dir) {
    REQUIRE(std::system(("mkdir -p " + dir).c_str()) == 0);
    TestCertFiles t{dir + "/cert.pem", dir + "/key.pem"};
    common_testing::TestCert::make().write(t.cert_file, t.key_file);
    return t;
  }
};

// The first flight of a TLS client (its ClientHello), to trickle by hand.
inline std::string client_hello() {
  std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> ctx(SSL_CTX_new(TLS_client_method()),
                                                        SSL_CTX_free);
  std::unique_ptr<SSL, decltype(&SSL_free)> ssl(SSL_new(ctx.get()), SSL_free);
  BIO* in = BIO_new(BIO_s_mem());
  BIO* out = BIO_new(BIO_s_mem());
  SSL_set_bio(ssl.get(), in, out);
  SSL_connect(ssl.get());  // wants the server's answer; the hello is in `out`
  char* data = nullptr;
  const long n = BIO_get_mem_data(out, &data);
  return std::string(data, static_cast<size_t>(n));
}

class TlsConnection {
 public:
  // A TCP connection to 127.0.0.1:port from `from` (any 127.x address), no
  // TLS yet.
  explicit TlsConnection(int port, const std::string& from = "127.0.0.1") {
    // OpenSSL writes a socket with write(): a server that closes first
    // must fail the test, not end the process with SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd_ >= 0);
    timeval tv{60, 0};  // a safety net, never a measure
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    REQUIRE(inet_pton(AF_INET, from.c_str(), &addr.sin_addr) == 1);
    REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  }
  ~TlsConnection() {
    if (ssl_) SSL_free(ssl_);
    if (ctx_) SSL_CTX_free(ctx_);
    if (fd_ >= 0) ::close(fd_);
  }
  TlsConnection(const TlsConnection&) = delete;
  TlsConnection& operator=(const TlsConnection&) = delete;

  // Runs the handshake (the certificate unchecked); false when the server
  // ends the connection instead.
  bool handshake() {
    ctx_ = SSL_CTX_new(TLS_client_method());
    ssl_ = SSL_new(ctx_);
    SSL_set_fd(ssl_, fd_);
    return SSL_connect(ssl_) == 1;
  }

  // Bytes on the socket itself (a handshake by hand).
  void send_raw(const std::string& bytes) {
    REQUIRE(::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
            static_cast<ssize_t>(bytes.size()));
  }

  // Over TLS; false when the server has ended the connection.
  bool send(const std::string& text) {
    size_t done = 0;
    while (done < text.size()) {
      const int n = SSL_write(ssl_, text.data() + done, static_cast<int>(text.size() - done));
      if (n <= 0) return false;
      done += static_cast<size_t>(n);
    }
    return true;
  }

  // Whether the server sent something or ended the connection within
  // `limit` (it answers, or closes, at a deadline). Over TLS, bytes on the
  // socket may be only the session tickets a TLS 1.3 server sends after
  // the handshake: those are read and the wait goes on.
  bool server_acted_within(std::chrono::milliseconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    for (;;) {
      if (!buffer_.empty() || (ssl_ && SSL_pending(ssl_) > 0)) return true;
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          until - std::chrono::steady_clock::now());
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(std::max<int64_t>(left.count(), 0))) <= 0) return false;
      if (!ssl_) return true;
      char chunk[16384];
      ::fcntl(fd_, F_SETFL, O_NONBLOCK);  // read what is there, no more
      const int n = SSL_read(ssl_, chunk, sizeof chunk);
      const int error = n > 0 ? SSL_ERROR_NONE : SSL_get_error(ssl_, n);
      ::fcntl(fd_, F_SETFL, 0);
      if (n > 0) buffer_.append(chunk, static_cast<size_t>(n));
      if (error != SSL_ERROR_WANT_READ) return true;  // bytes, or the end
    }
  }

  // Whether the server ended the connection without a byte of TLS.
  bool closed_without_answer() const {
    char byte;
    const ssize_t n = ::recv(fd_, &byte, 1, MSG_PEEK);
    return n == 0 || (n < 0 && errno == ECONNRESET);
  }

  // One response with a Content-Length over TLS; status 0 when the
  // connection ends first.
  RawResponse read_response() {
    RawResponse r;
    size_t end;
    while ((end = buffer_.find("\r\n\r\n")) == std::string::npos)
      if (!fill()) return r;
    r.head = buffer_.substr(0, end);
    buffer_.erase(0, end + 4);
    if (r.head.rfind("HTTP/1.1 ", 0) != 0) return r;
    const size_t n = std::strtoul(r.header("Content-Length").c_str(), nullptr, 10);
    while (buffer_.size() < n)
      if (!fill()) return r;
    r.status = std::atoi(r.head.c_str() + 9);
    r.body = buffer_.substr(0, n);
    buffer_.erase(0, n);
    return r;
  }

 private:
  bool fill() {
    char chunk[16384];
    const int n = SSL_read(ssl_, chunk, sizeof chunk);
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<size_t>(n));
    return true;
  }

  int fd_ = -1;
  SSL_CTX* ctx_ = nullptr;
  SSL* ssl_ = nullptr;
  std::string buffer_;
};

}  // namespace fake_org::testing
