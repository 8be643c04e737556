#pragma once
// The one seam between the transport and cpp-httplib's internals (decision
// 134). Everything else in the fake uses httplib's public API; the transport
// also relies on these members of httplib::Server, which 0.11 declares
// virtual or protected but does not document:
// - process_and_close_socket(sock): the per-connection loop, overridden by
//   ConnectionServer as httplib's own SSLServer overrides it;
// - process_request(stream, close_connection, connection_closed, setup):
//   parses one request, routes it and writes its answer;
// - read_timeout_sec_/usec_, write_timeout_sec_/usec_,
//   keep_alive_timeout_sec_ and svr_sock_: the settings and listening socket
//   the loop honours;
// - new_task_queue: where accepted connections go (ConnectionPool);
// - httplib::Stream and httplib::TaskQueue: the interfaces ConnectionStream
//   and ConnectionPool implement.
// - process_request's steps, which net/plain_request.cpp repeats for a
//   plain request (decisions 208, 215): parse_request_line and read_headers (a
//   header's value percent-decoded), the Connection header, the four
//   address headers, the pre-routing handler, then routing's
//   read_content_with_length into the body (Content-Length, 400 when the
//   body ends early) and the method's handler, the
//   exception handler, write_response_core's error handler, Content-Length,
//   Keep-Alive ("timeout=T, max=M") or "Connection: close", the default
//   Content-Type, the post-routing handler, "%s: %s\r\n" per header, the
//   logger; and detail::status_message, exported but not declared.
// A newer httplib may rename or reshape any of them: the check below makes
// an upgrade stop here, at the list of what to re-verify, instead of
// compiling into a loop that no longer matches httplib's.
#include <httplib.h>

#include <string_view>

namespace fake_org::net {

inline constexpr std::string_view kHttplibSeamVersion = "0.11.";
static_assert(std::string_view(CPPHTTPLIB_VERSION).substr(0, kHttplibSeamVersion.size()) ==
                  kHttplibSeamVersion,
              "net/ relies on httplib 0.11's internals (net/httplib_seam.h): re-verify each "
              "member listed there against this httplib, then update kHttplibSeamVersion");

}  // namespace fake_org::net
