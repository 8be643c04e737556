#include "connection_stream.h"

#include <unistd.h>

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>

#include "request_framing.h"

namespace fake_org::net {

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

ConnectionStream::ConnectionStream(socket_t sock, StreamTimeouts timeouts, int stop_fd)
    : sock_(sock), transport_(sock), timeouts_(timeouts), stop_fd_(stop_fd) {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  if (getpeername(sock_, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
    name_of(addr, len, remote_ip_, remote_port_);
  len = sizeof(addr);
  if (getsockname(sock_, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
    name_of(addr, len, local_ip_, local_port_);
}

bool ConnectionStream::wait(short events, Clock::time_point until) const {
  pollfd p[2] = {{sock_, events, 0}, {stop_fd_, POLLIN, 0}};
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
    const int n = poll(p, stop_fd_ >= 0 ? 2 : 1, static_cast<int>(std::max<int64_t>(left, 0)));
    if (n < 0 && errno == EINTR) continue;
    // Readable also at the end of input or an error: the next call says which.
    return n > 0 && (p[1].revents & POLLIN) == 0 && p[0].revents != 0;
  }
}

ConnectionStream::Clock::time_point ConnectionStream::after(int ms) {
  return Clock::now() + std::chrono::milliseconds(ms);
}

bool ConnectionStream::is_readable() const {
  return line_pos_ < line_.size() || holds_input() ||
         wait(transport_.read_events(), after(timeouts_.read_ms));
}

bool ConnectionStream::is_writable() const {
  return wait_to_write_ ? const_cast<ConnectionStream*>(this)->flush() : !broken_;
}

ConnectionStream::Received ConnectionStream::receive() {
  size_t n = 0;
  switch (transport_.receive(in_.get(), kReadChunk, n)) {
    case Transport::Io::kBytes:
      in_pos_ = 0;
      in_end_ = n;
      return Received::kBytes;
    case Transport::Io::kEnd:
      ended_ = true;
      return Received::kEnd;
    case Transport::Io::kNothingYet:
      return Received::kNothingYet;
    default:
      return Received::kError;
  }
}

bool ConnectionStream::fill() {
  // A head that goes on past this buffer: keep what of it the buffer holds.
  if (!head_whole_ && head_before_.size() < kHeadAtMost)
    head_before_.append(in_.get() + head_from_, in_end_ - head_from_);
  head_from_ = 0;
  if (!head_whole_ && Clock::now() >= head_until_) return false;  // httplib answers 400
  Received got = receive();
  // Nothing yet: what this side still owes the client goes first (a
  // "100 Continue" it waits for before sending the body).
  if (got == Received::kNothingYet && flush()) {
    Clock::time_point until = after(timeouts_.read_ms);
    if (!head_whole_) until = std::min(until, head_until_);
    if (wait(transport_.read_events(), until)) got = receive();
  }
  return got == Received::kBytes;
}

ssize_t ConnectionStream::read(char* ptr, size_t size) {
  // httplib reads a request's head a byte at a time: that case first, with
  // the fewest tests (about 170 calls a request).
  if (size == 1 && line_taken_ && !head_whole_ && in_pos_ < in_end_ && line_pos_ >= line_.size()) {
    const char c = in_[in_pos_++];
    *ptr = c;
    last4_ = (last4_ << 8) | static_cast<unsigned char>(c);
    if (last4_ == kBlankLine) head_ends(in_.get() + in_pos_, 0);
    return 1;
  }
  if (!head_whole_ && !line_taken_ && !take_request_line()) return -1;
  if (line_pos_ < line_.size()) {
    const size_t n = std::min(size, line_.size() - line_pos_);
    std::memcpy(ptr, line_.data() + line_pos_, n);
    line_pos_ += n;
    return static_cast<ssize_t>(n);
  }
  if (in_pos_ == in_end_ && !fill()) return -1;
  const char* from = in_.get() + in_pos_;
  if (size == 1 && !head_whole_) {  // httplib reads a request's head a byte at a time
    *ptr = *from;
    ++in_pos_;
    last4_ = (last4_ << 8) | static_cast<unsigned char>(*from);
    if (last4_ == kBlankLine) head_ends(from + 1, 0);
    return 1;
  }
  if (head_whole_ && chunked_ != Chunked::kNo) return read_chunked(ptr, size);
  const size_t n = std::min(size, in_end_ - in_pos_);
  std::memcpy(ptr, from, n);
  in_pos_ += n;
  if (head_whole_)
    body_read_ += n;
  else
    note(from, n);
  return static_cast<ssize_t>(n);
}

bool ConnectionStream::take_request_line() {
  line_taken_ = true;
  if (in_pos_ == in_end_ && !fill()) return false;
  // The common case: the whole line is buffered and short; httplib reads it
  // from the buffer as it is.
  const char* from = in_.get() + in_pos_;
  const void* end = std::memchr(from, '\n', in_end_ - in_pos_);
  if (end && static_cast<const char*>(end) - from < static_cast<ptrdiff_t>(kHttplibLineAtMost))
    return true;
  // Gather it (across reads) up to the longest line a served target makes;
  // past that httplib gets it as sent, and answers 414.
  for (;;) {
    if (in_pos_ == in_end_ && !fill()) break;
    from = in_.get() + in_pos_;
    const size_t have = in_end_ - in_pos_;
    end = std::memchr(from, '\n', have);
    size_t take = end ? static_cast<size_t>(static_cast<const char*>(end) - from) + 1 : have;
    take = std::min(take, kLineAtMost - line_.size());
    line_.append(from, take);
    in_pos_ += take;
    for (size_t i = take >= 4 ? take - 4 : 0; i < take; ++i)
      last4_ = (last4_ << 8) | static_cast<unsigned char>(from[i]);
    if (end || line_.size() == kLineAtMost) break;
  }
  if (!line_.empty() && line_.back() == '\n') stand_in_for_long_target();
  return !line_.empty();
}

void ConnectionStream::stand_in_for_long_target() {
  if (line_.size() <= kHttplibLineAtMost) return;
  // "METHOD SP target SP HTTP/1.1 CRLF"
  const size_t first = line_.find(' ');
  const size_t last = line_.rfind(' ');
  if (first == std::string::npos || last <= first + 1) return;
  const size_t length = last - first - 1;
  if (length > kTargetAtMost) return;
  long_target_ = line_.substr(first + 1, length);
  line_ = line_.substr(0, first + 1) + kStandInTarget + line_.substr(last);
}

void ConnectionStream::note(const char* bytes, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    last4_ = (last4_ << 8) | static_cast<unsigned char>(bytes[i]);
    if (last4_ == kBlankLine) return head_ends(bytes + i + 1, n - i - 1);
  }
}

void ConnectionStream::head_ends(const char* end, size_t body_bytes) {
  head_whole_ = true;
  body_read_ = body_bytes;
  if (head_before_.size() >= kHeadAtMost) return;  // declared_ stays unknown
  const char* head = in_.get() + head_from_;
  head_before_.append(head, static_cast<size_t>(end - head));
  declared_ = declared_body_length(head_before_);
  // Body bytes httplib took with the head's end were not seen as chunks:
  // then the trailer fields stay (httplib reads the head a byte at a time).
  chunked_ = body_bytes == 0 && declares_chunked(head_before_) ? Chunked::kSize : Chunked::kNo;
}

void ConnectionStream::step_chunk_size(char c) {
  if (c == '\n') {
    chunked_ = chunk_left_ == 0 ? Chunked::kLineStart : Chunked::kData;
    chunk_size_end_ = false;
    return;
  }
  int digit = -1;
  if (c >= '0' && c <= '9') digit = c - '0';
  if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
  if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
  if (digit < 0 || chunk_left_ > (SIZE_MAX >> 4)) chunk_size_end_ = true;
  if (!chunk_size_end_) chunk_left_ = chunk_left_ * 16 + static_cast<size_t>(digit);
}

ssize_t ConnectionStream::read_chunked(char* ptr, size_t size) {
  size_t copied = 0;
  while (copied < size) {
    if (in_pos_ == in_end_ && (copied > 0 || !fill())) break;
    const char c = in_[in_pos_];
    switch (chunked_) {
      case Chunked::kData: {
        const size_t k = std::min({size - copied, chunk_left_, in_end_ - in_pos_});
        std::memcpy(ptr + copied, in_.get() + in_pos_, k);
        in_pos_ += k;
        copied += k;
        chunk_left_ -= k;
        if (chunk_left_ == 0) chunked_ = Chunked::kDataEnd;
        continue;
      }
      case Chunked::kTrailer:  // dropped, to the end of its line
        ++in_pos_;
        if (c == '\n') chunked_ = Chunked::kLineStart;
        continue;
      case Chunked::kLineStart:
        if (c != '\r' && c != '\n') {
          chunked_ = Chunked::kTrailer;
          ++in_pos_;
          continue;
        }
        chunked_ = c == '\r' ? Chunked::kFinalLf : Chunked::kDone;
        break;
      case Chunked::kFinalLf:
        chunked_ = Chunked::kDone;
        break;
      case Chunked::kSize:
        step_chunk_size(c);
        break;
      case Chunked::kDataEnd:
        if (c == '\n') chunked_ = Chunked::kSize;
        break;
      default:
        break;
    }
    ptr[copied++] = c;
    ++in_pos_;
  }
  if (copied == 0) return -1;
  body_read_ += copied;
  return static_cast<ssize_t>(copied);
}

ssize_t ConnectionStream::write(const char* ptr, size_t size) {
  if (broken_) return -1;
  out_.append(ptr, size);
  if (wait_to_write_ && out_.size() > kKeepAtMost && !flush()) return -1;
  return static_cast<ssize_t>(size);
}

bool ConnectionStream::flush() {
  for (;;) {
    switch (send_kept()) {
      case Sent::kAll:
        return true;
      case Sent::kBroken:
        return false;
      case Sent::kPart:
        if (wait(transport_.write_events(), after(timeouts_.write_ms))) continue;
        broken_ = true;  // the client stopped reading, or the server stops
        out_.clear();
        out_sent_ = 0;
        return false;
    }
  }
}

bool ConnectionStream::begin_request() {
  // Empty lines before a request are ignored (RFC 9112, 2.2).
  while (in_pos_ < in_end_ && (in_[in_pos_] == '\r' || in_[in_pos_] == '\n')) ++in_pos_;
  if (in_pos_ == in_end_) return false;
  head_from_ = in_pos_;
  head_before_.clear();
  last4_ = 0;
  head_whole_ = false;
  line_taken_ = false;
  line_.clear();
  line_pos_ = 0;
  long_target_.clear();
  chunked_ = Chunked::kNo;
  chunk_left_ = 0;
  head_until_ = std::min(after(timeouts_.head_ms), first_head_until_);
  first_head_until_ = Clock::time_point::max();
  declared_.reset();
  body_read_ = 0;
  return true;
}

ConnectionStream::Sent ConnectionStream::send_kept() {
  while (!broken_ && out_sent_ < out_.size()) {
    size_t n = 0;
    switch (transport_.send(out_.data() + out_sent_, out_.size() - out_sent_, n)) {
      case Transport::Io::kBytes:
        out_sent_ += n;
        break;
      case Transport::Io::kNothingYet:
        return Sent::kPart;
      default:
        broken_ = true;
    }
  }
  out_.clear();
  out_sent_ = 0;
  return broken_ ? Sent::kBroken : Sent::kAll;
}

bool ConnectionStream::wait_for_request(int idle_ms) {
  if (!flush()) return false;
  const auto until = after(idle_ms);
  for (;;) {
    if (begin_request()) return true;
    // Under load the next request has often come while this thread was
    // preempted after its send: take it without a poll and a sleep.
    const Received got = receive();
    if (got == Received::kBytes) continue;
    if (got != Received::kNothingYet) return got == Received::kEnd;  // read() reports the end
    if (!wait(transport_.read_events(), until)) return false;
  }
}

ConnectionStream::Arrival ConnectionStream::next_request() {
  if (!flush()) return Arrival::kGone;
  for (;;) {
    if (begin_request()) return Arrival::kRequest;
    switch (receive()) {
      case Received::kBytes:
        continue;
      case Received::kNothingYet:
        return Arrival::kNothingYet;
      default:
        return Arrival::kGone;
    }
  }
}

bool ConnectionStream::head_is_here() const {
  const std::string_view buffered(in_.get() + in_pos_, in_end_ - in_pos_);
  return buffered.find("\r\n\r\n") != std::string_view::npos;
}

std::string_view ConnectionStream::buffered_head() const {
  if (head_whole_ || line_taken_ || in_pos_ != head_from_) return {};
  const std::string_view buffered(in_.get() + in_pos_, in_end_ - in_pos_);
  const size_t blank = buffered.find("\r\n\r\n");
  return blank == std::string_view::npos ? std::string_view() : buffered.substr(0, blank + 4);
}

void ConnectionStream::take_buffered_head(size_t n) {
  line_taken_ = true;
  in_pos_ += n;
  last4_ = kBlankLine;
  head_ends(in_.get() + in_pos_, 0);
}

bool ConnectionStream::request_is_whole() const {
  const std::string_view buffered(in_.get() + in_pos_, in_end_ - in_pos_);
  const size_t blank = buffered.find("\r\n\r\n");
  if (blank == std::string_view::npos) return false;
  const size_t head = blank + 4;
  const auto body = declared_body_length(buffered.substr(0, head));
  return body && *body <= buffered.size() - head;
}

std::optional<size_t> ConnectionStream::unread_body() const {
  if (!head_whole_ || !declared_ || *declared_ < body_read_) return std::nullopt;
  return *declared_ - body_read_;
}

bool ConnectionStream::discard(size_t n) {
  while (n > 0) {
    if (in_pos_ == in_end_ && !fill()) return false;
    const size_t k = std::min(n, in_end_ - in_pos_);
    in_pos_ += k;
    n -= k;
  }
  return true;
}

void ConnectionStream::announce_close() {
  constexpr std::string_view kClose = "Connection: close\r\n";
  if (out_sent_ > 0 || out_.rfind("HTTP/1.1 ", 0) != 0) return;  // sent in part, or nothing kept
  const size_t head_end = out_.find("\r\n\r\n");
  const size_t first = out_.find("\r\n");
  if (head_end == std::string::npos ||
      out_.substr(0, head_end + 2).find(kClose) != std::string::npos)
    return;
  out_.insert(first + 2, kClose);
}

void ConnectionStream::close_gracefully() {
  if (closed_) return;
  flush();
  if (!broken_) transport_.end_session();
  if (!ended_ && !broken_) {
    shutdown(sock_, SHUT_WR);
    const auto until = after(1000);
    for (size_t dropped = 0; dropped < (1u << 20);) {
      size_t n = 0;
      const Transport::Io got = transport_.receive(in_.get(), kReadChunk, n);
      dropped += n;
      if (got == Transport::Io::kBytes) continue;
      if (got != Transport::Io::kNothingYet || !wait(transport_.read_events(), until)) break;
    }
  }
  shutdown(sock_, SHUT_RDWR);
  transport_.close();
  closed_ = true;
}

void ConnectionStream::close_idle() {
  if (closed_) return;
  transport_.end_session();
  transport_.close();
  closed_ = true;
}

bool ConnectionStream::start_tls(SSL_CTX* ctx, Clock::time_point until) {
  // The first request's head is due by the same deadline: a handshake
  // that took most of it leaves its head the rest.
  first_head_until_ = until;
  if (!transport_.start_tls(ctx)) {
    broken_ = true;
    return false;
  }
  for (;;) {
    switch (transport_.handshake()) {
      case Transport::Io::kBytes:
        return true;
      case Transport::Io::kNothingYet:
        break;
      default:
        broken_ = true;  // closed at once, no close_notify
        return false;
    }
    if (!wait(transport_.handshake_events(), std::min(until, after(timeouts_.read_ms)))) {
      broken_ = true;
      return false;
    }
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

}  // namespace fake_org::net
