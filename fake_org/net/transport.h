#pragma once
// A connection's bytes on the wire (decision 218): the socket itself, or a
// TLS session on it. ConnectionStream reads, writes and closes through it,
// so HTTPS connections get the plain loop's head deadline, slow-head cap,
// keep-alive watch and fast path.
//
// Nothing here waits: an operation that cannot go on says which poll
// events would let it (a TLS read may need the socket writable, and a TLS
// write readable), and the stream waits for them with its own deadlines
// and stop fd.
//
// The TLS session reads and writes the socket through a BIO of its own
// that sends with MSG_NOSIGNAL, as the plain path does: OpenSSL's socket
// BIO writes with write(), and a client gone mid-answer would raise
// SIGPIPE in the whole process.
//
// Locking rule: none; the stream that owns it owns it.
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/types.h>

#include <cstddef>
#include <memory>
#include <string>

namespace fake_org::net {

// A server's TLS context (decision 218): the PEM certificate chain and key,
// TLS 1.2 and 1.3 with forward-secret AEAD suites; null when they cannot be
// loaded. Options as httplib::SSLServer set them, and no renegotiation,
// which a server reading without blocking need not serve.
SSL_CTX* make_tls_context(const std::string& cert_file, const std::string& key_file);

class Transport {
 public:
  explicit Transport(int sock) : sock_(sock) {}
  // Serves the connection over TLS from now on: a server session made from
  // `ctx`, its handshake still to run (handshake()). False when OpenSSL
  // could not make one.
  bool start_tls(SSL_CTX* ctx);

  enum class Io { kBytes, kEnd, kNothingYet, kError };
  // What the socket (or session) has now, up to `size` bytes, in `got`.
  Io receive(char* into, size_t size, size_t& got);
  // Sends what the socket takes now of `size` bytes (size > 0), in `sent`.
  Io send(const char* from, size_t size, size_t& sent);
  // One step of the TLS handshake: kBytes once it is done, kNothingYet
  // while it waits for the client, kError when it failed.
  Io handshake();
  // The poll events the last receive, send or handshake step that got
  // kNothingYet waits for; POLLIN and POLLOUT on a plain socket.
  short read_events() const { return read_wants_; }
  short write_events() const { return write_wants_; }
  short handshake_events() const { return handshake_wants_; }
  // Decrypted bytes the session holds, which no poll of the socket shows.
  bool pending() const { return ssl_ && SSL_pending(ssl_.get()) > 0; }
  // Tells the client the session ends (TLS close_notify, sent once, no wait
  // for the client's); nothing on a plain socket or a broken session.
  void end_session();
  // Frees the session and closes the socket.
  void close();

 private:
  // An SSL call's result that is not bytes; `wants` takes the events it waits for.
  Io failed(int ret, short& wants);
  struct SslFree {
    void operator()(SSL* s) const { SSL_free(s); }
  };
  int sock_;
  std::unique_ptr<SSL, SslFree> ssl_;
  BIO* bio_ = nullptr;  // the session's, freed with it
  bool usable_ = true;  // no fatal TLS error: close_notify may be sent
  bool shook_ = false;  // the handshake is done
  short read_wants_ = POLLIN;
  short write_wants_ = POLLOUT;
  short handshake_wants_ = POLLIN;
};

}  // namespace fake_org::net
