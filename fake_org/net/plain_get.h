#pragma once
// A GET whose head is buffered whole and says nothing httplib would treat
// specially, served without httplib's process_request (decision 208): the
// same handlers in the same order, the answer written as httplib writes it,
// at about half the instructions (httplib reads a head a byte at a time
// through the stream, files headers in a map that lowers every character it
// compares, and builds each answer with a stringstream and snprintf).
//
// Anything else (another method, HTTP/1.0, a target with #, white space or
// two '?', a header with % in its value, white space in its name, an
// empty value, Range, Expect, Accept-Encoding, Content-Length or
// Transfer-Encoding) is left to httplib, which reads it from the stream.
//
// Locking rule: none; PlainGetHandlers is set before the server starts and
// only read after.
#include "httplib_seam.h"

#include <ctime>
#include <string_view>

namespace fake_org::net {

// The server's handlers, as httplib was given them.
struct PlainGetHandlers {
  httplib::Server::HandlerWithResponse pre_routing;
  httplib::Server::Handler route;  // the GET handler, for a GET pre_routing leaves
  httplib::Server::Handler post_routing;
  httplib::Server::HandlerWithResponse error;
  httplib::Server::ExceptionHandler exception;
  httplib::Logger logger;
  bool complete() const {
    return pre_routing && route && post_routing && error && exception && logger;
  }
};

// Fills `req` from `head` (request line to blank line) as httplib's parse
// would; false for a head left to httplib (`req` then unspecified).
bool parse_plain_get(std::string_view head, httplib::Request& req);

// What httplib's process_request does once it has parsed `req`: the
// connection's addresses, the handlers, the answer written to `strm`, the
// log. False when the answer could not be written.
struct KeepAlive {
  bool close_connection;  // the connection's last request
  time_t timeout_sec;
  size_t max_count;
};
bool serve_plain_get(httplib::Stream& strm, httplib::Request& req, const PlainGetHandlers& h,
                     KeepAlive keep_alive, bool& connection_closed);

}  // namespace fake_org::net
