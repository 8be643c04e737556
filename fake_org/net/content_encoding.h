#pragma once
// Request bodies sent with Content-Encoding (the platform's REST API takes
// gzip and deflate). cpp-httplib would inflate them whole before any limit
// applies (a 1 MB gzip body grew past 4 GB), so the pre-routing handler takes
// the header away, httplib reads the body as it came (its size limit holds),
// and the dispatcher inflates it here, stopping at the org's body limit.
#include <httplib.h>

#include <string>

namespace fake_org::net {

// Pre-routing: takes the request's Content-Encoding headers off the request,
// so httplib leaves the body as sent, and returns them joined by ", " (empty
// when none was given) for the caller to decode the body with later.
std::string take_content_encoding(const httplib::Request& req);

enum class BodyDecoding { kDone, kTooLarge, kUnsupported, kCorrupt };

// Replaces `body`, sent with `encoding` ("gzip", "x-gzip", "deflate",
// "identity"; lists like "gzip, identity" applied last to first), by what it
// encodes, never holding more than `max_bytes` of it.
BodyDecoding decode_body(const std::string& encoding, std::string& body, size_t max_bytes);

}  // namespace fake_org::net
