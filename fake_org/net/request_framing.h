#pragma once
// What a request's head says about the body after it: the keep-alive loop
// (ConnectionServer) needs it to know where the next request starts when
// httplib did not read the body (a GET with one) or could not read the head.
#include <httplib.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace fake_org::net {

// The body's length from Content-Length (0 without one); nullopt when the
// head does not say it plainly: a Transfer-Encoding (httplib's chunked reader
// leaves a trailer unread), Content-Length twice with different values, or a
// value that is not a number.
std::optional<size_t> declared_body_length(std::string_view head);

// Whether the head says its body is chunked (Transfer-Encoding: chunked and
// nothing else; any other is refused before the body is read).
bool declares_chunked(std::string_view head);

// What RFC 9112 makes a client error and httplib 0.11 lets through or
// waits on, found before httplib reads the body.
struct HeadProblem {
  int status = 400;
  std::string message;
};

// Pre-routing, on the worker's own request (httplib hands a const view):
// - an absolute-form target ("GET http://host/path HTTP/1.1", RFC 9112
//   3.2.2) is served as its origin form, with the authority as the Host;
// - whitespace between a header's name and its colon (5.1), and a
//   Transfer-Encoding other than "chunked" alone (6.1, 6.3; a coding httplib
//   cannot undo is a 400 too, not 501, the platform's errors having no 501)
//   are returned as a problem,
//   and the body is declared empty so httplib reads nothing: it would wait
//   out the read timeout for a body it cannot delimit. The caller answers
//   the problem and ends the connection.
std::optional<HeadProblem> take_head_problem(const httplib::Request& req);

}  // namespace fake_org::net
