#include "transport.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <string>

namespace fake_org::net {

namespace {

int fd_of(BIO* b) {
  return static_cast<int>(reinterpret_cast<intptr_t>(BIO_get_data(b)));
}

int bio_write(BIO* b, const char* data, int n) {
  BIO_clear_retry_flags(b);
  for (;;) {
    const ssize_t r = ::send(fd_of(b), data, static_cast<size_t>(n), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (r >= 0) return static_cast<int>(r);
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) BIO_set_retry_write(b);
    return -1;
  }
}

int bio_read(BIO* b, char* data, int n) {
  BIO_clear_retry_flags(b);
  for (;;) {
    const ssize_t r = ::recv(fd_of(b), data, static_cast<size_t>(n), MSG_DONTWAIT);
    if (r > 0) return static_cast<int>(r);
    if (r == 0) {
      // OpenSSL asks BIO_eof() to tell a client that went without a
      // close_notify from a read that failed.
      BIO_set_flags(b, BIO_FLAGS_IN_EOF);
      return 0;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) BIO_set_retry_read(b);
    return -1;
  }
}

long bio_ctrl(BIO* b, int cmd, long, void* ptr) {
  switch (cmd) {
    case BIO_CTRL_FLUSH:  // every write went to the socket at once
      return 1;
    case BIO_CTRL_EOF:
      return BIO_test_flags(b, BIO_FLAGS_IN_EOF) != 0;
    case BIO_C_GET_FD:
      if (ptr) *static_cast<int*>(ptr) = fd_of(b);
      return fd_of(b);
    default:
      return 0;
  }
}

int bio_create(BIO* b) {
  BIO_set_init(b, 1);
  return 1;
}

// Made once and kept for the process (what OpenSSL's own methods are).
const BIO_METHOD* socket_method() {
  static BIO_METHOD* const method = [] {
    BIO_METHOD* m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK | BIO_TYPE_DESCRIPTOR,
                                 "fake-org socket");
    if (m && !(BIO_meth_set_write(m, bio_write) && BIO_meth_set_read(m, bio_read) &&
               BIO_meth_set_ctrl(m, bio_ctrl) && BIO_meth_set_create(m, bio_create))) {
      BIO_meth_free(m);
      m = nullptr;
    }
    return m;
  }();
  return method;
}

// TLS 1.2 and 1.3 only, and in 1.2 only forward-secret AEAD suites (Mozilla's
// "intermediate" list): what the platform's own endpoints accept. OpenSSL's
// default also offers CBC suites such as AES128-SHA.
void restrict_tls(SSL_CTX* ctx) {
  SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
  SSL_CTX_set_cipher_list(ctx,
                          "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
                          "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
                          "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:"
                          "DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384");
}

int clamp(size_t size) {
  return static_cast<int>(std::min<size_t>(size, INT_MAX));
}

}  // namespace

SSL_CTX* make_tls_context(const std::string& cert_file, const std::string& key_file) {
  SSL_CTX* ctx = SSL_CTX_new(TLS_server_method());
  if (!ctx) return nullptr;
  SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_SESSION_RESUMPTION_ON_RENEGOTIATION |
                               SSL_OP_NO_RENEGOTIATION);
  if (SSL_CTX_use_certificate_chain_file(ctx, cert_file.c_str()) != 1 ||
      SSL_CTX_use_PrivateKey_file(ctx, key_file.c_str(), SSL_FILETYPE_PEM) != 1 ||
      SSL_CTX_check_private_key(ctx) != 1) {
    SSL_CTX_free(ctx);
    ERR_clear_error();
    return nullptr;
  }
  restrict_tls(ctx);
  return ctx;
}

bool Transport::start_tls(SSL_CTX* ctx) {
  const BIO_METHOD* method = socket_method();
  if (!method) return false;
  ssl_.reset(SSL_new(ctx));
  BIO* bio = BIO_new(method);
  if (!ssl_ || !bio) {
    BIO_free(bio);
    ssl_.reset();
    return false;
  }
  BIO_set_data(bio, reinterpret_cast<void*>(static_cast<intptr_t>(sock_)));
  SSL_set_bio(ssl_.get(), bio, bio);  // the session owns it
  bio_ = bio;
  // A write the socket took in part is retried with what is kept then,
  // which may have moved and grown (ConnectionStream's out_).
  SSL_set_mode(ssl_.get(), SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  SSL_set_accept_state(ssl_.get());
  return true;
}

Transport::Io Transport::failed(int ret, short& wants) {
  const int error = SSL_get_error(ssl_.get(), ret);
  // The pool thread goes on to other connections and other OpenSSL callers:
  // it keeps no error of this one's.
  ERR_clear_error();
  switch (error) {
    case SSL_ERROR_WANT_READ:
      wants = POLLIN;
      return Io::kNothingYet;
    case SSL_ERROR_WANT_WRITE:
      wants = POLLOUT;
      return Io::kNothingYet;
    case SSL_ERROR_ZERO_RETURN:  // the client's close_notify: it may still read
      return Io::kEnd;
    default:
      usable_ = false;  // no close_notify after a fatal error
      // A client that closed without a close_notify has ended, as on a
      // plain socket; anything else is an error.
      return BIO_test_flags(bio_, BIO_FLAGS_IN_EOF) ? Io::kEnd : Io::kError;
  }
}

Transport::Io Transport::receive(char* into, size_t size, size_t& got) {
  got = 0;
  if (!ssl_) {
    for (;;) {
      const ssize_t n = ::recv(sock_, into, size, MSG_DONTWAIT);
      if (n > 0) {
        got = static_cast<size_t>(n);
        return Io::kBytes;
      }
      if (n == 0) return Io::kEnd;
      if (errno == EINTR) continue;
      return errno == EAGAIN || errno == EWOULDBLOCK ? Io::kNothingYet : Io::kError;
    }
  }
  ERR_clear_error();  // SSL_get_error reads this thread's queue
  const int n = SSL_read(ssl_.get(), into, clamp(size));
  if (n > 0) {
    got = static_cast<size_t>(n);
    return Io::kBytes;
  }
  return failed(n, read_wants_);
}

Transport::Io Transport::send(const char* from, size_t size, size_t& sent) {
  sent = 0;
  if (!ssl_) {
    for (;;) {
      const ssize_t n = ::send(sock_, from, size, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0) {
        sent = static_cast<size_t>(n);
        return Io::kBytes;
      }
      if (n < 0 && errno == EINTR) continue;
      return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? Io::kNothingYet : Io::kError;
    }
  }
  ERR_clear_error();
  const int n = SSL_write(ssl_.get(), from, clamp(size));
  if (n > 0) {
    sent = static_cast<size_t>(n);
    return Io::kBytes;
  }
  const Io io = failed(n, write_wants_);
  return io == Io::kNothingYet ? io : Io::kError;
}

Transport::Io Transport::handshake() {
  if (!ssl_ || shook_) return Io::kBytes;
  ERR_clear_error();
  const int r = SSL_accept(ssl_.get());
  if (r == 1) {
    shook_ = true;
    return Io::kBytes;
  }
  const Io io = failed(r, handshake_wants_);
  return io == Io::kNothingYet ? io : Io::kError;
}

void Transport::end_session() {
  if (!ssl_ || !shook_ || !usable_) return;
  usable_ = false;  // once
  ERR_clear_error();
  SSL_shutdown(ssl_.get());
}

void Transport::close() {
  ssl_.reset();
  bio_ = nullptr;
  ::close(sock_);
}

}  // namespace fake_org::net
