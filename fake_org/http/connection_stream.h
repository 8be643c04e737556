#pragma once
// One keep-alive connection's bytes, for httplib's request parser and
// response writer (ConnectionServer). httplib's own stream sends a
// response's head and body in two send() calls, each a TCP segment that
// wakes the client, polls the socket before every read and write, and asks
// the kernel for both addresses on every request. This one keeps what it
// writes until the response is complete (or the client is to be waited
// for), reads ahead across requests, and learns the addresses once per
// connection (decision 134).
//
// Locking rule: none; one worker thread owns a connection and its stream.
#include <httplib.h>

#include <memory>
#include <string>

namespace fake_org::http {

struct StreamTimeouts {
  int read_ms = 5000;   // a request that stops halfway is dropped after this
  int write_ms = 5000;  // a client that stops reading is dropped after this
};

class ConnectionStream final : public httplib::Stream {
 public:
  ConnectionStream(socket_t sock, StreamTimeouts timeouts);

  // httplib::Stream. write() keeps the bytes; read() and is_writable() send
  // what is kept first, so a client waiting for "100 Continue" or a chunk
  // gets it before this side waits.
  bool is_readable() const override;
  bool is_writable() const override;
  ssize_t read(char* ptr, size_t size) override;
  ssize_t write(const char* ptr, size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override { return sock_; }

  // Sends every kept byte; false when the client is gone or stopped reading.
  bool flush();
  // Until the next request's first byte is here (true), the connection
  // closed, or `idle_ms` passed or `stop_fd` became readable (false).
  bool wait_for_request(int idle_ms, int stop_fd);

 private:
  static constexpr size_t kReadChunk = 16 * 1024;
  bool fill();  // reads what the socket has; false on EOF, error or timeout
  bool wait(short events, int timeout_ms) const;

  socket_t sock_;
  StreamTimeouts timeouts_;
  std::unique_ptr<char[]> in_{new char[kReadChunk]};
  size_t in_pos_ = 0, in_end_ = 0;  // unread input: in_[in_pos_, in_end_)
  std::string out_;
  bool broken_ = false;
  std::string remote_ip_, local_ip_;
  int remote_port_ = 0, local_port_ = 0;
};

}  // namespace fake_org::http
