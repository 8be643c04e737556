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
#include "httplib_seam.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "transport.h"

namespace fake_org::net {

struct StreamTimeouts {
  int read_ms = 5000;   // a request that stops halfway is dropped after this
  int write_ms = 5000;  // a client that stops reading is dropped after this
  // A request's head must be here whole this long after its first byte,
  // however steadily it trickles: a byte every few seconds never meets
  // read_ms and would hold its worker for ever.
  int head_ms = 30000;
};

class ConnectionStream final : public httplib::Stream {
 public:
  // `stop_fd` (or -1): once readable, every wait of the stream ends at once.
  ConnectionStream(socket_t sock, StreamTimeouts timeouts, int stop_fd = -1);

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

  using Clock = std::chrono::steady_clock;
  // Serves the connection over TLS (decision 218): runs the handshake, which
  // must end by `until`, as must the first request's head. False (the
  // connection to be closed) when it fails, stalls past `until` or the stop
  // fd becomes readable.
  bool start_tls(SSL_CTX* ctx, Clock::time_point until);

  // Sends every kept byte; false when the client is gone or stopped reading.
  bool flush();
  // What send_kept() managed: everything kept, part of it (the client reads
  // slower than this side writes), or nothing more ever (the client is gone).
  enum class Sent { kAll, kPart, kBroken };
  // Sends what the socket takes now, without waiting.
  Sent send_kept();
  // Whether writing may wait for the client to read: when false (a keep-alive
  // watch worker, which others wait for), the whole answer is kept and
  // is_writable() never waits; the caller sends it with send_kept().
  void set_wait_to_write(bool may) { wait_to_write_ = may; }
  // Until the next request's first byte is here (true; empty lines before it
  // are skipped), the connection closed, or `idle_ms` passed or the stop fd
  // became readable (false). Then starts noting the request's head.
  bool wait_for_request(int idle_ms);
  // The same without waiting: whether a request has begun (and is now
  // noted), nothing has come yet, or the client is gone.
  enum class Arrival { kRequest, kNothingYet, kGone };
  Arrival next_request();
  // Whether bytes read ahead wait to be taken, here or decrypted in the TLS
  // session: a connection holding any is served, never parked to wait for
  // the socket, which shows none of them.
  bool holds_input() const { return in_pos_ < in_end_ || transport_.pending(); }
  // Whether the head of the request begun is read into the buffer whole.
  bool head_is_here() const;
  // The head of the request begun (request line to blank line) when all of
  // it is buffered and none of it read yet; empty otherwise.
  std::string_view buffered_head() const;
  // Takes the head buffered_head() gave, as httplib's reads of it would.
  void take_buffered_head(size_t n);
  // Whether the request begun is here whole: its head, and the body its
  // Content-Length declares (never a chunked one). Serving it then reads
  // nothing from the socket.
  bool request_is_whole() const;
  // The bytes of the last request's body that nobody read, when its head was
  // read whole and said plainly how long the body is; else nullopt (where the
  // next request starts is unknown).
  std::optional<size_t> unread_body() const;
  // Reads and drops n bytes; false when they do not come.
  bool discard(size_t n);
  // Makes the kept response say "Connection: close" (when none of it is sent yet).
  void announce_close();
  // Ends the connection without losing what was sent: when the client has not
  // ended its side, this side ends its own and drops what still comes (for
  // up to a second) before closing, since closing with input unread resets
  // the connection and the client may lose the last answers.
  void close_gracefully();
  // Whether close_gracefully() may wait for the client (it has not ended its side).
  bool close_may_wait() const { return !closed_ && !ended_ && !broken_; }
  // Ends a connection waiting for its next request at once: it owes nothing
  // and holds nothing unread, so a plain close loses nothing.
  void close_idle();

  // Request targets up to the platform's 16,384 bytes are served (decision
  // 141), where httplib answers 414 past 8,192: the stream hands httplib a
  // short stand-in target and keeps the real one, which the server puts
  // back (restore_long_target) before routing. Longer ones reach httplib as
  // sent, which answers 414.
  static constexpr size_t kTargetAtMost = 16 * 1024;
  // The stand-in httplib parses; never routed once the real target is back.
  static constexpr const char* kStandInTarget = "/.fake-org-long-target";
  // The real target of the request being served, when it was stood in for
  // (empty otherwise); taking it clears it.
  std::string take_long_target() { return std::move(long_target_); }

