#pragma once
// A request whose head is buffered whole and says nothing httplib would
// treat specially, served without httplib's process_request (decisions 208,
// 215): the same handlers in the same order, the body read as httplib reads
// it, the answer written as httplib writes it, at about half the
// instructions (httplib reads a head a byte at a time through the stream,
// files headers in a map that lowers every character it compares, and
// builds each answer with a stringstream and snprintf).
//
// Plain: a GET without a body; a POST, PUT, PATCH or DELETE whose body has
// a Content-Length (digits, once, within the server's payload limit) and
// is not a form (httplib parses a urlencoded or multipart body itself).
// Anything else (another method, HTTP/1.0, a target with #, white space or
// two '?', a header with % in its value, white space in its name, an
// empty value, Range, Expect, Accept-Encoding, Content-Encoding or
// Transfer-Encoding; a GET with Content-Length) is left to httplib, which
// reads it from the stream.
//
// Locking rule: none; PlainHandlers is set before the server starts and
// only read after.
#include "httplib_seam.h"

#include <ctime>
#include <string_view>

namespace fake_org::net {

// The server's handlers, as httplib was given them.
struct PlainHandlers {
  httplib::Server::HandlerWithResponse pre_routing;
  // The handler of every method, for a request pre_routing leaves (the fake
  // registers one handler for all of them).
  httplib::Server::Handler route;
  httplib::Server::Handler post_routing;
  httplib::Server::HandlerWithResponse error;
  httplib::Server::ExceptionHandler exception;
  httplib::Logger logger;
  bool complete() const {
    return pre_routing && route && post_routing && error && exception && logger;
  }
};

// Fills `req` from `head` (request line to blank line) as httplib's parse
// would; false for a head left to httplib (`req` then unspecified). A body
// longer than `max_body` is left to httplib too (its 413).
bool parse_plain_request(std::string_view head, httplib::Request& req, size_t max_body);

// What httplib's process_request does once it has parsed `req`: the
// connection's addresses, the handlers, the body read from `strm` when the
// pre-routing handler leaves the request, the answer written to `strm`, the
// log. False when the answer could not be written.
struct KeepAlive {
  bool close_connection;  // the connection's last request
  time_t timeout_sec;
  size_t max_count;
};
bool serve_plain_request(httplib::Stream& strm, httplib::Request& req, const PlainHandlers& h,
                         KeepAlive keep_alive, bool& connection_closed);

}  // namespace fake_org::net
