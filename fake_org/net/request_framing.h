#pragma once
// What a request's head says about the body after it: the keep-alive loop
// (ConnectionServer) needs it to know where the next request starts when
// httplib did not read the body (a GET with one) or could not read the head.
#include <cstddef>
#include <optional>
#include <string_view>

namespace fake_org::net {

// The body's length from Content-Length (0 without one); nullopt when the
// head does not say it plainly: a Transfer-Encoding (httplib's chunked reader
// leaves a trailer unread), Content-Length twice with different values, or a
// value that is not a number.
std::optional<size_t> declared_body_length(std::string_view head);

}  // namespace fake_org::net