 private:
  static constexpr size_t kReadChunk = 16 * 1024;
  static constexpr size_t kHeadAtMost = 64 * 1024;
  // httplib answers 414 for a request line past this (with its CRLF).
  static constexpr size_t kHttplibLineAtMost = CPPHTTPLIB_REQUEST_URI_MAX_LENGTH;
  // The longest request line of a served target: method, target, version.
  static constexpr size_t kLineAtMost = kTargetAtMost + 32;
  enum class Received { kBytes, kEnd, kNothingYet, kError };
  Received receive();  // what the socket has now, without waiting
  bool fill();         // what the socket has, waiting up to the read timeout
  static Clock::time_point after(int ms);
  // Until the socket has `events`, or `until` passed or the stop fd became
  // readable (false).
  bool wait(short events, Clock::time_point until) const;
  static constexpr uint32_t kBlankLine = 0x0d0a0d0a;  // "\r\n\r\n", as last4_
  void note(const char* bytes, size_t n);             // bytes httplib took while in the head
  void head_ends(const char* end, size_t body_bytes);
  // Past empty lines; true when a request's first byte is buffered, and then
  // starts noting its head.
  bool begin_request();
  // Before httplib reads a request's first byte: makes sure the request line
  // fits httplib's limit, gathering and standing in for a long target; false
  // when the connection ends first.
  bool take_request_line();
  // A gathered request line whose target httplib would refuse (past 8,192
  // bytes) but the platform serves: stands in for it.
  void stand_in_for_long_target();
  // A chunked body's bytes for httplib, without its trailer fields (RFC
  // 9112 7.1.2), which httplib 0.11 refuses: it expects the empty line
  // right after the last chunk.
  ssize_t read_chunked(char* ptr, size_t size);
  void step_chunk_size(char c);

  socket_t sock_;
  Transport transport_;  // what reads and writes sock_
  StreamTimeouts timeouts_;
  int stop_fd_;
  std::unique_ptr<char[]> in_{new char[kReadChunk]};
  size_t in_pos_ = 0, in_end_ = 0;  // unread input: in_[in_pos_, in_end_)
  bool ended_ = false;              // the client ended its side
  // The current request: its head starts at in_[head_from_] (what of it an
  // earlier fill held is in head_before_); last4_ holds its last 4 bytes.
  size_t head_from_ = 0;
  std::string head_before_;
  uint32_t last4_ = 0;
  bool head_whole_ = false;
  bool line_taken_ = false;  // take_request_line ran for this request
  std::string line_;         // a gathered request line httplib reads from here
  size_t line_pos_ = 0;
  std::string long_target_;
  // The head's deadline: head_ms after its first byte (none before begin_request).
  Clock::time_point head_until_ = Clock::time_point::max();
  Clock::time_point first_head_until_ = Clock::time_point::max();  // the TLS handshake's
  std::optional<size_t> declared_;  // its body's length, once the head is whole
  // Where a chunked body is: a chunk's size line, its data, the line end
  // after it, the start of a line of the trailer section, a trailer field
  // (dropped), the final empty line's LF, past the body; kNo: not chunked.
  enum class Chunked : uint8_t {
    kNo,
    kSize,
    kData,
    kDataEnd,
    kLineStart,
    kTrailer,
    kFinalLf,
    kDone
  };
  Chunked chunked_ = Chunked::kNo;
  size_t chunk_left_ = 0;        // of the chunk's data; in kSize the size read so far
  bool chunk_size_end_ = false;  // in kSize: past the hex digits (an extension follows)
  size_t body_read_ = 0;
  std::string out_;
  size_t out_sent_ = 0;  // of out_, what a send that did not take it all took
  bool broken_ = false;
  bool closed_ = false;
  bool wait_to_write_ = true;
  std::string remote_ip_, local_ip_;
  int remote_port_ = 0, local_port_ = 0;
};

}  // namespace fake_org::net
